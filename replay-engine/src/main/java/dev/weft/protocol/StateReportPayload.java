package dev.weft.protocol;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.text.Hex;
import dev.weft.text.RustText;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The {@code RPT f1 .. f6} state-report datagram of the case-study nodes (invariants-and-checkers.md
 * §4): hex → UTF-8 → white-space separated tokens → {@code RPT} and six i32 fields. Anything else is
 * simply "not a report". Each protocol splits as its reference checker does: on Unicode white space or on ASCII
 * white space only. Shared by every protocol whose nodes send these reports ({@link Protocol#fits}).
 */
public final class StateReportPayload {

    /** Rust's char::is_whitespace: the Unicode White_Space property. */
    public static final IntPredicate UNICODE_WHITE_SPACE = c -> c <= 0xFFFF && RustText.isWhiteSpace((char) c);

    /** Rust's split_ascii_whitespace: space, \t, \n, \r, form feed (not vertical tab). */
    public static final IntPredicate ASCII_WHITE_SPACE = c -> c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0C;

    private StateReportPayload() {
    }

    /**
     * The six fields of the report a {@code send} record carries (any outcome), split on Unicode white space, or
     * null: what {@link Protocol#fits} judges a recording's protocol by.
     */
    public static int[] ofSend(LogRecord r) {
        return r.event() instanceof Event.Send s ? ofPayload(s.payload()) : null;
    }

    /** The six fields of a hex payload split on Unicode white space, or null when it is not a report. */
    public static int[] ofPayload(String hex) {
        // Cheap reject first: most payloads of a large log are not reports, and every report contains "RPT".
        if (hex == null || !containsRptBytes(hex)) return null;
        return fields(hex, UNICODE_WHITE_SPACE);
    }

    private static boolean containsRptBytes(String hex) {
        for (int i = 0; i + 6 <= hex.length(); i += 2) {
            if (hex.regionMatches(true, i, "525054", 0, 6)) return true;
        }
        return false;
    }

    /** The six fields of a report, or null when the payload is not one. */
    public static int[] fields(String hexPayload, IntPredicate whiteSpace) {
        if (hexPayload == null) return null;
        byte[] bytes = Hex.decode(hexPayload);
        if (bytes == null) return null;
        String text = strictUtf8(bytes);
        if (text == null) return null;
        List<String> tokens = split(text, whiteSpace, 7);
        if (tokens.size() < 7 || !tokens.get(0).equals("RPT")) return null;
        int[] out = new int[6];
        for (int i = 0; i < 6; i++) {
            try {
                out[i] = RustText.parseI32(tokens.get(i + 1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return out;
    }

    private static String strictUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Up to {@code limit} non-empty tokens separated by runs of white space (code point wise). */
    static List<String> split(String text, IntPredicate whiteSpace, int limit) {
        List<String> tokens = new ArrayList<>(limit);
        int i = 0, n = text.length();
        while (i < n && tokens.size() < limit) {
            while (i < n && whiteSpace.test(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
            int start = i;
            while (i < n && !whiteSpace.test(text.codePointAt(i))) i += Character.charCount(text.codePointAt(i));
            if (i > start) tokens.add(text.substring(start, i));
        }
        return tokens;
    }
}
