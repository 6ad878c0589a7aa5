package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The core's hash table against java.util.HashMap on seeded random inserts, updates and deletions. */
class OpenHashTableTest {

    @Test
    void behavesLikeAMap() {
        for (int run = 0; run < 20; run++) {
            SplittableRandom rnd = new SplittableRandom(run);
            OpenHashTable table = new OpenHashTable();
            Map<List<Long>, Long> model = new HashMap<>();
            int keySpace = 10 + rnd.nextInt(3000);
            for (int i = 0; i < 30_000; i++) {
                long a = rnd.nextInt(keySpace) * 0x1_0000_0003L; // uses both halves of the key (0x1_0000_0001 would make every Long.hashCode 0 and the HashMap model crawl)
                long b = rnd.nextInt(3) - 1;
                List<Long> key = List.of(a, b);
                int op = rnd.nextInt(10);
                if (op < 5) {
                    long v = rnd.nextLong();
                    table.setLong(table.insert(a, b), v);
                    model.put(key, v);
                } else if (op < 8) {
                    int slot = table.find(a, b);
                    if (slot >= 0) table.removeAt(slot);
                    model.remove(key);
                } else {
                    int slot = table.find(a, b);
                    assertEquals(model.get(key), slot < 0 ? null : table.longValue(slot), "run " + run + " step " + i);
                }
                assertEquals(model.size(), table.size());
            }
            Map<List<Long>, Long> seen = new HashMap<>();
            for (int s = 0; s < table.capacity(); s++) {
                if (table.isUsed(s)) seen.put(List.of(table.key1(s), table.key2(s)), table.longValue(s));
            }
            assertEquals(model, seen);
            OpenHashTable copy = table.copy();
            if (table.size() > 0) {
                for (int s = 0; s < table.capacity(); s++) {
                    if (table.isUsed(s)) {
                        table.removeAt(s);
                        break;
                    }
                }
                assertEquals(model.size(), copy.size());
            }
        }
    }
}
