package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongPairMapTest {

    /** Against a HashMap over many growths, with keys that differ in one half only and extreme values. */
    @Test
    void agreesWithHashMap() {
        LongPairMap map = new LongPairMap();
        Map<String, Long> reference = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            long a = rnd.nextInt(4) == 0 ? -1L : rnd.nextLong(3000);
            long b = rnd.nextInt(3) == 0 ? 0 : rnd.nextLong(5);
            long v = rnd.nextLong();
            map.put(a, b, v);
            reference.put(a + "/" + b, v);
        }
        for (long a = -1; a < 3000; a++) {
            for (long b = 0; b < 5; b++) {
                int at = map.indexOf(a, b);
                Long want = reference.get(a + "/" + b);
                assertEquals(want != null, at >= 0, a + "/" + b);
                if (want != null) {
                    assertEquals(want.longValue(), map.valueAt(at));
                }
            }
        }
    }

    /** Keys that all share their low bits (as an edited log could write) stay fast and correct. */
    @Test
    void collidingKeysStayCorrect() {
        LongPairMap map = new LongPairMap();
        for (long i = 0; i < 20_000; i++) {
            map.put(i * 0x1_0000_0001L, 0, i); // k ^ (k >>> 32) is 0 for all of them
        }
        for (long i = 0; i < 20_000; i++) {
            assertEquals(i, map.valueAt(map.indexOf(i * 0x1_0000_0001L, 0)));
        }
        assertEquals(-1, map.indexOf(20_000L * 0x1_0000_0001L, 0));
    }
}
