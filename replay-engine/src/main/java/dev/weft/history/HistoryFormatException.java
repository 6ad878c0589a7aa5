package dev.weft.history;

/** A history that cannot be read; the message is one line naming the file and line: {@code h.jsonl:7: why}. */
public final class HistoryFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    public HistoryFormatException(String message) {
        super(message, null, false, false);
    }
}
