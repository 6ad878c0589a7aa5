package dev.weft.log;

/** The informational {@code meta} object of a header; each member may be absent (null). */
public record LogMeta(Long recordedUnixMs, String weftVersion, String label) {

    public static final LogMeta EMPTY = new LogMeta(null, null, null);

    public static LogMeta label(String label) {
        return new LogMeta(null, null, label);
    }
}
