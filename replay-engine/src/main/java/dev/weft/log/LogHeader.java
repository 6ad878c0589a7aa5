package dev.weft.log;

/**
 * Line 1 of a weft-log. {@code rawLine} is the exact text of line 1 without its terminator: the chain
 * starts from its raw bytes (weft-log-v2.md §8), so a reader must keep it verbatim.
 * version is a u32, seed and windowNs are u64.
 */
public record LogHeader(String rawLine, String format, long version, long seed, String net, long windowNs, LogMeta meta) {

    public static final String FORMAT = "weft-log";
    public static final long VERSION = 2;

    /** True when the recording came from the windowed broker (window_ns > 0). */
    public boolean windowed() {
        return windowNs != 0;
    }
}
