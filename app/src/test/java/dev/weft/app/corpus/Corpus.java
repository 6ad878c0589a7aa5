package dev.weft.app.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The shared conformance corpus: INDEX.tsv rows and sidecars, found through weft.shared.dir. */
public final class Corpus {

    private Corpus() { }

    public static Path dir() {
        String p = System.getProperty("weft.shared.dir");
        Path shared = p != null ? Path.of(p) : Path.of("..", "..", "shared");
        return shared.resolve("conformance").toAbsolutePath().normalize();
    }

    public record Entry(String log, String category, String ops, int replayExit, String digest, String divergedAt,
                        int checkExit, int checkViolations) {
        public Path path() {
            return dir().resolve(log);
        }

        public JsonNode sidecar() {
            try {
                return new ObjectMapper().readTree(dir().resolve(log + ".expect.json").toFile());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    public static List<Entry> index() {
        try {
            List<Entry> out = new ArrayList<>();
            List<String> lines = Files.readAllLines(dir().resolve("INDEX.tsv"));
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
}
