package dev.weft.text;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HexTest {

    @Test
    void decodesEitherCase() {
        assertArrayEquals(new byte[]{0x00, (byte) 0xAB, (byte) 0xCD, (byte) 0xEF, 0x19}, Hex.decode("00abCDeF19"));
        assertArrayEquals(new byte[0], Hex.decode(""));
    }

    @Test
    void rejectsOddLengthAndNonHex() {
        assertNull(Hex.decode("abc"));
        assertNull(Hex.decode("0g"));
        assertNull(Hex.decode("+1"));
        assertNull(Hex.decode(" 1"));
        assertNull(Hex.decode("١٢"));
        assertNull(Hex.decode("ＡＢ"));
    }

    @Test
    void encodesLowercaseAndRoundTrips() {
        assertEquals("00ff7f80", Hex.encodeLower(new byte[]{0, -1, 127, -128}));
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 1000; i++) {
            byte[] b = new byte[rnd.nextInt(40)];
            for (int j = 0; j < b.length; j++) b[j] = (byte) rnd.nextInt(256);
            String hex = Hex.encodeLower(b);
            assertEquals(hex.toLowerCase(java.util.Locale.ROOT), hex);
            assertArrayEquals(b, Hex.decode(hex));
            assertArrayEquals(b, Hex.decode(hex.toUpperCase(java.util.Locale.ROOT)));
        }
    }
}
