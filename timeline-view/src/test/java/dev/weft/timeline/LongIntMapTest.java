package dev.weft.timeline;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LongIntMapTest {

    @Test
    void behavesLikeAHashMapUnderRandomPutGetRemove() {
        for (long seed = 1; seed <= 10; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            LongIntMap m = new LongIntMap(4);
            Map<Long, Integer> ref = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                long key = rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(500);
                switch (rnd.nextInt(3)) {
                    case 0 -> {
                        int v = rnd.nextInt(Integer.MAX_VALUE);
                        m.put(key, v);
                        ref.put(key, v);
                    }
                    case 1 -> assertEquals(ref.getOrDefault(key, LongIntMap.MISSING), m.get(key));
                    default -> assertEquals(ref.containsKey(key) ? ref.remove(key) : LongIntMap.MISSING, m.remove(key));
                }
                assertEquals(ref.size(), m.size());
            }
            for (var e : ref.entrySet()) assertEquals(e.getValue(), m.get(e.getKey()));
        }
    }
}
