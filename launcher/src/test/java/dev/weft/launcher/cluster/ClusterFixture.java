package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.launcher.run.RunCommand;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testsupport.NativeBuild;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs our cluster examples (examples/*.c, built by shim-native) under {@code weft run --nodes … --record} and
 * judges the recordings with the in-process {@code weft replay} / {@code weft check}. Test classes carry
 * {@code @ExtendWith(ClusterFixture.Ready.class)}: off Linux, without the built shim and examples, their tests are
 * skipped with a message.
 */
final class ClusterFixture {
    /** A run in which no network operation happens for this long is stopped (exit 124), the log kept. */
    static final String WATCHDOG_SECONDS = "30";

    /** Exit status and captured streams of one {@code weft} invocation. */
    record Result(int exit, String stdout, String stderr) {
        String all() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private ClusterFixture() {
    }

    static Path shim() {
        return NativeBuild.root().resolve("shim-native").resolve("target").resolve("libweft_shim.so");
    }

    static String example(String name) {
        return NativeBuild.root().resolve("shim-native").resolve("target").resolve("examples").resolve(name).toString();
    }

    /** Runs {@link #assumeReady()} before every test of the class it extends. */
    static final class Ready implements BeforeEachCallback {
        @Override
        public void beforeEach(ExtensionContext context) {
            assumeReady();
        }
    }

    static void assumeReady() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: cluster examples need Linux");
        assumeTrue(Files.isRegularFile(shim()), "skipped: " + shim() + " was not built (run the Maven build on Linux)");
        assumeTrue(Files.isExecutable(Path.of(example("chord_node"))), "skipped: the cluster examples were not built");
    }

    /**
     * {@code weft run --shim <built shim> <args>} in this JVM with extra environment variables; the nodes' output
     * is captured (never inherited, which would corrupt surefire's channel). RunCommand's entry point with
     * explicit streams is public for this; a fresh JVM per run would cost ~0.4 s each.
     */
    static Result weftRun(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of("--shim", shim().toString()));
        all.addAll(List.of(args));
        Map<String, String> full = new HashMap<>(System.getenv());
        full.keySet().removeIf(k -> k.startsWith("WEFT_") || k.startsWith("CHORD_") || k.startsWith("RAFT_")
                || k.equals("LD_PRELOAD"));
        full.putAll(env);
        return captured((o, e) -> RunCommand.run(all.toArray(String[]::new), full, o, e));
    }

    /** Records one run: {@code weft run --seed S --net NET --nodes K --record LOG -- program args}. */
    static Result record(Map<String, String> env, long seed, String net, int nodes, Path log, String program,
            String... args) {
        List<String> all = new ArrayList<>(List.of("--seed", Long.toString(seed), "--net", net,
                "--watchdog", WATCHDOG_SECONDS));
        if (nodes > 0) {
            all.addAll(List.of("--nodes", Integer.toString(nodes)));
        }
        all.addAll(List.of("--record", log.toString(), "--", example(program)));
        all.addAll(List.of(args));
        return weftRun(env, all.toArray(String[]::new));
    }

    /** Any {@code weft} subcommand, in process. */
    static Result weft(String... args) {
        return captured((o, e) -> WeftCli.run(args, o, e));
    }

    private static Result captured(CapturedRun.Command command) {
        CapturedRun r = CapturedRun.of(command);
        return new Result(r.code(), r.out(), r.err());
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
}
