package dev.weft.testcorpus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The project's own conformance corpus, committed under {@code test-corpus/corpus/} and always present: recordings
 * made by our broker and fuzzer plus edited negative cases, each with a {@code .expect.json} sidecar holding what our
 * tools gave when it was made (test-corpus/corpus/README.md: the layout and how to regenerate it).
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
            if (Files.isRegularFile(dir.resolve("INDEX.tsv"))) {
                return dir.toAbsolutePath().normalize();
            }
        }
        throw new IllegalStateException("the project's own corpus is missing (looked at "
                + candidates.get(0).toAbsolutePath().normalize() + "); it is part of the repository");
    }

    public static Corpus corpus() {
        return new Corpus("own", dir());
    }
}
