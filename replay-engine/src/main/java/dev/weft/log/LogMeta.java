package dev.weft.log;

/**
 * The informational {@code meta} object of a header; each member may be absent (null). {@code hosts} is ours, not
 * the spec's (readers ignore unknown meta members, §3): the host→node map of a run placed on host agents, e.g.
 * {@code "1=0-2;2=3-6"}, written after the spec's members. {@code plan} is ours too: the digest of the fault plan
 * the run followed (docs/fault-plans.md), written last; absent for a seeded run, whose header is unchanged.
 */
public record LogMeta(Long recordedUnixMs, String weftVersion, String label, String hosts, String plan) {

    public static final LogMeta EMPTY = new LogMeta(null, null, null, null);

    public LogMeta(Long recordedUnixMs, String weftVersion, String label, String hosts) {
        this(recordedUnixMs, weftVersion, label, hosts, null);
    }

    /** The spec's members only. */
    public LogMeta(Long recordedUnixMs, String weftVersion, String label) {
        this(recordedUnixMs, weftVersion, label, null);
    }

    public static LogMeta label(String label) {
        return new LogMeta(null, null, label);
    }
}
