package dev.weft.diff;

import java.util.Locale;

/** The text form of a {@link DiffResult}, printed by {@code weft diff} and shown by the workbench's compare view. */
public final class DiffText {

    private DiffText() {
    }

    public static String report(String nameA, String nameB, DiffResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(nameA).append('\n');
        sb.append("B: ").append(nameB).append('\n');
        if (r.identical()) {
            sb.append("recordings identical: ").append(r.a().ops()).append(" op(s)")
                    .append(r.alignment() == Alignment.VT ? " (aligned by vt)" : "").append('\n');
        } else {
            // What a node saw first: that is the answer; a record divergence before it is the schedule's.
            sb.append(firstEffectLine(r.firstEffect())).append('\n');
            EffectDivergence e = r.firstEffect();
            if (e != null) {
                sb.append("  node ").append(Long.toUnsignedString(e.node())).append("'s event #").append(e.index() + 1)
                        .append(" (what it received and sent, in its own order)\n");
                sb.append("  A: ").append(delivery(e.a())).append('\n');
                sb.append("  B: ").append(delivery(e.b())).append('\n');
            }
            sb.append(firstRecordLine(r)).append('\n');
            if (r.firstRecord() != null) {
                sb.append("  A: ").append(orMissing(r.firstRecord().a())).append('\n');
                sb.append("  B: ").append(orMissing(r.firstRecord().b())).append('\n');
                if (ScheduleDifference.scheduleOnly(r)) sb.append("  ").append(scheduleOnlyLine(r)).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "%-11s %12s %12s%n", "", "A", "B"));
        row(sb, "ops", r.a().ops(), r.b().ops());
        row(sb, "deliveries", r.a().deliveries(), r.b().deliveries());
        row(sb, "drops", r.a().drops(), r.b().drops());
        row(sb, "violations", r.a().violations(), r.b().violations());
        return sb.toString();
    }

    /** One line naming where the records first differ, e.g. {@code first divergence at op 17 (vt 42000 ns)}. */
    public static String firstRecordLine(DiffResult r) {
        RecordDivergence d = r.firstRecord();
        if (d == null) {
            return "records identical (op by op)";
        }
        if (r.alignment() == Alignment.VT) {
            return "first divergence at vt " + Long.toUnsignedString(d.vt()) + " ns (A op " + op(d.opA())
                    + ", B op " + op(d.opB()) + ")";
        }
        return "first divergence at op " + Long.toUnsignedString(d.opA()) + " (vt " + Long.toUnsignedString(d.vt())
                + " ns)";
    }

    public static String firstEffectLine(EffectDivergence e) {
        if (e == null) {
            return "node-visible effects identical: every node received and sent the same datagrams in the same order";
        }
        NodeDelivery d = e.a() != null ? e.a() : e.b();
        String head = "first node-visible difference: node " + Long.toUnsignedString(e.node()) + ", ";
        if (e.a() != null && e.b() != null && (e.a().kind() != e.b().kind() || e.a().kindIndex() != e.b().kindIndex())) {
            // The node did something else at this point on each side: name both.
            return head + "event #" + (e.index() + 1) + " (A: " + e.a().kind().word() + " #" + (e.a().kindIndex() + 1)
                    + ", B: " + e.b().kind().word() + " #" + (e.b().kindIndex() + 1) + ")";
        }
        return head + d.kind().word() + " #" + (d.kindIndex() + 1);
    }

    /** "schedule only: node start order; no node saw a difference before A op 6 / B op 6". */
    public static String scheduleOnlyLine(DiffResult r) {
        EffectDivergence e = r.firstEffect();
        String before = e == null ? "no node saw any difference"
                : "no node saw a difference before A op " + (e.a() == null ? "-" : Long.toUnsignedString(e.a().op()))
                + " / B op " + (e.b() == null ? "-" : Long.toUnsignedString(e.b().op()));
        return "schedule only: " + ScheduleDifference.kind(r.firstRecord()) + "; " + before;
    }

    /** One side of a node-visible difference: where, and what the node got or sent, the payload decoded. */
    public static String delivery(NodeDelivery d) {
        if (d == null) {
            return "(nothing: the node received and sent no more)";
        }
        String peer = d.text().substring(0, d.text().indexOf(" payload "));
        String what = d.kind() == NodeDelivery.Kind.DELIVERY ? "received " + peer : "sent " + peer;
        return "op " + Long.toUnsignedString(d.op()) + " vt " + Long.toUnsignedString(d.vt()) + " ns: " + what + ": "
                + PayloadWords.of(d.payloadHex());
    }

    private static String orMissing(String canonical) {
        return canonical == null ? "(recording ended)" : canonical;
    }

    private static String op(long op) {
        return op < 0 ? "-" : Long.toUnsignedString(op);
    }

    private static void row(StringBuilder sb, String name, long a, long b) {
        sb.append(String.format(Locale.ROOT, "%-11s %12d %12d%n", name, a, b));
    }
}
