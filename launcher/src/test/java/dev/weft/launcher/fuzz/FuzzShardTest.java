package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft fuzz --shard I/N} + {@code weft fuzz merge} write what one process writes: the same reproducers, the
 * same regression file and the same report (its informative duration aside), with regression seeds queued first
 * so that a key's message must come from the smallest queue index across shards (seed 1, in shard 0).
 */
class FuzzShardTest {

    @TempDir
    Path dir;

    private void setUp(Path base) throws Exception {
        Files.createDirectories(base);
        CommandRun.write(base.resolve("cfg.json"), FuzzCommandTest.VECTOR_CONFIG);
        CommandRun.write(base.resolve("F"), "[1, 0]");
    }

    @Test
    void fourShardsMergedWriteTheFilesOfOneRun() throws Exception {
        Path one = dir.resolve("one");
        Path sharded = dir.resolve("sharded");
        setUp(one);
        setUp(sharded);
        CommandRun single = CommandRun.of(one, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1",
                "--regressions", "F", "--out", "OUT");
        assertEquals(2, single.exit(), single.err());

        List<String> merge = new ArrayList<>(List.of("merge", "OUT"));
        for (int k = 0; k < 4; k++) {
            CommandRun s = CommandRun.of(sharded, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "2",
                    "--regressions", "F", "--shard", k + "/4", "--out", "s" + k);
            assertEquals(2, s.exit(), s.err());
            assertTrue(!s.err().contains("shrinking"), "a shard only sweeps: " + s.err());
            assertTrue(Files.isRegularFile(sharded.resolve("s" + k).resolve("sweep-shard.json")));
            try (var files = Files.list(sharded.resolve("s" + k))) {
                assertEquals(1, files.count(), "a shard writes only its sweep result");
            }
            merge.add("s" + k);
        }
        merge.addAll(List.of("--regressions", "F"));
        CommandRun merged = CommandRun.of(sharded, merge.toArray(String[]::new));
        assertEquals(2, merged.exit(), merged.err());
        assertTrue(merged.err().contains("weft fuzz: swept 22 seed(s), 22 failing, 6 distinct violation(s)\n"
                + "weft fuzz: shrinking and writing 6 reproducer(s)\n"), merged.err());

        assertEquals(CommandRun.withoutDuration(single.out()), CommandRun.withoutDuration(merged.out()));
        assertTrue(single.out().contains("swept     : 22 seed(s) in "), single.out());
        assertEquals(-1L, Files.mismatch(one.resolve("F"), sharded.resolve("F")), "regression file");
        try (var files = Files.list(one.resolve("OUT"))) {
            List<Path> all = files.sorted().toList();
            assertEquals(7, all.size(), "six reproducers and report.txt: " + all);
            for (Path a : all) {
                Path b = sharded.resolve("OUT").resolve(a.getFileName());
                if (a.getFileName().toString().equals("report.txt")) {
                    assertEquals(CommandRun.withoutDuration(CommandRun.read(a)), CommandRun.withoutDuration(CommandRun.read(b)));
                } else {
                    assertEquals(-1L, Files.mismatch(a, b), a.getFileName().toString());
                }
            }
        }
    }

    @Test
    void mergeRefusesAMissingShardAndShardsOfAnotherSweep() throws Exception {
        setUp(dir);
        for (int k = 0; k < 3; k++) {
            CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:6", "--shard", k + "/3", "--out", "s" + k);
        }
        CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:7", "--shard", "2/3", "--out", "other");
        CommandRun missing = CommandRun.of(dir, "merge", "OUT", "s0", "s2");
        assertEquals(1, missing.exit());
        assertEquals("weft fuzz merge: shard(s) 1 of 3 missing\n", missing.err());
        CommandRun twice = CommandRun.of(dir, "merge", "OUT", "s0", "s0");
        assertEquals("weft fuzz merge: s0/sweep-shard.json: shard 0 is given twice\n", twice.err());
        CommandRun other = CommandRun.of(dir, "merge", "OUT", "s0", "s1", "other");
        assertTrue(other.err().startsWith("weft fuzz merge: other/sweep-shard.json: a different sweep than"
                + " s0/sweep-shard.json"), other.err());
        CommandRun none = CommandRun.of(dir, "merge", "OUT", "nowhere");
        assertTrue(none.err().startsWith("weft fuzz merge: nowhere is not a shard folder"), none.err());
        CommandRun bad = CommandRun.of(dir, "--config", "cfg.json", "--shard", "3/3");
        assertEquals(1, bad.exit());
        assertTrue(bad.err().startsWith("weft fuzz: --shard 3/3: shard 3 of 3 is out of range"), bad.err());
        assertTrue(!Files.exists(dir.resolve("OUT").resolve("report.txt")), "nothing merged");
    }
}
