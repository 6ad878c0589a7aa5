package dev.weft.app.source;

import dev.weft.log.LogReader;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanException;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanOps;
import dev.weft.replay.PlanSidecar;
import dev.weft.scenario.ScenarioAction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The fault plan kept beside a recording (docs/fault-plans.md) and where its deviations happened in it: the
 * {@code LOG.plan.json} that {@code weft run --plan --record LOG} copies there, or the {@code plan.json} that
 * {@code weft shrink} writes beside its {@code minimal.weftlog}. The ops come from the engine ({@link PlanOps}), by the
 * same datagram key {@code weft plan} uses.
 */
public final class PlanBeside {

    /** The shrink output folder's names (docs/shrinking.md). */
    static final String SHRINK_LOG = "minimal.weftlog";
    static final String SHRINK_PLAN = "plan.json";

    /** One deviation: what the plan says and where the recording shows it (-1: no such op). */
    public record Deviation(String src, String dst, long chanSeq, boolean dropped, long latencyNs, long sendOp,
                            long deliverOp) {
    }

    /** One TCP segment's named trip: lostAttempts transmissions lost before the one that arrives after latencyNs. */
    public record Segment(String from, String to, long index, long lostAttempts, long latencyNs) {
    }

    /** One timed event ("partition 0+6|1+2", "heal", "crash node 3", "start node 3") and its first op at or after it (-1: none). */
    public record TimedEvent(long timeNs, String what, long op) {
    }

    /**
     * A plan and its placed deviations: datagrams in the plan's (src, dst, chan_seq) order, then TCP segments in
     * (from, to, index) order, then timed events in the plan's order; minLatencyNs is the baseline's.
     */
    public record Placed(Path file, String net, long minLatencyNs, List<Deviation> deviations, List<Segment> segments,
                         List<TimedEvent> events) {
    }

    /** A plan that cannot be read or placed; the message is one line naming the file. */
    public static final class Problem extends Exception {
        public Problem(String message) {
            super(message);
        }
    }

    private PlanBeside() {
    }

    /** Where {@code weft run --plan --record LOG} puts its plan ({@code LOG.plan.json}). */
    public static Path sidecarOf(Path log) {
        return PlanSidecar.of(log);
    }

    /** The plan file beside the recording, or null when it has none. */
    public static Path fileOf(Path log) {
        Path sidecar = PlanSidecar.of(log);
        if (Files.isRegularFile(sidecar)) return sidecar;
        Path shrunk = log.resolveSibling(SHRINK_PLAN);
        if (log.getFileName() != null && log.getFileName().toString().equals(SHRINK_LOG) && Files.isRegularFile(shrunk)) {
            return shrunk;
        }
        return null;
    }

    /** Reads the plan and the recording (a whole pass over the file: call it off the UI thread). */
    public static Placed load(Path file, Path log) throws Problem {
        FaultPlan plan;
        try {
            plan = FaultPlanJson.parse(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new Problem(file + ": cannot read: " + e.getMessage());
        } catch (FaultPlanException e) {
            throw new Problem(file + ": " + e.getMessage());
        }
        PlanOps.Placement placed;
        try (LogReader reader = LogReader.open(log)) {
            placed = PlanOps.placeAll(plan, reader);
        } catch (WeftLogException e) {
            throw new Problem(log + ": " + e.getMessage());
        } catch (IOException e) {
            throw new Problem(log + ": cannot read: " + e.getMessage());
        }
        List<Deviation> rows = placed.datagrams().stream().map(p -> {
            FaultPlan.DatagramId id = p.deviation().id();
            FaultModel.Fate f = p.deviation().fate();
            return new Deviation(id.src().text(), id.dst().text(), id.chanSeq(), f.dropped(), f.dropped() ? -1 : f.delayNs(),
                    p.sendOp(), p.deliverOp());
        }).toList();
        List<Segment> segments = plan.segmentDeviations().stream().map(d -> new Segment(d.id().from().text(),
                d.id().to().text(), d.id().index(), d.trip().lostAttempts(), d.trip().latencyNs())).toList();
        List<TimedEvent> events = placed.events().stream()
                .map(e -> new TimedEvent(e.event().timeNs(), words(e.event().action()), e.op())).toList();
        return new Placed(file, plan.net(), plan.spec().minDelay(), rows, segments, events);
    }

    /** An event's action as the Plan tab names it. */
    static String words(ScenarioAction a) {
        if (a instanceof ScenarioAction.ActivatePartition p) return "partition " + p.spec();
        if (a instanceof ScenarioAction.Crash c) return "crash node " + Long.toUnsignedString(c.nodeId());
        if (a instanceof ScenarioAction.Start st) return "start node " + Long.toUnsignedString(st.nodeId());
        return "heal";   // ClearPartition, the last of the sealed kinds
    }
}
