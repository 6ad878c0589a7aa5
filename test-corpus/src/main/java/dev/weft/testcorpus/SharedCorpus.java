package dev.weft.testcorpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * The optional reference material (the reference implementation's spec and corpus), read in place, never copied or
 * edited: the one place tests look up {@code weft.shared.dir} (set by the parent pom; else {@code ../shared} beside
 * the repository). Every accessor skips the calling test when it is absent; the project's own corpus, which is
 * always there, is {@link OwnCorpus}.
 */
public final class SharedCorpus {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SharedCorpus() {
    }

    /**
     * The shared directory (holding {@code spec/} and {@code conformance/}). When it is absent (a fresh clone) the
     * calling test is skipped: this throws {@link ReferenceCorpusAbsent}, which JUnit reports as an aborted test.
     */
    public static Path sharedDir() {
        return find().orElseThrow(() -> new ReferenceCorpusAbsent("no reference corpus at "
                + candidates().get(0).toAbsolutePath().normalize() + "; it is optional, see README.md"));
    }

    /** Whether the reference corpus is beside the repository (or at {@code -Dweft.shared.dir}). */
    public static boolean isPresent() {
        return find().isPresent();
    }

    private static Optional<Path> find() {
        for (Path dir : candidates()) {
            if (Files.isDirectory(dir.resolve("conformance"))) {
                return Optional.of(dir.toAbsolutePath().normalize());
            }
        }
        return Optional.empty();
    }

    private static List<Path> candidates() {
        String prop = System.getProperty("weft.shared.dir");
        return prop != null && !prop.isBlank() ? List.of(Path.of(prop))
                : List.of(Path.of("..", "shared"), Path.of("..", "..", "shared"));
    }

    public static Path conformance() {
        return sharedDir().resolve("conformance");
    }

    public static Path spec(String file) {
        return sharedDir().resolve("spec").resolve(file);
    }

    /** The reference corpus as a {@link Corpus}, so the tests of our own corpus share their bodies with it. */
    public static Corpus corpus() {
        return new Corpus("reference", conformance());
    }

    /** Every {@code *.expect.json} sidecar, sorted by path so test order is stable. */
    public static List<Path> sidecars() {
        return corpus().sidecars();
    }

    /** Every {@code *.weftlog} and {@code *.weftlog.gz}, sorted. */
    public static List<Path> allLogs() {
        return corpus().allLogs();
    }

    public static JsonNode readJson(Path json) {
        try {
            return JSON.readTree(json.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + json, e);
        }
    }

    /** The sidecar of a corpus log. */
    public static JsonNode sidecar(Path log) {
        return readJson(log.resolveSibling(log.getFileName() + ".expect.json"));
    }

    /** Logs whose sidecar has a non-null member {@code key} (e.g. a checker's verdict), sorted. */
    public static List<Path> logsWith(String key) {
        List<Path> out = new ArrayList<>();
        for (Path sidecar : sidecars()) {
            JsonNode d = readJson(sidecar);
            if (d.hasNonNull(key)) {
                out.add(conformance().resolve(d.get("log").asText()));
            }
        }
        return out;
    }

    /** A stream's expected text: inline, or from the {@code <stream>_file} the sidecar names when it was over 8 KiB. */
    public static String expectedText(JsonNode run, String stream) {
        return corpus().expectedText(run, stream);
    }

    /** One row of {@code INDEX.tsv}. */
    public record Entry(String log, String category, String ops, int replayExit, String digest, String divergedAt,
                        int checkExit, int checkViolations) {
        public Path path() {
            return conformance().resolve(log);
        }

        public JsonNode sidecar() {
            return readJson(conformance().resolve(log + ".expect.json"));
        }
    }

    /** The rows of {@code INDEX.tsv}, in file order. */
    public static List<Entry> index() {
        try {
            List<Entry> out = new ArrayList<>();
            List<String> lines = Files.readAllLines(conformance().resolve("INDEX.tsv"));
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.split("\t", -1);
                out.add(new Entry(f[0], f[1], f[2], Integer.parseInt(f[3]), f[4], f[5],
                        f[6].isEmpty() ? -1 : Integer.parseInt(f[6]), f[7].isEmpty() ? -1 : Integer.parseInt(f[7])));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A working directory in which {@code relativeLog} exists (see {@link Corpus#workingDirFor}). */
    public static Path workingDirFor(String relativeLog) {
        return corpus().workingDirFor(relativeLog);
    }

    /** A corpus log's path relative to {@code conformance/}, as sidecars and test names write it. */
    public static String relative(Path log) {
        return corpus().relative(log);
    }

    /** The decompressed bytes of a (possibly gzip) corpus file; only for small files. */
    public static byte[] text(Path log) throws IOException {
        try (InputStream raw = Files.newInputStream(log)) {
            byte[] head = raw.readNBytes(2);
            if (head.length == 2 && head[0] == 0x1f && head[1] == (byte) 0x8b) {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(log))) {
                    return in.readAllBytes();
                }
            }
        }
        return Files.readAllBytes(log);
    }
}
