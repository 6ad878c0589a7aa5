package dev.weft.history;

/** The {@code f} of a history event: what the operation does. */
public enum OpFunction {
    READ, WRITE, CAS, ADD, APPEND;

    /** The word in the history format. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    static OpFunction of(String word) {
        for (OpFunction f : values()) {
            if (f.word().equals(word)) {
                return f;
            }
        }
        return null;
    }
}
