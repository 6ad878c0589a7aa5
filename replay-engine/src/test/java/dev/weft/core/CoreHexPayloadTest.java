package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.weft.log.RecvOutcome;
import dev.weft.log.VAddr;
import dev.weft.text.Hex;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Replay sends payloads as hex ({@link Core#sendHex}) and the core keeps them that way; everything observable must be
 * what sending the decoded bytes gives: outcomes, deliveries (lowercase hex), peeks, snapshots, copies, and the
 * payload-blind core's empty deliveries.
 */
class CoreHexPayloadTest {

    @Test
    void sendingHexIsSendingItsBytes() throws Exception {
        for (RandomTraffic traffic : RandomTraffic.seeds(20)) {
            Core bytes = new Core(traffic.fault());
            Core hex = new Core(traffic.fault());
            Core blindBytes = Core.withoutPayloads(traffic.fault());
            Core blindHex = Core.withoutPayloads(traffic.fault());
            Core[] all = {bytes, hex, blindBytes, blindHex};
            Random rnd = traffic.rnd();
            RandomTraffic.connectNodes(all);
            for (int i = 0; i < 400; i++) {
                String at = "seed " + traffic.seed() + " op " + i;
                int conn = traffic.anyNode();
                if (i == 200) { // copies keep the hex payloads they share with the original
                    bytes = bytes.copy();
                    hex = hex.copy();
                    blindHex = blindHex.copy();
                }
                if (rnd.nextInt(3) == 0) {
                    assertEquals(bytes.peek(conn), hex.peek(conn), at);
                    RecvOutcome a = bytes.recv(conn);
                    assertEquals(a, hex.recv(conn), at);
                    assertEquals(blindBytes.recv(conn), blindHex.recv(conn), at);
                } else {
                    byte[] payload = new byte[rnd.nextInt(300)];
                    rnd.nextBytes(payload);
                    String text = mixCase(Hex.encodeLower(payload), rnd);
                    String lower = HexPayload.lowercaseOrNull(text);
                    VAddr src = RandomTraffic.node(conn);
                    VAddr dst = RandomTraffic.node(traffic.anyNode());
                    Core.SendResult expected = bytes.send(src, dst, payload, i * 10L);
                    assertEquals(expected, hex.sendHex(src, dst, lower, i * 10L), at);
                    assertEquals(blindBytes.send(src, dst, payload, i * 10L),
                            blindHex.sendHex(src, dst, lower, i * 10L), at);
                }
                assertEquals(bytes.vt(), hex.vt(), at);
            }
            assertEquals(bytes.snapshot(), hex.snapshot(), "seed " + traffic.seed());
            assertEquals(blindBytes.snapshot(), blindHex.snapshot(), "seed " + traffic.seed());
        }
    }

    @Test
    void lowercaseOrNullAcceptsExactlyWhatDecodes() {
        Random rnd = new Random(1);
        String alphabet = "0123456789abcdefABCDEFgG xz-";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            int n = rnd.nextInt(7);
            for (int j = 0; j < n; j++) {
                s.append(rnd.nextInt(10) < 8 ? alphabet.charAt(rnd.nextInt(22)) : alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String text = s.toString();
            byte[] decoded = Hex.decode(text);
            String lower = HexPayload.lowercaseOrNull(text);
            if (decoded == null) {
                assertNull(lower, text);
            } else {
                assertEquals(Hex.encodeLower(decoded), lower, text);
            }
        }
        String already = "00ff7a";
        assertSame(already, HexPayload.lowercaseOrNull(already), "a lowercase payload is passed through, not copied");
    }

    private static String mixCase(String lower, Random rnd) {
        if (rnd.nextBoolean()) return lower;
        char[] c = lower.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (rnd.nextBoolean()) c[i] = Character.toUpperCase(c[i]);
        }
        return new String(c);
    }
}
