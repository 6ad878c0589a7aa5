package dev.weft.log;

/**
 * The canonical compact JSON of weft-log v2 (§2 escaping, §7 canonical record form). Text forms for
 * display and comparison; {@link #hashRecord} hashes the canonical bytes without building a String.
 */
public final class CanonicalJson {

    private static final ThreadLocal<CanonBytes> SCRATCH = ThreadLocal.withInitial(CanonBytes::new);

    private CanonicalJson() {
    }

    /** canon(op, vt, e): {@code {"op":..,"vt":..,"e":{..}}} without the chain member. */
    public static String record(long op, long vt, Event e) {
        CanonBytes c = scratch();
        c.record(op, vt, e);
        return c.text();
    }

    public static void appendRecord(StringBuilder sb, long op, long vt, Event e) {
        sb.append(record(op, vt, e));
    }

    public static void appendEvent(StringBuilder sb, Event e) {
        CanonBytes c = scratch();
        c.event(e);
        sb.append(c.text());
    }

    /**
     * A JSON string literal (with quotes) escaped exactly as §2 says: quote and backslash escaped, the short escapes
     * for backspace, tab, newline, form feed and carriage return, other control characters as six-character escapes
     * in lowercase hex, everything else as is. The one JSON string writer of the project: every file or line we
     * write as JSON by hand quotes its strings here.
     */
    public static String string(String s) {
        CanonBytes c = scratch();
        c.string(s);
        return c.text();
    }

    /** {@link #string} appended to {@code sb}. */
    public static void appendString(StringBuilder sb, String s) {
        CanonBytes c = scratch();
        c.string(s);
        sb.append(c.text());
    }

    /** The header line the reference writer emits (§3), without line terminator. */
    public static String headerLine(long seed, String net, long windowNs, LogMeta meta) {
        CanonBytes c = scratch();
        c.header(seed, net, windowNs, meta);
        return c.text();
    }

    /** FNV(h, UTF-8 bytes of canon(op, vt, e)). */
    public static long hashRecord(long h, long op, long vt, Event e) {
        CanonBytes c = scratch();
        c.record(op, vt, e);
        return Fnv1a.update(h, c.bytes(), 0, c.length());
    }

    private static CanonBytes scratch() {
        CanonBytes c = SCRATCH.get();
        c.reset();
        return c;
    }
}
