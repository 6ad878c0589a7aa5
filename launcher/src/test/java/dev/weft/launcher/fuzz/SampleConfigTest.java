package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** examples/fuzz/sample.json must keep producing the small one-violation reproducer shipped as the sample recording. */
class SampleConfigTest {

    @TempDir
    Path dir;

    static Path repoFile(String relative) {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve(relative);
            if (Files.exists(candidate)) return candidate;
        }
        throw new IllegalStateException(relative + " not found above " + Path.of("").toAbsolutePath());
    }

    @Test
    void sampleYieldsOneFifoViolationWithASevenOpReproducer() throws Exception {
        Files.copy(repoFile("examples/fuzz/sample.json"), dir.resolve("sample.json"));
        CommandRun r = CommandRun.of(dir, "--config", "sample.json");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.out().contains("\n1 distinct violation(s):\n"), r.out());
        assertTrue(r.out().contains("  \u2717 per-channel-fifo on 127.0.0.2:100 \u2192 127.0.0.1:100\n"), r.out());
        assertTrue(r.out().contains("    shrunk : 25 \u2192 7 ops in 41 execution(s)\n"), r.out());
        Path repro = dir.resolve("weft-fuzz-out/repro-seed0-per-channel-fifo-on-127-0-0-2-100-127-0-0-1-100.weftlog");
        List<String> lines = Files.readAllLines(repro);
        assertEquals(10, lines.size()); // header, 7 ops, the violation, end
        assertTrue(lines.get(8).contains("\"k\":\"violation\",\"invariant\":\"per-channel-fifo\""));
        assertTrue(lines.get(9).contains("\"k\":\"end\",\"events\":9,\"sent\":2,\"dropped\":0"));
    }
}
