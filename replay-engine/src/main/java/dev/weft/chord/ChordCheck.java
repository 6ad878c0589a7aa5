package dev.weft.chord;

import dev.weft.log.LogRecord;

/**
 * {@code chord-check}: feed the records of a recording in file order, then {@link #result()}.
 * The final snapshot sees every {@code send} (any outcome) and every delivered {@code recv}; the
 * failure assumption sees {@code send} records only (invariants-and-checkers.md §5.1, §5.4).
 */
public final class ChordCheck {

    private final long m;
    private final ChordSnapshot snapshot = new ChordSnapshot();
    private final FailureAssumption assumption = new FailureAssumption();

    /** m: identifier bits, as parsed from the command line (6 by default). */
    public ChordCheck(long m) {
        this.m = m;
    }

    public void accept(LogRecord r) {
        ChordReport report = ChordReport.fromSendOrDelivery(r);
        if (report == null) return;
        snapshot.observe(report);
        if (r.event() instanceof dev.weft.log.Event.Send) assumption.offer(r.op(), report);
    }

    public ChordCheckResult result() {
        ChordSnapshot copy = new ChordSnapshot(snapshot.states());
        return new ChordCheckResult(copy, ChordInvariants.check(copy, m), assumption.held());
    }

    public static ChordCheckResult check(Iterable<LogRecord> records, long m) {
        ChordCheck c = new ChordCheck(m);
        for (LogRecord r : records) c.accept(r);
        return c.result();
    }
}
