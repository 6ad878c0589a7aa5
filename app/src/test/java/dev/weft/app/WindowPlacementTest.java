package dev.weft.app;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 26 item 5: --size wins over the remembered size, and the window always opens inside the visible screen. */
class WindowPlacementTest {

    private static final WindowPlacement.Screen SMALL = new WindowPlacement.Screen(0, 0, 1400, 900);
    private static final double NAN = Double.NaN;

    private static boolean inside(WindowPlacement p, WindowPlacement.Screen s) {
        return p.x() >= s.minX() && p.y() >= s.minY() && p.x() + p.width() + WindowPlacement.FRAME_W <= s.minX() + s.width()
                && p.y() + p.height() + WindowPlacement.FRAME_H <= s.minY() + s.height();
    }

    @Test
    void sizeOnTheCommandLineWinsOverTheRememberedSize() throws Exception {
        LaunchOptions given = LaunchOptions.parse(new String[] {"--size", "1024x700"});
        WindowPlacement p = WindowPlacement.of(given, 1600, 1000, 10, 10, new WindowPlacement.Screen(0, 0, 1920, 1080));
        assertEquals(1024, p.width());
        assertEquals(700, p.height());
        assertEquals(10, p.x(), "it fits where it was: it opens there");
        LaunchOptions none = LaunchOptions.parse(new String[] {});
        assertEquals(1600, WindowPlacement.of(none, 1600, 1000, 10, 10, new WindowPlacement.Screen(0, 0, 1920, 1080)).width());
    }

    @Test
    void theWindowOpensInsideTheVisibleBounds() throws Exception {
        LaunchOptions o = LaunchOptions.parse(new String[] {"--size", "1400x900"});
        WindowPlacement p = WindowPlacement.of(o, NAN, NAN, 300, 200, SMALL);
        assertTrue(inside(p, SMALL), p.toString());
        assertTrue(p.width() <= 1400 && p.height() <= 900, p.toString());
        // remembered on a bigger screen, far to the right: centred instead
        WindowPlacement q = WindowPlacement.of(LaunchOptions.parse(new String[] {}), 1800, 1000, 1500, 50, SMALL);
        assertTrue(inside(q, SMALL), q.toString());
        // a screen whose visible area starts below a top panel
        WindowPlacement.Screen panel = new WindowPlacement.Screen(0, 28, 1024, 740);
        WindowPlacement r = WindowPlacement.of(LaunchOptions.parse(new String[] {}), NAN, NAN, NAN, NAN, panel);
        assertTrue(inside(r, panel), r.toString());
    }
}
