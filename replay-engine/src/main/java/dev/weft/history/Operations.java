package dev.weft.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs each invocation with the next completion of the same client (node and process): an {@code ok} completes
 * it, a {@code fail} removes it (it certainly did not happen), an {@code info} or no completion at all leaves it
 * indeterminate. A client has at most one operation in flight; breaking that, or completing what was not invoked,
 * is a format error naming the line.
 */
public final class Operations {

    /** The paired operations (ids in invocation order) and how many events of each kind there were. */
    public record Paired(List<Operation> operations, int events, int ok, int failed, int indeterminate) {
    }

    private Operations() {
    }

    public static Paired pair(String name, List<HistoryEvent> events) throws HistoryFormatException {
        record Client(long node, long process) {
        }
        Map<Client, HistoryEvent> pending = new HashMap<>();
        List<Operation> ops = new ArrayList<>();
        int ok = 0;
        int failed = 0;
        int indeterminate = 0;
        for (HistoryEvent e : events) {
            Client c = new Client(e.node(), e.process());
            HistoryEvent inv = pending.get(c);
            if (e.type() == EventType.INVOKE) {
                if (inv != null) {
                    throw new HistoryFormatException(name + ":" + e.line() + ": " + e.client()
                            + " invokes again while its " + inv.f().word() + " invoked at line " + inv.line()
                            + " has not completed (one operation per process at a time)");
                }
                pending.put(c, e);
                continue;
            }
            if (inv == null) {
                throw new HistoryFormatException(name + ":" + e.line() + ": " + e.type().word() + " of " + e.client()
                        + " without an invoke before it");
            }
            if (inv.f() != e.f()) {
                throw new HistoryFormatException(name + ":" + e.line() + ": " + e.client() + " completes a "
                        + e.f().word() + " but invoked a " + inv.f().word() + " at line " + inv.line());
            }
            if (e.key() != null && !e.key().equals(inv.key())) {
                throw new HistoryFormatException(name + ":" + e.line() + ": " + e.client() + " completes key "
                        + e.key() + " but invoked key " + inv.key() + " at line " + inv.line());
            }
            if (e.time() < inv.time()) {
                throw new HistoryFormatException(name + ":" + e.line() + ": completes at t=" + e.time()
                        + " before its invocation at t=" + inv.time() + " (line " + inv.line() + ")");
            }
            pending.remove(c);
            switch (e.type()) {
                case OK -> {
                    ok++;
                    ops.add(operation(inv, e.value(), e.time(), false, e.line()));
                }
                case FAIL -> failed++;
                default -> {
                    indeterminate++;
                    ops.add(operation(inv, HistoryValue.NULL, Long.MAX_VALUE, true, e.line()));
                }
            }
        }
        for (HistoryEvent inv : pending.values()) {
            indeterminate++;
            ops.add(operation(inv, HistoryValue.NULL, Long.MAX_VALUE, true, 0));
        }
        ops.sort(Comparator.comparingLong(Operation::invokeTime).thenComparingInt(Operation::invokeLine));
        List<Operation> ranked = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            ranked.add(ops.get(i).withId(i));
        }
        return new Paired(List.copyOf(ranked), events.size(), ok, failed, indeterminate);
    }

    private static Operation operation(HistoryEvent inv, HistoryValue completion, long completeTime,
                                       boolean indeterminate, int completeLine) {
        HistoryValue output = inv.f() == OpFunction.READ ? completion : HistoryValue.NULL;
        return new Operation(0, inv.node(), inv.process(), inv.f(), inv.key(), inv.value(), output, inv.time(),
                completeTime, indeterminate, inv.line(), completeLine);
    }
}
