package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A run directory of {@code weft vm record}, read back: its manifest (a {@code simferret-run/1} one with an identity),
 * the normalized events of events.jsonl (one JSON object a line, kept as the text the recorder wrote), the verdicts of
 * assertions.json and the outcome digest line. The one reader of the folder's files, by {@link RunFiles}' names:
 * {@code weft vm replay} and the workbench both open a run through it.
 *
 * @param eventLines    events.jsonl, one entry per line, without line ends
 * @param assertions    assertions.json's verdicts, in file order
 * @param outcomeDigest outcome.digest without its line end ({@code sha256:…})
 */
public record RecordedRun(Path dir, JsonNode manifest, List<String> eventLines,
        List<RunAssertions.Assertion> assertions, String outcomeDigest) {

    /** The manifest's format word this reader knows. */
    public static final String FORMAT = "simferret-run/1";

    /** A folder that is not a readable run directory: the message names the file and what is wrong. */
    public static final class NotARun extends Exception {
        private static final long serialVersionUID = 1L;

        NotARun(String message) {
            super(message);
        }
    }

    /** Whether {@code p} looks like a run directory (it holds a manifest and events), without reading either. */
    public static boolean isRunDirectory(Path p) {
        return Files.isDirectory(p) && Files.isRegularFile(p.resolve(RunFiles.MANIFEST))
                && Files.isRegularFile(p.resolve(RunFiles.EVENTS));
    }

    /** The manifest of {@code dir}, checked to be a {@code simferret-run/1} one with an identity. */
    public static JsonNode readManifest(Path dir) throws NotARun {
        Path m = dir.resolve(RunFiles.MANIFEST);
        if (!Files.isRegularFile(m)) {
            throw new NotARun(m + ": not found (not a 'weft vm record' run directory)");
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(m.toFile());
        } catch (IOException e) {
            throw new NotARun(m + ": not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        if (!node.path("format").asText().equals(FORMAT) || !node.path("identity").isObject()) {
            throw new NotARun(m + ": not a " + FORMAT + " manifest");
        }
        return node;
    }

    /** Reads the whole directory (the QEMU log and the console stay on disk: only a replay needs them). */
    public static RecordedRun read(Path dir) throws NotARun, IOException {
        JsonNode manifest = readManifest(dir);
        List<String> events = Files.readAllLines(dir.resolve(RunFiles.EVENTS), StandardCharsets.UTF_8);
        Path a = dir.resolve(RunFiles.ASSERTIONS);
        JsonNode assertions;
        try {
            assertions = Json.MAPPER.readTree(a.toFile());
        } catch (IOException e) {
            throw new NotARun(a + ": not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        String digest = Files.readString(dir.resolve(RunFiles.OUTCOME), StandardCharsets.UTF_8).strip();
        return new RecordedRun(dir, manifest, List.copyOf(events), RunAssertions.fromJson(assertions), digest);
    }

    /** What the run is bound to (QEMU, kernel, seed, …): {@link RunIdentity}'s members. */
    public JsonNode identity() {
        return manifest.path("identity");
    }

    /** The seed of {@link #identity()} (a decimal string there), 0 when absent. */
    public long seed() {
        return Long.parseUnsignedLong(identity().path("seed").asText("0"));
    }

    /** The run's id ({@code sf-<seed>-<digest>}). */
    public String runId() {
        return manifest.path("run_id").asText();
    }
}
