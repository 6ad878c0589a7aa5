package dev.weft.app.source;

import dev.weft.log.LogReader;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanException;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanOps;
import dev.weft.replay.PlanSidecar;
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

    /** A plan and its placed deviations, in the plan's (src, dst, chan_seq) order; minLatencyNs is the baseline's. */
    public record Placed(Path file, String net, long minLatencyNs, List<Deviation> deviations) {
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
        List<PlanOps.Placed> placed;
        try (LogReader reader = LogReader.open(log)) {
            placed = PlanOps.place(plan, reader);
        } catch (WeftLogException e) {
            throw new Problem(log + ": " + e.getMessage());
        } catch (IOException e) {
            throw new Problem(log + ": cannot read: " + e.getMessage());
        }
        List<Deviation> rows = placed.stream().map(p -> {
            FaultPlan.DatagramId id = p.deviation().id();
            FaultModel.Fate f = p.deviation().fate();
            return new Deviation(id.src().text(), id.dst().text(), id.chanSeq(), f.dropped(), f.dropped() ? -1 : f.delayNs(),
                    p.sendOp(), p.deliverOp());
        }).toList();
        return new Placed(file, plan.net(), plan.spec().minDelay(), rows);
    }
}
