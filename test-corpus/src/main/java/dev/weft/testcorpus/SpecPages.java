package dev.weft.testcorpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The project's specification pages (docs/spec/), whose vectors tests read: always present in the repository. */
public final class SpecPages {

    private SpecPages() {
    }

    /** The text of {@code docs/spec/<page>}, found from a module's directory or the repository's. */
    public static String read(String page) {
        for (Path dir : List.of(Path.of("..", "docs", "spec"), Path.of("docs", "spec"))) {
            Path file = dir.resolve(page);
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readString(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("docs/spec/" + page + " not found from " + Path.of("").toAbsolutePath());
    }
}
