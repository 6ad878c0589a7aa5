package dev.weft.app;

/**
 * Where the main window opens: the size asked for (--size wins over the size remembered from the last run, which wins
 * over the default), shrunk to the screen's visible bounds (the desktop less its panels), at the remembered place
 * when the window fits there, otherwise centred. Pure, so it is tested without a screen.
 */
record WindowPlacement(double x, double y, double width, double height) {

    /** Room kept for the window manager's frame around the scene (title bar, borders), so the frame fits too. */
    static final double FRAME_W = 8, FRAME_H = 32;

    /** A rectangle of the screen: its visible bounds. */
    record Screen(double minX, double minY, double width, double height) { }

    /** NaN for a remembered value that is not there. */
    static WindowPlacement of(LaunchOptions o, double rememberedW, double rememberedH, double rememberedX, double rememberedY,
                              Screen screen) {
        double w = o.sizeGiven() || Double.isNaN(rememberedW) ? o.width() : rememberedW;
        double h = o.sizeGiven() || Double.isNaN(rememberedH) ? o.height() : rememberedH;
        w = Math.max(320, Math.min(w, screen.width() - FRAME_W));
        h = Math.max(240, Math.min(h, screen.height() - FRAME_H));
        double x = rememberedX, y = rememberedY;
        boolean fits = !Double.isNaN(x) && !Double.isNaN(y) && x >= screen.minX() && y >= screen.minY()
                && x + w + FRAME_W <= screen.minX() + screen.width() && y + h + FRAME_H <= screen.minY() + screen.height();
        if (!fits) {
            x = screen.minX() + (screen.width() - w - FRAME_W) / 2;
            y = screen.minY() + (screen.height() - h - FRAME_H) / 2;
        }
        return new WindowPlacement(x, y, w, h);
    }
}
