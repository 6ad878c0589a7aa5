package dev.weft.app.vm;

import dev.weft.app.source.Verification;
import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;

/** Figures for the summary tiles, computed once from the timeline model, plus the verdict. */
public final class SummaryViewModel {

    private final long ops, sent, delivered, dropped, noReceiver;
    private final DocumentViewModel doc;

    public SummaryViewModel(DocumentViewModel doc) {
        this.doc = doc;
        TimelineModel m = doc.source().timeline();
        long s = 0, d = 0, dr = 0, nr = 0;
        for (int op = 0; op < m.size(); op++) {
            MarkKind k = m.kind(op);
            if (k.isSend()) s++;
            if (k == MarkKind.RECV) d++;
            if (k == MarkKind.SEND_DROPPED) dr++;
            if (k == MarkKind.SEND_NO_RECEIVER) nr++;
        }
        ops = m.size();
        sent = s;
        delivered = d;
        dropped = dr;
        noReceiver = nr;
    }

    public long ops() { return ops; }
    public long sent() { return sent; }
    public long delivered() { return delivered; }
    public long dropped() { return dropped; }
    public long noReceiver() { return noReceiver; }

    public String verificationText() {
        Verification v = doc.verification();
        return switch (v.status()) {
            case VERIFIED -> "verified · digest " + v.digest();
            case RECORDING -> "verified so far · still recording";
            case READ_ERROR -> "FAILED at op " + v.badOp();
            case DIVERGED -> "DIVERGED at op " + v.badOp();
        };
    }

    /**
     * One word for the run: BROKEN (file bad), VIOLATED (a finding: a ticked invariant failed, or the client history
     * beside the recording breaks its model; what the Findings list and the violation bar count), DISCARD (the protocol
     * checker rejects the run as uninformative, as {@code weft check} exits 3), DEADLOCK (the broker ended the run
     * because every node waited with no deadline: its verdict record is in the log), CLEAN.
     */
    public String verdict() {
        if (!doc.verification().ok()) return "BROKEN";
        if (!doc.findings().isEmpty()) return "VIOLATED";
        if (doc.deadlockVerdict() != null) return "DEADLOCK";
        if (doc.protocol().exitCode() == 3 && doc.selectedInvariants().stream().anyMatch(doc.protocol().names()::contains)) {
            return "DISCARD";
        }
        return "CLEAN";
    }

    /**
     * The line under the verdict: how many violations, of which invariants, and the checker's verdict. It counts the
     * findings (the violations and the history's findings), as the violation bar's "violation k of N" does.
     */
    public String verdictDetail() {
        if (!doc.verification().ok()) return verificationText();
        if (doc.findings().isEmpty() && doc.deadlockVerdict() != null) {
            return "the run ended in a deadlock at op " + doc.deadlockVerdict().op() + ": " + doc.deadlockVerdict().message();
        }
        java.util.TreeMap<String, Integer> by = new java.util.TreeMap<>();
        for (var f : doc.findings()) by.merge(f.invariant(), 1, Integer::sum);
        StringBuilder sb = new StringBuilder(doc.findings().size() + " violation(s)");
        if (!by.isEmpty()) {
            sb.append(": ");
            int i = 0;
            for (var e : by.entrySet()) {
                if (i++ > 0) sb.append(", ");
                sb.append(e.getKey()).append(" ×").append(e.getValue());
            }
        }
        String pv = doc.protocol().verdict();
        if (!pv.isEmpty()) sb.append(" · ").append(doc.protocol().protocol().name().toLowerCase(java.util.Locale.ROOT))
                .append(" check: ").append(pv.contains(" ") ? pv.substring(0, pv.indexOf(' ')) : pv);
        return sb.toString();
    }
}
