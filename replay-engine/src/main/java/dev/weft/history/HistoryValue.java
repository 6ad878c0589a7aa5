package dev.weft.history;

import java.util.List;

/**
 * A JSON value of a history event, held as its canonical text (compact JSON: {@code 3}, {@code "a"}, {@code null},
 * {@code [1,2]}) so that equality, hashing and printing need nothing else; an array also keeps its elements'
 * canonical texts (a cas's {@code [old,new]}, the list a read returns).
 */
public record HistoryValue(String text, List<String> elements) {

    /** JSON null: a register's initial value, and the value of an event without one. */
    public static final HistoryValue NULL = new HistoryValue("null", null);

    public HistoryValue {
        elements = elements == null ? null : List.copyOf(elements);
    }

    public static HistoryValue scalar(String text) {
        return text.equals("null") ? NULL : new HistoryValue(text, null);
    }

    public static HistoryValue array(List<String> elements) {
        return new HistoryValue("[" + String.join(",", elements) + "]", elements);
    }

    public boolean isNull() {
        return text.equals("null");
    }

    public boolean isArray() {
        return elements != null;
    }

    @Override
    public String toString() {
        return text;
    }
}
