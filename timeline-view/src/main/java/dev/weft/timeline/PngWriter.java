package dev.weft.timeline;

import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.weft.io.OutputFile;

/** Writes a JavaFX image as PNG (through ImageIO, without the Swing bridge): the one PNG writer of the workbench and its tests. */
public final class PngWriter {

    private PngWriter() { }

    public static void write(WritableImage img, Path out) throws IOException {
        write(img, out, false);
    }

    /** keepAlpha: write the transparency too (icons), otherwise an opaque RGB image (screenshots). */
    public static void write(javafx.scene.image.Image img, Path out, boolean keepAlpha) throws IOException {
        int w = (int) img.getWidth(), h = (int) img.getHeight();
        int[] argb = new int[w * h];
        img.getPixelReader().getPixels(0, 0, w, h, PixelFormat.getIntArgbInstance(), argb, 0, w);
        BufferedImage bi = new BufferedImage(w, h, keepAlpha ? BufferedImage.TYPE_INT_ARGB : BufferedImage.TYPE_INT_RGB);
        bi.setRGB(0, 0, w, h, argb, 0, w);
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) Files.createDirectories(parent);
        // through the shared output rule: a regular file is replaced whole, a FIFO written, a directory refused
        try (OutputFile f = OutputFile.open(out)) {
            if (!ImageIO.write(bi, "png", f.stream())) throw new IOException("no PNG writer available");
            f.commit();
        }
    }
}
