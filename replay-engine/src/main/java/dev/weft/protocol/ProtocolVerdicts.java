package dev.weft.protocol;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs every registered protocol's checker side by side over a recording read once, in file order, and answers the
 * verdict of the protocol its state reports fit: the first in {@link Protocols#byShapeRank()} whose shape every
 * report ({@link StateReportPayload#ofSend}) fits. A recording without reports, or whose reports no protocol fits, has no
 * protocol verdict.
 */
public final class ProtocolVerdicts {

    private final List<Protocol> protocols = Protocols.byShapeRank();
    private final List<ProtocolRun> runs = new ArrayList<>();
    private final boolean[] fitsAll;
    private long reports;

    public ProtocolVerdicts() {
        for (Protocol p : protocols) runs.add(p.newRun());
        fitsAll = new boolean[protocols.size()];
        java.util.Arrays.fill(fitsAll, true);
    }

    public void accept(LogRecord r) {
        // Only records that carry a report reach the checkers: they judge nothing else, and most records of a large
        // log are not reports (the "RPT" test is cheap; a checker's full parse is not).
        boolean send = r.event() instanceof Event.Send;
        String payload = r.event() instanceof Event.Send s ? s.payload()
                : r.event() instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d ? d.payload() : null;
        int[] report = StateReportPayload.ofPayload(payload);
        if (report == null) return;
        for (ProtocolRun run : runs) run.accept(r);
        if (!send) return;   // the shape is judged on what the nodes sent
        reports++;
        for (int i = 0; i < fitsAll.length; i++) if (fitsAll[i] && !protocols.get(i).fits(report)) fitsAll[i] = false;
    }

    /** The verdict of the protocol the recording speaks, or null when it speaks none. */
    public ProtocolResult result() {
        if (reports == 0) return null;
        for (int i = 0; i < fitsAll.length; i++) if (fitsAll[i]) return runs.get(i).result();
        return null;
    }

    /** The protocol checker's violations placed on ops, by op; empty without a protocol or without a violation. */
    public List<PlacedViolation> placed() {
        ProtocolResult result = result();
        return result == null ? List.of() : result.violations();
    }
}
