package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs our cluster examples (examples/*.c, built by shim-native) under {@code weft run --nodes … --record} and
 * judges the recordings with the in-process {@code weft replay} / {@code weft check}. Tests call
 * {@link #assumeReady()} first: off Linux, without the built shim and examples, they are skipped with a message.
 * {@code weft run} runs in its own JVM (java -cp <this classpath> WeftMain): the nodes' output is captured there
 * and cannot reach surefire's channel.
 */
final class ClusterFixture {
    static final long TIMEOUT_SECONDS = 120;

    /** Exit status and captured streams of one {@code weft} invocation. */
    record Result(int exit, String stdout, String stderr) {
        String all() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private ClusterFixture() {
    }

    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("shim-native").resolve("Makefile"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root (shim-native/Makefile) above "
                + Path.of("").toAbsolutePath());
    }

    static Path shim() {
        return root().resolve("shim-native").resolve("target").resolve("libweft_shim.so");
    }

    static String example(String name) {
        return root().resolve("shim-native").resolve("target").resolve("examples").resolve(name).toString();
    }

    static void assumeReady() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: cluster examples need Linux");
        assumeTrue(Files.isRegularFile(shim()), "skipped: " + shim() + " was not built (run the Maven build on Linux)");
        assumeTrue(Files.isExecutable(Path.of(example("chord_node"))), "skipped: the cluster examples were not built");
    }

    /** {@code weft run --shim <built shim> <args>} in a fresh JVM, with extra environment variables. */
    static Result weftRun(Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "dev.weft.launcher.WeftMain", "run", "--shim", shim().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> e = pb.environment();
        e.keySet().removeIf(k -> k.startsWith("WEFT_") || k.startsWith("CHORD_") || k.startsWith("RAFT_")
                || k.equals("LD_PRELOAD"));
        e.putAll(env);
        return exec(pb);
    }

    /** Records one run: {@code weft run --seed S --net NET --nodes K --record LOG -- program args}. */
    static Result record(Map<String, String> env, long seed, String net, int nodes, Path log, String program,
            String... args) {
        List<String> all = new ArrayList<>(List.of("--seed", Long.toString(seed), "--net", net));
        if (nodes > 0) {
            all.addAll(List.of("--nodes", Integer.toString(nodes)));
        }
        all.addAll(List.of("--record", log.toString(), "--", example(program)));
        all.addAll(List.of(args));
        return weftRun(env, all.toArray(String[]::new));
    }

    /** Any {@code weft} subcommand, in process. */
    static Result weft(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = WeftCli.run(args, o, e);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The checker's exit status for a recording: 0 OK, 2 VIOLATION, 3 DISCARD. */
    static int chordVerdict(Path log, int m) {
        Result r = weft("check", "chord", log.toString(), Integer.toString(m));
        return r.exit();
    }

    static int raftVerdict(Path log) {
        return weft("check", "raft", log.toString()).exit();
    }

    /**
     * The recording is in canonical form byte for byte: reading every record and writing it again with our writer
     * (the reference's serialization, checked against its corpus) gives back the same file.
     */
    static void assertCanonical(Path log) throws Exception {
        byte[] original = Files.readAllBytes(log);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LogReader r = LogReader.open(log)) {
            LogHeader h = r.header();
            try (LogWriter w = LogWriter.create(out, false, h.seed(), h.net(), h.windowNs(), h.meta())) {
                LogRecord rec;
                while ((rec = r.next()) != null) {
                    w.append(rec.vt(), rec.event());
                }
            }
        }
        assertArrayEquals(original, out.toByteArray(), log + " is not in canonical form");
    }

    /** The replay line, checked identical {@code times} times. */
    static String assertReplaysIdentical(Path log, int times) {
        String first = null;
        for (int i = 0; i < times; i++) {
            Result r = weft("replay", log.toString());
            assertEquals(0, r.exit(), r.all());
            assertEquals("", r.stderr(), "replay " + i);
            if (first == null) {
                first = r.stdout();
            }
            assertEquals(first, r.stdout(), "replay " + i + " of " + log);
        }
        return first;
    }

    static Map<String, String> env(String... keyValues) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    static Result exec(ProcessBuilder pb) {
        try {
            Path out = Files.createTempFile("weft-cluster", ".out");
            Path err = Files.createTempFile("weft-cluster", ".err");
            try {
                pb.redirectOutput(out.toFile()).redirectError(err.toFile());
                Process p = pb.start();
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    throw new AssertionError("timed out after " + TIMEOUT_SECONDS + " s: " + pb.command()
                            + "\n" + Files.readString(err));
                }
                return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
