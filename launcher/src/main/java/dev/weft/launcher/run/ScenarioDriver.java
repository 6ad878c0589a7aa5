package dev.weft.launcher.run;

import dev.weft.broker.SingleHostSequencer;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.NetSpecException;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.LongConsumer;

/**
 * Fires a scenario's timed events at their logical times. The scenario clock is the largest virtual time any node
 * has reported to the broker so far (the {@code local_vt} of its sends and receives); an event fires at the point
 * of the linearization where that clock first reaches its {@code time_ns}, under the broker's ordering lock, so a
 * partition starts or ends between two recorded operations. When the network is quiet (see
 * {@link #advanceIfQuiet}) the clock jumps to the next event, as a discrete-event simulator would, so a cluster
 * waiting for a crashed node still sees it restarted.
 */
final class ScenarioDriver implements LongConsumer {
    static final long QUIET_NANOS = 500_000_000L;

    /** What the events do to the run. */
    interface Actions {
        void crash(long nodeId, long timeNs);

        void start(long nodeId, long timeNs);

        void note(String line);
    }

    private final List<ScenarioEvent> events;
    private final SingleHostSequencer sequencer;
    private final Actions actions;
    private int next;
    private long clock;

    ScenarioDriver(List<ScenarioEvent> sortedEvents, SingleHostSequencer sequencer, Actions actions) {
        this.events = List.copyOf(sortedEvents);
        this.sequencer = sequencer;
        this.actions = actions;
    }

    /** Checks every activate_partition spec up front; the message names the bad one. */
    static void validate(List<ScenarioEvent> events) throws NetSpecException {
        for (ScenarioEvent e : events) {
            if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                cutOf(p.spec());
            }
        }
    }

    static BiPredicate<VAddr, VAddr> cutOf(String spec) throws NetSpecException {
        // the net spec's own partition rule (group of src vs group of dst), from a model with nothing else in it
        FaultModel m = FaultModel.of(0, "partition=" + spec);
        return (src, dst) -> m.fate(src, dst, 0, 0).dropped();
    }

    /** Called by the sequencer, under its lock, with each request's local clock. */
    @Override
    public void accept(long localVt) {
        if (Long.compareUnsigned(localVt, clock) > 0) {
            clock = localVt;
        }
        fireDue();
    }

    /** True while events remain. */
    boolean pending() {
        boolean[] p = new boolean[1];
        sequencer.runOrdered(() -> p[0] = next < events.size());
        return p[0];
    }

    /** True if a start event remains (a reason to keep the run going with no node running). */
    boolean startPending() {
        boolean[] p = new boolean[1];
        sequencer.runOrdered(() -> {
            for (int i = next; i < events.size(); i++) {
                p[0] |= events.get(i).action() instanceof ScenarioAction.Start;
            }
        });
        return p[0];
    }

    /**
     * When the network is quiet — no node running, or no broker operation for {@link #QUIET_NANOS} while some
     * node waits in a blocking receive (so nodes that are still starting up or computing do not count as
     * quiet) — jump the clock to the next event and fire it.
     */
    void advanceIfQuiet(boolean nobodyRunning) {
        boolean quiet = nobodyRunning || (System.nanoTime() - sequencer.lastOpNanos() >= QUIET_NANOS
                && sequencer.parkedReceivers() > 0);
        if (!quiet) {
            return;
        }
        sequencer.runOrdered(() -> {
            if (next < events.size()) {
                clock = Math.max(clock, events.get(next).timeNs());
                fireDue();
            }
        });
    }

    private void fireDue() {
        while (next < events.size() && Long.compareUnsigned(events.get(next).timeNs(), clock) <= 0) {
            ScenarioEvent e = events.get(next++);
            long t = e.timeNs();
            if (e.action() instanceof ScenarioAction.Crash c) {
                actions.crash(c.nodeId(), t);
            } else if (e.action() instanceof ScenarioAction.Start s) {
                actions.start(s.nodeId(), t);
            } else if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                try {
                    sequencer.setCut(cutOf(p.spec()));
                    sequencer.partitionStreams(t, p.spec()); // streams stall rather than lose bytes (docs/tcp.md)
                    actions.note("[weft] scenario t=" + Long.toUnsignedString(t) + ": partition " + p.spec());
                } catch (NetSpecException ex) {
                    actions.note("[weft] scenario t=" + Long.toUnsignedString(t) + ": bad partition: " + ex.getMessage());
                }
            } else {
                sequencer.setCut(null);
                try {
                    sequencer.partitionStreams(t, "");
                } catch (NetSpecException ex) {
                    throw new IllegalStateException("the empty partition is always valid", ex);
                }
                actions.note("[weft] scenario t=" + Long.toUnsignedString(t) + ": partition cleared");
            }
        }
    }
}
