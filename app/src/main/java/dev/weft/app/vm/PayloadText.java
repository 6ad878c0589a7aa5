package dev.weft.app.vm;

import java.util.Locale;

/**
 * Payload helpers for display: hex decoding, a short printable preview, a hex + ASCII dump, and decoding
 * of the protocols' state reports ("RPT" + six integers, invariants-and-checkers.md §4).
 */
public final class PayloadText {

    private PayloadText() { }

    /** Decodes hex (either case); null when the length is odd or a character is not hex. */
    public static byte[] decodeHex(String hex) {
        if (hex == null || hex.length() % 2 != 0) return null;
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16), lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) return null;
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }

    /** Printable ASCII with '.' for other bytes, cut to max characters with an ellipsis. */
    public static String preview(String hex, int max) {
        byte[] b = decodeHex(hex);
        if (b == null) return "(bad hex)";
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < b.length && i < max; i++) sb.append(printable(b[i]));
        sb.append('"');
        if (b.length > max) sb.append('…');
        sb.append(" (").append(b.length).append(" B)");
        return sb.toString();
    }

    private static char printable(byte b) {
        return b >= 0x20 && b < 0x7F ? (char) b : '.';
    }

    /** Lines of "offset  hex bytes  |ascii|", 16 bytes per line. */
    public static String hexDump(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int off = 0; off < b.length; off += 16) {
            sb.append(String.format(Locale.ROOT, "%04x  ", off));
            for (int i = 0; i < 16; i++) {
                if (off + i < b.length) sb.append(String.format(Locale.ROOT, "%02x ", b[off + i] & 0xFF));
                else sb.append("   ");
                if (i == 7) sb.append(' ');
            }
            sb.append(" |");
            for (int i = off; i < Math.min(b.length, off + 16); i++) sb.append(printable(b[i]));
            sb.append("|\n");
        }
        return sb.toString();
    }

    /** A decoded state report's six fields; each protocol's view reads them its own way. */
    public record Report(int[] fields) { }

    /** The state report a payload carries, or null when it is not one. */
    public static Report parseReport(String hex) {
        int[] f = dev.weft.timeline.ReportLog.parse(hex);
        return f == null ? null : new Report(f);
    }

}
