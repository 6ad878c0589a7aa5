package dev.weft.timeline;

import javafx.scene.Node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Saves a node's snapshot as a PNG under target/screenshots (call on the FX thread). */
final class Screenshots {

    private Screenshots() { }

    static Path save(Node node, String name) {
        Path file = Path.of("target", "screenshots", name + ".png");
        try {
            PngWriter.write(node.snapshot(null, null), file, true);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
