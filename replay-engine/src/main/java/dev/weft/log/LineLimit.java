package dev.weft.log;

/**
 * The maximum length of one line of a log (weft-log-v2.md §1 sets none; we do, so that no input can exhaust
 * memory). Real records are a few hundred bytes; the default, 64 MiB, is far above any of them. A record line's
 * white space outside strings does not count (it is folded while reading, see {@link LineSplitter}). Override
 * with the system property {@value #PROPERTY} (bytes).
 */
public final class LineLimit {

    public static final String PROPERTY = "weft.log.maxLineBytes";
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

    private LineLimit() {
    }

    /** The limit in force: the system property if set to a positive number, else the default. */
    public static int maxLineBytes() {
        String v = System.getProperty(PROPERTY);
        if (v != null) {
            try {
                long n = Long.parseLong(v.trim());
                if (n > 0) {
                    return (int) Math.min(n, Integer.MAX_VALUE - 16);
                }
            } catch (NumberFormatException ignored) {
                // fall back to the default
            }
        }
        return DEFAULT_MAX_LINE_BYTES;
    }

    static WeftLogException exceeded(long line, int maxLineBytes) {
        return WeftLogException.malformed(line, "line longer than the maximum line length of " + maxLineBytes
                + " bytes (" + describe(maxLineBytes) + "; white space between tokens not counted); set -D" + PROPERTY
                + "=<bytes> to raise it");
    }

    private static String describe(int bytes) {
        return bytes % (1 << 20) == 0 ? bytes / (1 << 20) + " MiB" : bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
