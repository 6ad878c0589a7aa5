package dev.weft.history;

/**
 * An invocation paired with its completion. {@code input} is what the invocation asked (a write's value, a cas's
 * {@code [old,new]}, an added or appended element), {@code output} what an ok completion returned (a read's value).
 * An indeterminate operation ({@code info}, or an invocation never completed) may or may not have taken effect; its
 * {@code completeTime} is {@link Long#MAX_VALUE}: it can take effect at any time after its invocation.
 * {@code id} is the operation's rank in invocation order (time, then line).
 */
public record Operation(int id, long node, long process, OpFunction f, String key, HistoryValue input,
                        HistoryValue output, long invokeTime, long completeTime, boolean indeterminate,
                        int invokeLine, int completeLine) {

    /** Who issued it, in words. */
    public String client() {
        return node < 0 ? "process " + process : "node " + node + " process " + process;
    }

    /** The same operation with another id (for sub-histories). */
    Operation withId(int newId) {
        return new Operation(newId, node, process, f, key, input, output, invokeTime, completeTime, indeterminate,
                invokeLine, completeLine);
    }
}
