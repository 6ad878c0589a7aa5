package dev.weft.replay;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.log.WeftLogException;
import dev.weft.net.FateSource;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fault plan a recording followed (docs/fault-plans.md "weft plan"): every datagram and TCP segment whose fate
 * differs from the baseline.
 *
 * <p>Datagrams are read off their records: a dropped send is a drop; an enqueued one's latency is its delivery minus
 * its send time; a send that found no receiver shows no latency and keeps the baseline (its outcome is the same under
 * any delivering fate). A segment's record shows only its delivery, which the stream model also bounds by its
 * predecessor's and by bandwidth, so segments are taken from the source of the fates itself: the recording is
 * replayed with that source watched, and each segment's trip (its lost attempts and the latency of the one that
 * arrived) is what the core asked for.
 */
public final class PlanExtractor {

    private PlanExtractor() {
    }

    /** Thrown for a recording whose fates a plan cannot name. */
    public static final class Unsupported extends Exception {
        public Unsupported(String message) {
            super(message);
        }
    }

    /** The plan of a recording made with the header's seeded fault model. */
    /** The plan's name for the datagram a send record sent: its channel and the sender's sequence number on it. */
    public static FaultPlan.DatagramId idOf(Event.Send s) {
        return new FaultPlan.DatagramId(s.src(), s.dst(), s.chanSeq());
    }

    public static FaultPlan extract(LogReader reader) throws WeftLogException, NetSpecException, Unsupported {
        return extract(reader, null);
    }

    /**
     * The plan of a recording whose fates came from {@code fates} (the plan it was run with), or from the header's
     * seeded fault model when null.
     */
    public static FaultPlan extract(LogReader reader, FateSource fates)
            throws WeftLogException, NetSpecException, Unsupported {
        String net = reader.header().net();
        FaultPlan baseline = FaultPlan.of(net, new TreeMap<>());
        WatchedFates watched = new WatchedFates(fates != null ? fates : FaultModel.of(reader.header().seed(), net));
        ReplayStepper stepper;
        try {
            stepper = ReplayStepper.create(reader.header(), List.of(), watched);
        } catch (ReplayException e) {
            throw new Unsupported(e.getMessage());
        }
        String replayProblem = null; // datagrams need no replay: a log that stops replaying still has them
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        for (LogRecord r = reader.next(); r != null; r = reader.next()) {
            if (replayProblem == null) {
                try {
                    stepper.step(r);
                } catch (ReplayException e) {
                    replayProblem = "op " + r.op() + " does not replay (" + e.getMessage() + ")";
                }
            }
            if (r.event().isTcp() && replayProblem != null) {
                throw new Unsupported(replayProblem + ", so the fates of the TCP segments after it are unknown");
            }
            if (!(r.event() instanceof Event.Send s)) continue;
            FaultModel.Fate fate;
            if (s.outcome() instanceof SendOutcome.Dropped) {
                fate = new FaultModel.Fate(true, 0);
            } else if (s.outcome() instanceof SendOutcome.Enqueued e) {
                fate = new FaultModel.Fate(false, e.delivNs() - s.sendVt());
            } else {
                continue;
            }
            if (!fate.equals(baseline.baseline(s.payload().length() / 2))) {
                named.put(idOf(s), fate);
            }
        }
        return new FaultPlan(net, baseline.spec(), named, watched.deviations(baseline.segmentBaseline()));
    }

    /** A fate source that remembers every segment attempt the core asked it about. */
    private static final class WatchedFates implements FateSource {
        private final FateSource inner;
        private final TreeMap<FaultPlan.SegmentId, TreeMap<Long, FaultModel.Fate>> attempts = new TreeMap<>();

        WatchedFates(FateSource inner) {
            this.inner = inner;
        }

        @Override
        public NetSpec spec() {
            return inner.spec();
        }

        @Override
        public FaultModel.Fate fate(VAddr src, VAddr dst, long seq, int len) {
            return inner.fate(src, dst, seq, len);
        }

        @Override
        public FaultModel.Fate streamFate(long sid, VAddr from, VAddr to, int direction, long index, long attempt) {
            FaultModel.Fate f = inner.streamFate(sid, from, to, direction, index, attempt);
            attempts.computeIfAbsent(new FaultPlan.SegmentId(from, to, index), k -> new TreeMap<>()).put(attempt, f);
            return f;
        }

        @Override
        public long serializationNs(long len) {
            return inner.serializationNs(len);
        }

        /** Each segment's trip that differs from the baseline: the losses before its first arriving attempt. */
        Map<FaultPlan.SegmentId, FaultPlan.SegmentTrip> deviations(FaultPlan.SegmentTrip baseline) {
            TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> named = new TreeMap<>();
            for (var e : attempts.entrySet()) {
                long lost = 0;
                long latency = baseline.latencyNs();
                for (long a = 0; ; a++) {
                    FaultModel.Fate f = e.getValue().get(a);
                    if (f == null) break; // every attempt asked was lost (the model's last one arrives regardless)
                    if (!f.dropped()) {
                        latency = f.delayNs();
                        break;
                    }
                    lost++;
                }
                FaultPlan.SegmentTrip trip = new FaultPlan.SegmentTrip(lost, latency);
                if (!trip.equals(baseline)) named.put(e.getKey(), trip);
            }
            return named;
        }
    }
}
