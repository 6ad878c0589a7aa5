package dev.weft.launcher.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.fuzz.Executor;
import dev.weft.fuzz.Op;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.launcher.WeftCli;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.NetSpec;
import dev.weft.testsupport.AccessWatcher;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/security.md, rule "a recording is data": every command that reads a recording opens that file (and the
 * index cache) and nothing named inside it — not a path or URL in the header's meta, a payload or a violation
 * message — and starts no program and opens no socket, whatever those strings say.
 */
class RecordingContentIsInertTest {

    @TempDir
    Path dir;

    /** Paths and commands the recording names; none of them may be touched. They live under a directory nothing creates. */
    private Path canaryDir() {
        return dir.resolve("canary");
    }

    private Path hostileRecording() throws Exception {
        Path canary = canaryDir();
        String c = canary.toString();
        List<String> bait = List.of(c + "/meta-path", "file://" + c + "/meta-url", "$(touch " + c + "/subshell)",
                "`touch " + c + "/backtick`", "; touch " + c + "/semicolon", "| sh -c 'touch " + c + "/pipe'",
                "../../../../" + c + "/relative", "\\\\host\\share\\" + c + "\\unc", c + "/rpt.weftlog");
        String label = String.join(" ", bait);
        Path log = Files.createDirectories(dir.resolve("logs")).resolve("hostile.weftlog");
        VAddr a = WorkloadGenerator.addressOf(0);
        VAddr b = WorkloadGenerator.addressOf(1);
        List<Op> ops = new ArrayList<>(List.of(new Op.Connect(0), new Op.Hello(0, 0), new Op.Bind(0, a),
                new Op.Connect(1), new Op.Hello(1, 1), new Op.Bind(1, b)));
        List<String> payloads = new ArrayList<>(bait);
        payloads.add("RPT 0 1 1 1 1 1"); // a state report among the bait, so the checkers parse payloads
        for (String text : payloads) {
            ops.add(new Op.Send(0, a, b, text.getBytes(StandardCharsets.UTF_8)));
            ops.add(new Op.Recv(1, false));
        }
        String net = "latency=fixed:10";
        try (LogWriter w = LogWriter.create(log, 1, net, 0, new LogMeta(0L, c + "/weft-version", label))) {
            Executor.Execution run = Executor.execute(1, NetSpec.parse(net), ops, List.of(), (i, vt, e, raised) -> {
                try {
                    w.append(vt, e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            w.append(run.finalVt(), new Event.Violation("per-channel-fifo", "see " + c + "/violation and run `touch " + c + "/v`"));
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
        }
        return log;
    }

    private static int weft(String... args) {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(sink, true, StandardCharsets.UTF_8)) {
            return WeftCli.run(args, o, o);
        }
    }

    @Test
    void readingCommandsTouchNothingTheRecordingNames() throws Exception {
        Path log = hostileRecording();
        String p = log.toString();
        List<Integer> codes = new ArrayList<>();
        AccessWatcher seen = AccessWatcher.watch(() -> {
            codes.add(weft("replay", p));
            codes.add(weft("replay", p, "--check", "fifo,dup"));
            codes.add(weft("state", p, "--at", "9"));
            codes.add(weft("check", "chord", p, "2"));
            codes.add(weft("check", "raft", p));
            codes.add(weft("trace", "chord", p, "2"));
            return null;
        });
        assertEquals(0, codes.get(0), "the recording is valid: replay must reach every event");
        assertEquals(0, codes.get(2));
        String canary = canaryDir().toString();
        List<String> touched = seen.files().stream().filter(f -> f.contains(canary) || f.contains("canary")).toList();
        assertEquals(List.of(), touched, "paths named inside the recording were accessed");
        assertEquals(List.of(), seen.programs(), "programs were started");
        assertEquals(List.of(), seen.sockets(), "sockets were used");
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(p)), "the watcher saw the log itself being read: "
                + seen.files().size() + " accesses");
        assertFalse(Files.exists(canaryDir()));
    }

    @Test
    void theWatcherSeesAPathProbeAndAProgramStart() throws Exception {
        // Guards against a vacuous pass: what the rule forbids must show up when it happens.
        Path named = canaryDir().resolve("meta-path");
        AccessWatcher seen = AccessWatcher.watch(() -> {
            Files.exists(named);
            try {
                new ProcessBuilder(canaryDir().resolve("no-such-program").toString()).start();
            } catch (IOException expected) {
                // the start was still checked
            }
            return null;
        });
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(named.toString())), seen.files().toString());
        assertEquals(1, seen.programs().size(), seen.programs().toString());
    }
}
