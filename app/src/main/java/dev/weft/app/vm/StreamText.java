package dev.weft.app.vm;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Inspector's reading of TCP stream bytes (a tcp_send's segment or a tcp_recv's data; docs/workbench.md
 * "Inspector"): bytes that are printable text (ASCII printable, tab, CR, LF) are shown as text, one line per line of
 * the stream with CR shown as {@code \r}, under the protocol they look like: HTTP (a request line's method or an
 * {@code HTTP/} status line), RESP (Redis: {@code * $ + - :} type bytes), or a memcached text command; anything
 * else printable is "text". Other bytes are "binary", left to the hex dump. A segment is any slice of a stream, so
 * the guess looks only at its own first bytes and never fails.
 */
final class StreamText {

    private static final List<String> HTTP_METHODS =
            List.of("GET ", "POST ", "PUT ", "DELETE ", "HEAD ", "OPTIONS ", "PATCH ", "CONNECT ", "TRACE ", "HTTP/");
    private static final List<String> MEMCACHED = List.of("get ", "gets ", "set ", "add ", "replace ", "append ",
            "prepend ", "cas ", "delete ", "incr ", "decr ", "touch ", "stats", "version", "flush_all", "quit",
            "VALUE ", "END\r\n", "STORED\r\n", "NOT_STORED\r\n", "EXISTS\r\n", "NOT_FOUND\r\n", "DELETED\r\n", "TOUCHED\r\n");

    private StreamText() { }

    /** The decoded view of {@code bytes}: a header naming what they look like, then the text (or a note). */
    static String describe(byte[] bytes) {
        if (bytes.length == 0) return "stream bytes: none";
        if (!printable(bytes)) return "stream bytes: " + bytes.length + " B binary (see the hex dump)";
        String text = new String(bytes, StandardCharsets.US_ASCII);
        return "stream bytes: " + bytes.length + " B " + protocol(text) + "\n" + text.replace("\r", "\\r");
    }

    /** "HTTP", "RESP (Redis)", "memcached" or "text", by the first bytes. */
    static String protocol(String text) {
        for (String m : HTTP_METHODS) if (text.startsWith(m)) return "HTTP";
        char c = text.charAt(0);
        if ((c == '*' || c == '$' || c == '+' || c == '-' || c == ':') && text.contains("\r\n")) return "RESP (Redis)";
        for (String m : MEMCACHED) if (text.startsWith(m)) return "memcached";
        return "text";
    }

    private static boolean printable(byte[] bytes) {
        for (byte b : bytes) {
            if (!(b >= 0x20 && b < 0x7f || b == '\t' || b == '\r' || b == '\n')) return false;
        }
        return true;
    }
}
