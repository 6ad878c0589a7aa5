package dev.weft.history;

/**
 * One line of a history: {@code process} (with {@code node}, the cluster node that printed it, or -1 when the
 * history does not say) did {@code type} of operation {@code f} on object {@code key} (null: the one object) with
 * {@code value} at virtual time {@code time} ns. {@code line} is the 1-based line number in the file.
 */
public record HistoryEvent(int line, long node, long process, EventType type, OpFunction f, String key,
                           HistoryValue value, long time) {

    /** Who issued the event: node and process together (two nodes may both number their clients from 0). */
    public String client() {
        return node < 0 ? "process " + process : "node " + node + " process " + process;
    }
}
