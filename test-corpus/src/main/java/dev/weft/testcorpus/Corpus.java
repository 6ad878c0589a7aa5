package dev.weft.testcorpus;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * A folder of recordings with {@code .expect.json} sidecars: the reference corpus ({@link SharedCorpus}) or our
 * own ({@link OwnCorpus}). Both use the same sidecar members (ours are a subset), so one test body checks both.
 *
 * @param name how test names call it ({@code "own"}, {@code "reference"})
 * @param root the folder; sidecars name their logs relative to it
 */
public record Corpus(String name, Path root) {

    /** Every {@code *.expect.json} sidecar, sorted by path so test order is stable. */
    public List<Path> sidecars() {
        return walk(p -> p.getFileName().toString().endsWith(".expect.json"));
    }

    /** Every {@code *.weftlog} and {@code *.weftlog.gz}, sorted. */
    public List<Path> allLogs() {
        return walk(p -> Files.isRegularFile(p) && (p.getFileName().toString().endsWith(".weftlog")
                || p.getFileName().toString().endsWith(".weftlog.gz")));
    }

    private List<Path> walk(java.util.function.Predicate<Path> filter) {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(filter).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path resolve(String relative) {
        return root.resolve(relative);
    }

    /** A log's path relative to the corpus, as sidecars and test names write it. */
    public String relative(Path log) {
        return root.relativize(log).toString();
    }

    /** The sidecar of a log. */
    public static JsonNode sidecar(Path log) {
        return SharedCorpus.readJson(log.resolveSibling(log.getFileName() + ".expect.json"));
    }

    /**
     * A run's expected text for {@code stream} ("stdout" or "stderr"): inline, or from the {@code <stream>_file} the
     * sidecar names; null when the sidecar pins it by digest only ({@code <stream>_sha256}, see {@link #matches}).
     */
    public String expectedText(JsonNode run, String stream) {
        JsonNode inline = run.get(stream);
        if (inline != null && !inline.isNull()) {
            return inline.asText();
        }
        JsonNode file = run.get(stream + "_file");
        if (file != null && !file.isNull()) {
            try {
                return Files.readString(root.resolve(file.asText()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return run.has(stream + "_sha256") ? null : "";
    }

    /** Whether {@code actual} is the run's expected {@code stream}, by text or by its pinned sha256. */
    public boolean matches(JsonNode run, String stream, String actual) {
        String expected = expectedText(run, stream);
        return expected != null ? expected.equals(actual)
                : sha256(actual.getBytes(StandardCharsets.UTF_8)).equals(run.get(stream + "_sha256").asText());
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A working directory in which {@code relativeLog} exists: the corpus itself, or, for a log it ships only
     * gzip-compressed, a folder under target/ where it is expanded once.
     */
    public Path workingDirFor(String relativeLog) {
        Path inCorpus = root.resolve(relativeLog);
        if (Files.exists(inCorpus)) {
            return root;
        }
        Path gz = root.resolve(relativeLog + ".gz");
        if (!Files.exists(gz)) {
            throw new IllegalStateException("corpus log missing: " + inCorpus);
        }
        Path work = Path.of("target", "corpus-expanded", name).toAbsolutePath();
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
