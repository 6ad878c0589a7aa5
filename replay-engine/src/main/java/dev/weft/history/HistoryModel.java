package dev.weft.history;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/** The {@code --model} of {@code weft check history}: which operations a history may hold and how it is judged. */
public enum HistoryModel {
    /** One register: read, write; linearizability. */
    REGISTER(EnumSet.of(OpFunction.READ, OpFunction.WRITE), false),
    /** One register with compare-and-set; linearizability. */
    CAS_REGISTER(EnumSet.of(OpFunction.READ, OpFunction.WRITE, OpFunction.CAS), false),
    /** A map of independent cas-registers, one per key, each judged alone (linearizability is local). */
    KV(EnumSet.of(OpFunction.READ, OpFunction.WRITE, OpFunction.CAS), true),
    /** One set: add, read; linearizability. */
    SET(EnumSet.of(OpFunction.ADD, OpFunction.READ), false),
    /** Lists per key: append, read; anomalies (lost, duplicated, reordered, phantom elements). */
    LIST_APPEND(EnumSet.of(OpFunction.APPEND, OpFunction.READ), true);

    private final Set<OpFunction> functions;
    private final boolean keyed;

    HistoryModel(Set<OpFunction> functions, boolean keyed) {
        this.functions = functions;
        this.keyed = keyed;
    }

    /** The word after {@code --model}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The model called {@code word}, or null. */
    public static HistoryModel named(String word) {
        for (HistoryModel m : values()) {
            if (m.word().equals(word)) {
                return m;
            }
        }
        return null;
    }

    /** Every model's word, for messages: {@code register|cas-register|…}. */
    public static String words() {
        StringBuilder sb = new StringBuilder();
        for (HistoryModel m : values()) {
            sb.append(sb.length() == 0 ? "" : "|").append(m.word());
        }
        return sb.toString();
    }

    public boolean allows(OpFunction f) {
        return functions.contains(f);
    }

    /** Whether a history of this model may hold several keys (one object per key). */
    public boolean keyed() {
        return keyed;
    }

    /** The sequential model of one object (not for list-append, which is judged by anomalies). */
    Model objectModel() {
        return this == SET ? new SetModel() : new RegisterModel();
    }
}
