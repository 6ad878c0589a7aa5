package dev.weft.timeline;

import dev.weft.testsupport.SyntheticRun;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewportAndMappingTest {

    @Test
    void zoomKeepsTheValueUnderThePointerAndStaysInsideTheDomain() {
        SplittableRandom rnd = new SplittableRandom(3);
        Viewport v = new Viewport();
        v.setWidth(1000);
        v.setDomain(0, 1_000_000);
        for (int i = 0; i < 5000; i++) {
            double x = rnd.nextDouble() * 1000;
            double before = v.valueAt(x);
            double factor = rnd.nextBoolean() ? 1.7 : 1 / 1.7;
            double oldSpan = v.span();
            v.zoomAt(x, factor);
            boolean clamped = v.start() == v.domainStart() || v.end() == v.domainEnd() || v.span() == oldSpan;
            if (!clamped) assertEquals(before, v.valueAt(x), 1e-6 * v.span());
            assertTrue(v.start() >= 0 && v.end() <= 1_000_000 + 1e-6);
            assertTrue(v.span() >= 1000 / Viewport.MAX_PIXELS_PER_UNIT - 1e-9);
            if (rnd.nextInt(4) == 0) v.panPixels(rnd.nextDouble() * 600 - 300);
            assertTrue(v.start() >= 0 && v.end() <= 1_000_000 + 1e-6);
        }
    }

    @Test
    void revealScrollsJustEnough() {
        Viewport v = new Viewport();
        v.setWidth(500);
        v.setDomain(0, 10_000);
        v.show(0, 100);
        v.reveal(50);
        assertEquals(0, v.start(), 1e-9);
        v.reveal(500);
        assertTrue(v.start() < 500 && v.end() > 500);
        assertEquals(100, v.span(), 1e-9);
    }

    @Test
    void nearestOpMatchesBruteForceInBothAxisModes() {
        TimelineModel m = TimelineModel.of(SyntheticRun.generate(4, 3, 4000));
        SplittableRandom rnd = new SplittableRandom(11);
        for (AxisMode mode : AxisMode.values()) {
            Viewport v = new Viewport();
            v.setWidth(800);
            double[] d = AxisMapping.domain(m, mode);
            v.setDomain(d[0], d[1]);
            v.zoomAt(400, 20);
            AxisMapping map = new AxisMapping(m, mode, v);
            for (int i = 0; i < 2000; i++) {
                double x = rnd.nextDouble() * 800;
                int lane = rnd.nextInt(m.laneCount());
                int got = map.nearestOp(lane, x, 8, (l, k) -> k != MarkKind.RECV_EMPTY.ordinal());
                double best = 8;
                for (int op = 0; op < m.size(); op++) {
                    if (m.lane(op) != lane || m.kind(op) == MarkKind.RECV_EMPTY) continue;
                    best = Math.min(best, Math.abs(map.xOf(op) - x));
                }
                if (got < 0) assertEquals(8, best, 1e-9, "missed a mark at x " + x);
                else assertEquals(best, Math.abs(map.xOf(got) - x), 1e-9);
            }
        }
    }

    @Test
    void cursorOpAtIsTheLastOpAtOrBeforeThePointer() {
        TimelineModel m = TimelineModel.of(SyntheticRun.generate(6, 2, 1000));
        Viewport v = new Viewport();
        v.setWidth(1000);
        v.setDomain(0, m.size());
        AxisMapping map = new AxisMapping(m, AxisMode.OP, v);
        assertEquals(0, map.cursorOpAt(0.5));
        assertEquals(m.size() - 1, map.cursorOpAt(999.9));
        assertEquals(500, map.cursorOpAt(v.xOf(500.5)));
    }
}
