package dev.weft.fuzz;

import dev.weft.check.Invariant;
import dev.weft.check.Invariants;
import dev.weft.check.Violation;
import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.net.FaultModel;
import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a list of ops against a fresh core and fresh invariants (fuzz.md §4). Pure and thread-safe: each
 * call owns its core and invariant instances. Violations carry the input index as their op.
 */
public final class Executor {

    /**
     * Sees every executed event; {@code raised} are the violations raised at this input index, in raise order
     * (a list valid only during the call).
     */
    public interface EventSink {
        void accept(int index, long vt, Event event, List<Violation> raised);
    }

    /** The outcome of one execution. */
    public record Execution(List<Violation> violations, long finalVt, long sent, long dropped) {
    }

    private Executor() {
    }

    /** Executes all ops and returns every violation in raise order. */
    public static Execution execute(long seed, NetSpec net, List<Op> ops, List<String> invariants) {
        return run(seed, net, ops, invariants, null, null);
    }

    /** Executes all ops, reporting each event to the sink (used to write a reproducer). */
    public static Execution execute(long seed, NetSpec net, List<Op> ops, List<String> invariants, EventSink sink) {
        return run(seed, net, ops, invariants, sink, null);
    }

    /**
     * The input index of the first violation with the given key, or -1 if none is raised. Stops at that
     * op: nothing after it can change the answer.
     */
    public static int firstIndexOf(long seed, NetSpec net, List<Op> ops, List<String> invariants, ViolationKey key) {
        List<Violation> found = run(seed, net, ops, invariants, null, key).violations();
        return found.isEmpty() ? -1 : (int) found.get(0).op();
    }

    /**
     * Only a plain {@link #execute(long, NetSpec, List, List)} keeps every violation: with a sink each op's
     * violations are dropped once the sink has seen them, and a search for one key keeps none but the match. A
     * violation holds its event (a delivered payload's hex), so keeping every one of a large workload's would
     * grow with the workload rather than with the core's state.
     */
    private static Execution run(long seed, NetSpec net, List<Op> ops, List<String> names, EventSink sink,
                                 ViolationKey stopAt) {
        Core core = new Core(new FaultModel(seed, net));
        List<Invariant> invariants = Invariants.instantiate(names);
        int invariantCount = invariants.size();
        List<Violation> violations = new ArrayList<>();
        int size = ops.size();
        for (int i = 0; i < size; i++) {
            Event event = apply(core, ops.get(i));
            long vt = core.vt();
            for (int k = 0; k < invariantCount; k++) {
                Invariant inv = invariants.get(k);
                String message = inv.offer(i, vt, event);
                if (message == null) continue;
                Violation v = new Violation(inv.name(), i, vt, message, event);
                if (stopAt == null) {
                    violations.add(v);
                } else if (stopAt.equals(ViolationKey.of(v))) {
                    return new Execution(List.of(v), core.vt(), core.sent(), core.dropped());
                }
            }
            if (sink != null) {
                sink.accept(i, vt, event, violations);
                violations.clear();
            }
        }
        return new Execution(violations, core.vt(), core.sent(), core.dropped());
    }

    /** Applies one op to the core and builds the event exactly as a log would hold it (send_vt 0). */
    static Event apply(Core core, Op op) {
        if (op instanceof Op.Send s) {
            Core.SendResult r = core.send(s.src(), s.dst(), s.payload(), 0);
            return new Event.Send(s.conn(), s.src(), s.dst(), r.chanSeq(), 0, s.payloadHex(), r.outcome());
        } else if (op instanceof Op.Recv r) {
            return new Event.Recv(r.conn(), r.blocking(), core.recv(r.conn()));
        } else if (op instanceof Op.Connect c) {
            core.connect(c.conn());
            return new Event.Connect(c.conn());
        } else if (op instanceof Op.Hello h) {
            return new Event.Hello(h.conn(), h.node());
        } else if (op instanceof Op.Bind b) {
            core.bind(b.conn(), b.addr());
            return new Event.Bind(b.conn(), b.addr());
        } else {
            Op.Disconnect d = (Op.Disconnect) op;
            core.disconnect(d.conn());
            return new Event.Disconnect(d.conn());
        }
    }
}
