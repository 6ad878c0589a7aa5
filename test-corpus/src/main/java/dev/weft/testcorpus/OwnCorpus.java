package dev.weft.testcorpus;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The project's own conformance corpus, committed under {@code test-corpus/corpus/} and always present: recordings
 * made by our broker and fuzzer plus hand-made negative cases, each with a {@code .expect.json} sidecar holding the
 * results our tools gave when it was recorded (docs/spec/README.md says how to regenerate it).
 */
public final class OwnCorpus {

    private OwnCorpus() {
    }

    /** The corpus folder: {@code -Dweft.corpus.dir}, else found from the module's or the repository's directory. */
    public static Path dir() {
        String prop = System.getProperty("weft.corpus.dir");
        List<Path> candidates = prop != null && !prop.isBlank() ? List.of(Path.of(prop))
                : List.of(Path.of("..", "test-corpus", "corpus"), Path.of("test-corpus", "corpus"), Path.of("corpus"));
        for (Path dir : candidates) {
            if (Files.isRegularFile(dir.resolve("README.md"))) {
                return dir.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("the project's own corpus is missing (looked at "
                + candidates.get(0).toAbsolutePath().normalize() + "); it is part of the repository");
    }

    /** Every {@code *.expect.json} sidecar, sorted by path so test order is stable. */
    public static List<Path> sidecars() {
        try (Stream<Path> s = Files.walk(dir())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".expect.json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The log a sidecar describes. */
    public static Path logOf(Path sidecar) {
        String name = sidecar.getFileName().toString();
        return sidecar.resolveSibling(name.substring(0, name.length() - ".expect.json".length()));
    }

    /** A log's path relative to the corpus folder, as test names write it. */
    public static String relative(Path log) {
        return dir().relativize(log).toString();
    }

    public static JsonNode sidecar(Path log) {
        return SharedCorpus.readJson(log.resolveSibling(log.getFileName() + ".expect.json"));
    }
}
