package dev.weft.fuzz;

/** File names and labels of reproducers (fuzz.md §7). */
public final class ReproducerName {

    private ReproducerName() {
    }

    /** {@code repro-seed<seed>-<sanitize(key display)>.weftlog}. */
    public static String fileName(long seed, ViolationKey key) {
        return "repro-seed" + Long.toUnsignedString(seed) + "-" + sanitize(key.display()) + ".weftlog";
    }

    /** {@code shrunk reproducer: <key display>, seed <seed>, <before> → <after> ops}. */
    public static String label(ViolationKey key, long seed, ShrinkResult stats) {
        return "shrunk reproducer: " + key.display() + ", seed " + Long.toUnsignedString(seed) + ", " + stats.before()
                + " \u2192 " + stats.after() + " ops";
    }

    /**
     * Keeps ASCII letters and digits, turns every run of other characters into one {@code -}, then strips
     * leading and trailing dashes.
     */
    public static String sanitize(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            boolean keep = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
            if (keep) {
                sb.appendCodePoint(cp);
            } else if (sb.length() == 0 || sb.charAt(sb.length() - 1) != '-') {
                sb.append('-');
            }
        }
        int from = 0;
        int to = sb.length();
        while (from < to && sb.charAt(from) == '-') from++;
        while (to > from && sb.charAt(to - 1) == '-') to--;
        return sb.substring(from, to);
    }
}
