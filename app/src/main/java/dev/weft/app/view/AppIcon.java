package dev.weft.app.view;

import javafx.scene.SnapshotParameters;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.Image;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;

/**
 * The window icon, drawn rather than loaded (icons/weft-workbench.svg is the same picture): three node
 * lanes (the weft) crossed by delivered datagrams (the warp), one datagram lost.
 */
public final class AppIcon {

    private AppIcon() { }

    public static Image render(int size) {
        Canvas c = new Canvas(size, size);
        GraphicsContext g = c.getGraphicsContext2D();
        g.scale(size / 256.0, size / 256.0);
        g.setFill(Color.web("#1f2933"));
        g.fillRoundRect(8, 8, 240, 240, 88, 88);
        g.setLineCap(StrokeLineCap.ROUND);
        g.setStroke(Color.web("#3d4a5a"));
        g.setLineWidth(10);
        for (int y : new int[] {76, 128, 180}) g.strokeLine(48, y, 208, y);
        g.setStroke(Color.web("#60a5fa"));
        g.setLineWidth(7);
        g.strokeLine(70, 76, 118, 128);
        g.strokeLine(134, 128, 178, 180);
        g.strokeLine(96, 180, 160, 76);
        dot(g, 70, 76, "#2563eb");
        dot(g, 118, 128, "#16a34a");
        dot(g, 134, 128, "#2563eb");
        dot(g, 178, 180, "#16a34a");
        dot(g, 96, 180, "#2563eb");
        dot(g, 160, 76, "#16a34a");
        g.setStroke(Color.web("#f87171"));
        g.strokeLine(196, 58, 212, 74);
        g.strokeLine(212, 58, 196, 74);
        SnapshotParameters p = new SnapshotParameters();
        p.setFill(Color.TRANSPARENT);
        return c.snapshot(p, null);
    }

    private static void dot(GraphicsContext g, double x, double y, String color) {
        g.setFill(Color.web(color));
        g.fillOval(x - 13, y - 13, 26, 26);
    }
}
