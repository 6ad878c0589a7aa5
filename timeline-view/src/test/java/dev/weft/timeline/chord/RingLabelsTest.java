package dev.weft.timeline.chord;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 26: the ring's labels never overlap, close identifiers (1/4, 22/25, 43/46) and crowded rings alike. */
class RingLabelsTest {

    private static List<RingLabels.Placed> layout(int[] ids, double width, double r) {
        double[] angles = new double[ids.length], widths = new double[ids.length];
        for (int i = 0; i < ids.length; i++) {
            angles[i] = ids[i] * 2 * Math.PI / 64 - Math.PI / 2;
            widths[i] = width;
        }
        return RingLabels.layout(ids, angles, widths, 16, 300, 300, r);
    }

    static void assertNoOverlaps(List<RingLabels.Placed> placed) {
        for (int i = 0; i < placed.size(); i++) {
            for (int j = i + 1; j < placed.size(); j++) {
                assertFalse(placed.get(i).overlaps(placed.get(j), 0), placed.get(i) + " overlaps " + placed.get(j));
            }
        }
    }

    @Test
    void theCaseStudysCloseIdentifiersDoNotOverlap() {
        List<RingLabels.Placed> p = layout(new int[] {1, 4, 22, 25, 43, 46}, 84, 110);
        assertEquals(6, p.size());
        assertNoOverlaps(p);
        // 1 keeps its place; 4, 3 units on, would have touched it and moved out
        assertFalse(p.get(0).moved());
        assertTrue(p.stream().anyMatch(RingLabels.Placed::moved), "a neighbour moved out");
    }

    @Test
    void aCrowdedSmallRingToo() {
        int[] ids = new int[40];
        for (int i = 0; i < ids.length; i++) ids[i] = i;
        assertNoOverlaps(layout(ids, 90, 60));
    }

    @Test
    void labelsFaceAwayFromTheRing() {
        List<RingLabels.Placed> p = layout(new int[] {16, 48}, 50, 100);   // 3 o'clock and 9 o'clock
        assertTrue(p.get(0).x() > 300 + 100, "right of a node on the right");
        assertTrue(p.get(1).x() + p.get(1).w() < 300 - 100, "left of a node on the left");
    }
}
