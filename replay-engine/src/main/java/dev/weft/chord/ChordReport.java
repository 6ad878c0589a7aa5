package dev.weft.chord;

import dev.weft.log.Event;
import dev.weft.protocol.StateReportPayload;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;

/**
 * One Chord node's state report (invariants-and-checkers.md §4): its Chord identifier, a date used to
 * order reports, liveness, successor, second successor and predecessor ({@code -1} = none).
 */
public record ChordReport(int ident, int date, boolean alive, int succ, int succ2, int prdc) {

    /** Parses a hex payload; null when it is not a Chord report. */
    public static ChordReport parse(String hexPayload) {
        int[] f = StateReportPayload.fields(hexPayload, StateReportPayload.UNICODE_WHITE_SPACE);
        return f == null ? null : new ChordReport(f[0], f[1], f[2] != 0, f[3], f[4], f[5]);
    }

    /** The report carried by a {@code send} record (any outcome), or null. */
    public static ChordReport fromSend(LogRecord r) {
        return r.event() instanceof Event.Send s ? parse(s.payload()) : null;
    }

    /** The report carried by a {@code send} (any outcome) or a delivered {@code recv}, or null. */
    public static ChordReport fromSendOrDelivery(LogRecord r) {
        if (r.event() instanceof Event.Send s) return parse(s.payload());
        if (r.event() instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) return parse(d.payload());
        return null;
    }

    public ChordReport withAlive(boolean value) {
        return value == alive ? this : new ChordReport(ident, date, value, succ, succ2, prdc);
    }

    /** Same pointers and liveness (the date is ignored), as the trace compares reports. */
    public boolean sameTopology(ChordReport o) {
        return o != null && succ == o.succ && succ2 == o.succ2 && prdc == o.prdc && alive == o.alive;
    }
}
