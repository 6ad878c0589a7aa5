package dev.weft.launcher.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** The reference corpus in ../shared/conformance, read in place (never copied, never edited). */
public final class Corpus {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Corpus() {
    }

    public static Path sharedDir() {
        String prop = System.getProperty("weft.shared.dir");
        Path dir = prop != null ? Path.of(prop) : Path.of("..", "..", "shared");
        if (!Files.isDirectory(dir.resolve("conformance"))) {
            throw new IllegalStateException("reference corpus not found at " + dir.toAbsolutePath()
                    + " (set -Dweft.shared.dir or keep ../shared beside the repository)");
        }
        return dir.toAbsolutePath().normalize();
    }

    public static Path conformanceDir() {
        return sharedDir().resolve("conformance");
    }

    /** Every sidecar in the corpus, sorted by path so test order is stable. */
    public static List<Path> sidecars() {
        try (Stream<Path> s = Files.walk(conformanceDir())) {
            return s.filter(p -> p.getFileName().toString().endsWith(".expect.json")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode read(Path json) {
        try {
            return JSON.readTree(json.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A stream's expected text: inline, or from the `<stream>_file` the sidecar names when it was over 8 KiB. */
    public static String expectedText(JsonNode run, String stream) {
        JsonNode inline = run.get(stream);
        if (inline != null && !inline.isNull()) {
            return inline.asText();
        }
        JsonNode file = run.get(stream + "_file");
        if (file == null || file.isNull()) {
            return "";
        }
        try {
            return Files.readString(conformanceDir().resolve(file.asText()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A working directory in which {@code relativeLog} exists: the corpus itself, or, for the large plain log that the
     * corpus ships only gzip-compressed, a folder under target/ where it is expanded once.
     */
    public static Path workingDirFor(String relativeLog) {
        Path inCorpus = conformanceDir().resolve(relativeLog);
        if (Files.exists(inCorpus)) {
            return conformanceDir();
        }
        Path gz = conformanceDir().resolve(relativeLog + ".gz");
        if (!Files.exists(gz)) {
            throw new IllegalStateException("corpus log missing: " + inCorpus);
        }
        Path work = Path.of("target", "corpus-expanded").toAbsolutePath();
        Path target = work.resolve(relativeLog);
        try {
            if (!Files.exists(target)) {
                Files.createDirectories(target.getParent());
                Path tmp = target.resolveSibling(target.getFileName() + ".part");
                try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16)) {
                    Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
                }
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return work;
    }
}
