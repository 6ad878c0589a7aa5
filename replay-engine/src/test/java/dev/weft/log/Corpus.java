package dev.weft.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Locates the shared reference corpus and reads its sidecars (see conformance/README.md): the one lookup of
 * {@code weft.shared.dir} in this module's tests (the other modules' tests use weft-test-support, which depends on
 * this module and so cannot serve its tests).
 */
public final class Corpus {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Corpus() {
    }

    public static Path sharedDir() {
        String prop = System.getProperty("weft.shared.dir");
        if (prop != null && Files.isDirectory(Paths.get(prop))) {
            return Paths.get(prop).normalize();
        }
        for (String candidate : new String[] {"../shared", "../../shared"}) {
            Path p = Paths.get(candidate).toAbsolutePath().normalize();
            if (Files.isDirectory(p.resolve("conformance"))) {
                return p;
            }
        }
        throw new IllegalStateException("shared corpus not found (set -Dweft.shared.dir)");
    }

    public static Path conformance() {
        return sharedDir().resolve("conformance");
    }

    /** Every *.weftlog and *.weftlog.gz under conformance/, recursively, in sorted order. */
    static List<Path> allLogs() {
        try (Stream<Path> s = Files.walk(conformance())) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".weftlog")
                            || p.getFileName().toString().endsWith(".weftlog.gz"))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode sidecar(Path log) {
        Path side = log.resolveSibling(log.getFileName() + ".expect.json");
        try {
            return JSON.readTree(side.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("sidecar of " + log, e);
        }
    }

    static String relative(Path log) {
        return conformance().relativize(log).toString();
    }

    /** The decompressed bytes of a (possibly gzip) corpus file; only for small files. */
    static byte[] text(Path log) throws IOException {
        byte[] raw = Files.readAllBytes(log);
        if (raw.length >= 2 && raw[0] == 0x1f && raw[1] == (byte) 0x8b) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(log))) {
                return in.readAllBytes();
            }
        }
        return raw;
    }
}
