package dev.weft.app.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The Inspector's reading of stream bytes: HTTP, RESP and memcached as text, other printable text, binary. */
class StreamTextTest {

    private static String of(String s) {
        return StreamText.describe(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void protocolsAreReadAsText() {
        assertEquals("stream bytes: 18 B HTTP\nGET / HTTP/1.0\\r\n\\r\n", of("GET / HTTP/1.0\r\n\r\n"));
        assertEquals("stream bytes: 17 B HTTP\nHTTP/1.0 200 OK\\r\n", of("HTTP/1.0 200 OK\r\n"));
        assertEquals("stream bytes: 7 B RESP (Redis)\n+PONG\\r\n", of("+PONG\r\n"));
        assertEquals("stream bytes: 20 B memcached\nset k 0 0 5\\r\nhello\\r\n", of("set k 0 0 5\r\nhello\r\n"));
        assertEquals("stream bytes: 5 B text\nhello", of("hello"));
    }

    @Test
    void binaryIsLeftToTheHexDump() {
        assertEquals("stream bytes: 3 B binary (see the hex dump)", StreamText.describe(new byte[] {0, 1, (byte) 0xff}));
        assertEquals("stream bytes: none", StreamText.describe(new byte[0]));
    }
}
