package dev.weft.replay;

import dev.weft.check.Invariant;
import dev.weft.check.InvariantMonitor;
import dev.weft.check.Violation;
import dev.weft.core.Core;
import dev.weft.core.HexPayload;
import dev.weft.core.PendingDatagram;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.net.FaultModel;
import dev.weft.net.FateSource;
import dev.weft.net.NetSpecException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Re-executes one record at a time against the broker core (core-and-replay.md §4.2 step 3.2-3.5) and returns the
 * replayed event. Shared by the command-line replayer, the random-access index and the workbench, so that all of
 * them agree on what "the state after op N" is.
 *
 * <p>Windowed recordings (window_ns &gt; 0) are a product decision (docs/spec/README.md): a recorded non-blocking
 * {@code empty} is a replay input, accepted when it is consistent with some pop horizon. Horizons of a connection
 * never decrease, so a non-blocking delivery of deliv_ns d proves later non-blocking horizons exceed d; an empty is
 * consistent iff the queue minimum is not below that bound.
 */
public final class ReplayStepper {

    private final Core core;
    private final boolean windowed;
    /** Windowed logs only: per connection, the lowest horizon its later non-blocking recvs can have. */
    private final Map<Long, Long> horizonFloor;
    private final InvariantMonitor monitor;
    private final TcpReplay tcp;
    private final ArrayDeque<Violation> unmatched = new ArrayDeque<>();
    private long acceptedWindowedEmpties;

    private ReplayStepper(Core core, boolean windowed, Map<Long, Long> horizonFloor, InvariantMonitor monitor,
                          TcpReplay tcp) {
        this.core = core;
        this.tcp = tcp;
        this.windowed = windowed;
        this.horizonFloor = horizonFloor;
        this.monitor = monitor;
    }

    /** A stepper for a log with this header; invariants may be empty (then violation records are carried through). */
    public static ReplayStepper create(LogHeader header, List<Invariant> invariants) throws ReplayException {
        return create(header, invariants, null);
    }

    /** A stepper whose fates come from {@code fates}, or from the header's seeded fault model when it is null. */
    public static ReplayStepper create(LogHeader header, List<Invariant> invariants, FateSource fates)
            throws ReplayException {
        if (fates != null) {
            return new ReplayStepper(new Core(fates), header.windowed(), new HashMap<>(),
                    new InvariantMonitor(invariants), new TcpReplay());
        }
        FaultModel model;
        try {
            model = FaultModel.of(header.seed(), header.net());
        } catch (NetSpecException e) {
            throw new ReplayException("log header net spec unusable: " + e.getMessage(), -1);
        }
        return new ReplayStepper(new Core(model), header.windowed(), new HashMap<>(), new InvariantMonitor(invariants),
                new TcpReplay());
    }

    /** An independent copy of the core state (for checkpoints); invariant state is not copied. */
    public ReplayStepper copyWithoutInvariants() {
        ReplayStepper copy = new ReplayStepper(core.copy(), windowed, new HashMap<>(horizonFloor), new InvariantMonitor(List.of()),
                tcp.copy());
        copy.acceptedWindowedEmpties = acceptedWindowedEmpties;
        return copy;
    }

    public Core core() {
        return core;
    }

    public long vt() {
        return core.vt();
    }

    public List<Violation> violations() {
        return monitor.violations();
    }

    /** How many recorded non-blocking empties of a windowed log were accepted as replay inputs. */
    public long acceptedWindowedEmpties() {
        return acceptedWindowedEmpties;
    }

    /** Applies the record to the core and returns the replayed event E' (compare with the record to detect divergence). */
    public Event step(LogRecord r) throws ReplayException {
        Event e = r.event();
        Event replayed;
        if (e instanceof Event.Connect c) {
            core.connect(c.conn());
            replayed = e;
        } else if (e instanceof Event.Hello) {
            replayed = e;
        } else if (e instanceof Event.Bind b) {
            core.bind(b.conn(), b.addr());
            replayed = e;
        } else if (e instanceof Event.Disconnect d) {
            core.disconnect(d.conn());
            replayed = e;
        } else if (e instanceof Event.Send s) {
            replayed = send(r, s);
        } else if (e instanceof Event.Recv rv) {
            replayed = new Event.Recv(rv.conn(), rv.blocking(), recv(rv));
        } else if (e.isTcp()) {
            replayed = tcp.step(core.tcp(), r, e);
        } else if (e instanceof Event.Ext || e instanceof Event.Signal) {
            replayed = e; // annotations: the ext record switched the reader's TCP on, a signal is the run's
        } else if (e instanceof Event.Violation v) {
            // the broker's deadlock verdict is no invariant's: carried through even when checking (docs/broker.md)
            replayed = monitor.isEmpty() || v.invariant().equals("deadlock") ? e : matchRecordedViolation();
        } else {
            replayed = new Event.End(r.op() + 1, core.sent(), core.dropped());
        }
        if (!monitor.isEmpty() && replayed.isBrokerOperation()) {
            offerToInvariants(r, replayed);
        }
        return replayed;
    }

    // send() and offerToInvariants() are separate methods so that step() stays small: the JIT then compiles
    // the per-record path sooner and at less cost (and skips the invariant code when none are checked).
    private Event send(LogRecord r, Event.Send s) throws ReplayException {
        // The payload stays hex through the core: a delivery's payload is its lowercase form, nothing decodes it.
        String lowerHex = HexPayload.lowercaseOrNull(s.payload());
        if (lowerHex == null) {
            throw new ReplayException("op " + Long.toUnsignedString(r.op()) + ": payload is not valid hex", r.op());
        }
        Core.SendResult res = core.sendHex(s.src(), s.dst(), lowerHex, s.sendVt());
        return new Event.Send(s.conn(), s.src(), s.dst(), res.chanSeq(), s.sendVt(), s.payload(), res.outcome());
    }

    private void offerToInvariants(LogRecord r, Event replayed) {
        int raised = monitor.offer(r.op(), core.vt(), replayed);
        if (raised > 0) { // the violations list (a view made per call) only when something was raised
            List<Violation> all = monitor.violations();
            for (int i = all.size() - raised; i < all.size(); i++) {
                unmatched.addLast(all.get(i));
            }
        }
    }

    private RecvOutcome recv(Event.Recv rv) {
        long conn = rv.conn();
        if (windowed && !rv.blocking() && rv.outcome() instanceof RecvOutcome.Empty) {
            PendingDatagram head = core.peek(conn);
            long floor = horizonFloor.getOrDefault(conn, 0L);
            if (head == null || Long.compareUnsigned(head.delivNs(), floor) >= 0) {
                acceptedWindowedEmpties++;
                return RecvOutcome.EMPTY;
            }
        }
        RecvOutcome out = core.recv(conn);
        if (windowed && !rv.blocking() && out instanceof RecvOutcome.Delivered d) {
            long bound = d.delivNs() == -1L ? -1L : d.delivNs() + 1; // saturating +1
            long floor = horizonFloor.getOrDefault(conn, 0L);
            if (Long.compareUnsigned(bound, floor) > 0) {
                horizonFloor.put(conn, bound);
            }
        }
        return out;
    }

    private Event matchRecordedViolation() {
        Violation v = unmatched.pollFirst();
        if (v == null) {
            return new Event.Violation("(none raised)", "replayed invariants raised no violation here");
        }
        return new Event.Violation(v.invariant(), v.message());
    }
}
