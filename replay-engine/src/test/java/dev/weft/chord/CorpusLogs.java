package dev.weft.chord;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The corpus logs whose sidecar records a given checker run, read into memory for tests. */
public final class CorpusLogs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private CorpusLogs() {
    }

    public static Path conformance() {
        return dev.weft.testcorpus.SharedCorpus.conformance();
    }

    /** Reference-corpus logs whose sidecar has the member {@code checkerKey} ({@code chord_check} or {@code raft_check}), sorted. */
    public static List<Path> withChecker(String checkerKey) {
        return withChecker(dev.weft.testcorpus.SharedCorpus.corpus().root(), checkerKey);
    }

    /** Logs of the corpus at {@code root} whose sidecar has the member {@code checkerKey}, sorted. */
    public static List<Path> withChecker(Path root, String checkerKey) {
        try (Stream<Path> files = Files.walk(root)) {
            List<Path> out = new ArrayList<>();
            for (Path sidecar : files.filter(p -> p.toString().endsWith(".expect.json")).sorted().toList()) {
                JsonNode d = JSON.readTree(sidecar.toFile());
                if (d.hasNonNull(checkerKey)) out.add(root.resolve(d.get("log").asText()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A check of one corpus log, given the log and its records. */
    public interface LogCheck {
        void run(Path log, List<LogRecord> records) throws Exception;
    }

    /** One dynamic test per corpus log whose sidecar has {@code checkerKey}; there must be at least {@code atLeast}. */
    public static List<org.junit.jupiter.api.DynamicTest> perLog(String checkerKey, int atLeast, LogCheck check) {
        return perLog(dev.weft.testcorpus.SharedCorpus.corpus().root(), checkerKey, atLeast, check);
    }

    /** As {@link #perLog(String, int, LogCheck)}, over the corpus at {@code root} (ours: OwnCorpus.dir()). */
    public static List<org.junit.jupiter.api.DynamicTest> perLog(Path root, String checkerKey, int atLeast, LogCheck check) {
        List<Path> logs = withChecker(root, checkerKey);
        org.junit.jupiter.api.Assertions.assertTrue(logs.size() >= atLeast, checkerKey + " logs: " + logs.size());
        return logs.stream().map(log -> org.junit.jupiter.api.DynamicTest.dynamicTest(root.relativize(log).toString(),
                () -> check.run(log, records(log)))).toList();
    }

    public static List<LogRecord> records(Path log) throws WeftLogException, IOException {
        try (LogReader reader = LogReader.open(log)) {
            List<LogRecord> out = new ArrayList<>();
            for (LogRecord r = reader.next(); r != null; r = reader.next()) out.add(r);
            return out;
        }
    }
}
