package dev.weft.log;

/**
 * The informational {@code meta} object of a header; each member may be absent (null). {@code hosts} is ours, not
 * the spec's (readers ignore unknown meta members, §3): the host→node map of a run placed on host agents, e.g.
 * {@code "1=0-2;2=3-6"}, written after the spec's members.
 */
public record LogMeta(Long recordedUnixMs, String weftVersion, String label, String hosts) {

    public static final LogMeta EMPTY = new LogMeta(null, null, null, null);

    /** The spec's members only. */
    public LogMeta(Long recordedUnixMs, String weftVersion, String label) {
        this(recordedUnixMs, weftVersion, label, null);
    }

    public static LogMeta label(String label) {
        return new LogMeta(null, null, label);
    }
}
