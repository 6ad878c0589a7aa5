package dev.weft.app;

import java.util.Locale;

/** Display detection and Monocle's headless glass for --screenshot on machines without a display. */
final class Headless {

    private Headless() { }

    static boolean hasDisplay() {
        if ("Monocle".equals(System.getProperty("glass.platform"))) return true;   // already headless-capable
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("win") || os.contains("mac")) return true;
        return notBlank(System.getenv("DISPLAY")) || notBlank(System.getenv("WAYLAND_DISPLAY"));
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }

    /** Must run before the JavaFX toolkit starts; the virtual screen must hold the whole window. */
    static void useMonocle(int width, int height) {
        System.setProperty("headless.geometry", Math.max(1280, width) + "x" + Math.max(800, height) + "-32");
        System.setProperty("glass.platform", "Monocle");
        System.setProperty("monocle.platform", "Headless");
        System.setProperty("prism.order", "sw");
        System.setProperty("prism.text", "t2k");
        System.setProperty("java.awt.headless", "true");
    }
}
