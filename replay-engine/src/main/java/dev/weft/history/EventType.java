package dev.weft.history;

/** The {@code type} of a history event: an invocation, or one of the three ways it can complete. */
public enum EventType {
    /** The client asked for the operation. */
    INVOKE,
    /** The operation took effect, with the completion's value as its result. */
    OK,
    /** The operation certainly did not take effect. */
    FAIL,
    /** Indeterminate: the operation may or may not have taken effect (a timeout, a lost connection). */
    INFO;

    /** The word in the history format. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static EventType of(String word) {
        for (EventType t : values()) {
            if (t.word().equals(word)) {
                return t;
            }
        }
        return null;
    }
}
