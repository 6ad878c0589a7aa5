package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.support.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 5: a real {@code weft fuzz} JVM killed with SIGKILL at seeded random points while it writes its
 * reproducers leaves no file under a final name that is not complete, report.txt only once everything else is
 * there, and a rerun into the same directory gives the complete result.
 */
class FuzzKillTest {

    /** Unshrunk, each of this workload's six reproducers is ~3 MB: writing them takes a good part of a second. */
    static final String CONFIG = "{\"net\":\"latency=uniform:0-8000,loss=0.02\","
            + "\"workload\":{\"nodes\":3,\"sends\":1500,\"payload_len\":256}}";
    static final String[] ARGS = {"--config", "cfg.json", "--seeds", "0:3", "--no-shrink", "--jobs", "1", "--out", "OUT"};
    static final int KILLS = 3;

    @TempDir
    Path dir;

    /** Starts the child; returns it once it announced the writing phase, with that instant in nanoseconds. */
    private record Started(Process process, long writingSince) {
    }

    private Started startUntilWriting(Path workDir) throws Exception {
        Process p = ChildJvm.builder(workDir, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), FuzzCommand.class, ARGS)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = err.readLine()) != null) {
            if (line.startsWith("weft fuzz: shrinking and writing")) break;
        }
        long since = System.nanoTime();
        CompletableFuture.runAsync(() -> {
            try {
                err.transferTo(java.io.Writer.nullWriter());
            } catch (java.io.IOException e) {
                // the child was killed
            }
        });
        return new Started(p, since);
    }

    private static Map<String, byte[]> contents(Path out) throws Exception {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(out)) {
            for (Path p : s.toList()) files.put(p.getFileName().toString(), Files.readAllBytes(p));
        }
        return files;
    }

    private static String report(byte[] bytes) {
        return CommandRun.withoutDuration(new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    void killedMidWriteLeavesOnlyCompleteFilesAndARerunCompletesTheResult() throws Exception {
        Path ref = Files.createDirectory(dir.resolve("ref"));
        CommandRun.write(ref.resolve("cfg.json"), CONFIG);
        Started whole = startUntilWriting(ref);
        assertTrue(whole.process().waitFor(120, TimeUnit.SECONDS));
        long writeNanos = System.nanoTime() - whole.writingSince();
        assertEquals(2, whole.process().exitValue());
        Map<String, byte[]> expected = contents(ref.resolve("OUT"));
        assertEquals(7, expected.size(), expected.keySet().toString());

        Path work = Files.createDirectory(dir.resolve("work"));
        CommandRun.write(work.resolve("cfg.json"), CONFIG);
        SplittableRandom random = new SplittableRandom(12);
        int landed = 0;
        // A run that finishes before its kill time (this machine was faster than during the reference run) still
        // has its files checked, but does not count: try again, a bounded number of times.
        for (int attempt = 0; attempt < 3 * KILLS && landed < KILLS; attempt++) {
            Started run = startUntilWriting(work);
            long at = run.writingSince() + (long) (random.nextDouble() * 0.9 * writeNanos);
            long wait = at - System.nanoTime();
            if (wait > 0) TimeUnit.NANOSECONDS.sleep(wait);
            if (run.process().isAlive()) {
                run.process().destroyForcibly(); // SIGKILL on Linux: no shutdown hook, no finally block runs
                landed++;
            }
            run.process().waitFor();
            Map<String, byte[]> seen = contents(work.resolve("OUT"));
            for (Map.Entry<String, byte[]> f : seen.entrySet()) {
                String name = f.getKey();
                if (name.endsWith(".weft-tmp")) continue;
                assertTrue(expected.containsKey(name), "unexpected file " + name);
                if (name.equals("report.txt")) {
                    assertEquals(report(expected.get(name)), report(f.getValue()));
                    assertEquals(expected.keySet(), seen.keySet().stream().filter(n -> !n.endsWith(".weft-tmp"))
                            .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new)),
                            "report.txt is written last");
                } else {
                    assertEquals(expected.get(name).length, f.getValue().length, "attempt " + attempt + ": " + name + " is truncated");
                    assertEquals(-1, java.util.Arrays.mismatch(expected.get(name), f.getValue()), name);
                }
            }
        }
        assertTrue(landed > 0, "no kill landed before the end of a run; the test did not test anything");

        CommandRun rerun = CommandRun.of(work, ARGS);
        assertEquals(2, rerun.exit(), rerun.err());
        Map<String, byte[]> after = contents(work.resolve("OUT"));
        assertEquals(expected.keySet(), after.keySet(), "stale temporary files are removed by the rerun");
        for (String name : expected.keySet()) {
            if (name.equals("report.txt")) assertEquals(report(expected.get(name)), report(after.get(name)));
            else assertEquals(-1, java.util.Arrays.mismatch(expected.get(name), after.get(name)), name);
        }
    }
}
