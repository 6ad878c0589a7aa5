package dev.weft.launcher.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.testsupport.AccessWatcher;
import dev.weft.testsupport.BaitRecording;
import dev.weft.testsupport.CapturedRun;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/security.md, rule "a recording is data": every command that reads a recording opens that file (and the
 * index cache) and nothing named inside it — not a path or URL in the header's meta, a payload or a violation
 * message — and starts no program and opens no socket, whatever those strings say. The commands run in a child
 * JVM under strace ({@link AccessWatcher}), so this holds on every Java version, the one we ship included.
 */
class RecordingContentIsInertTest {

    @TempDir
    Path dir;

    /** Paths and commands the recording names; none of them may be touched. They live under a directory nothing creates. */
    private Path canaryDir() {
        return dir.resolve("canary");
    }

    private Path hostileRecording() throws Exception {
        String c = canaryDir().toString();
        List<String> bait = List.of(c + "/meta-path", "file://" + c + "/meta-url", "$(touch " + c + "/subshell)",
                "`touch " + c + "/backtick`", "; touch " + c + "/semicolon", "| sh -c 'touch " + c + "/pipe'",
                "../../../../" + c + "/relative", "\\\\host\\share\\" + c + "\\unc", c + "/rpt.weftlog");
        Path log = Files.createDirectories(dir.resolve("logs")).resolve("hostile.weftlog");
        BaitRecording.write(log, bait, c + "/weft-version", "see " + c + "/violation and run `touch " + c + "/v`");
        return log;
    }

    /** Runs every command that reads a recording on the log named by args[0] and prints their exit codes. */
    static final class Reader {
        public static void main(String[] args) {
            String p = args[0];
            List<Integer> codes = new ArrayList<>();
            codes.add(weft("replay", p));
            codes.add(weft("replay", p, "--check", "fifo,dup"));
            codes.add(weft("state", p, "--at", "9"));
            codes.add(weft("check", "chord", p, "2"));
            codes.add(weft("check", "raft", p));
            codes.add(weft("trace", "chord", p, "2"));
            System.out.println("codes " + codes);
        }

        private static int weft(String... args) {
            return CapturedRun.of((o, e) -> WeftCli.run(args, o, o)).code();
        }
    }

    @Test
    void readingCommandsTouchNothingTheRecordingNames() throws Exception {
        Path log = hostileRecording();
        String p = log.toString();
        AccessWatcher seen = AccessWatcher.watch(Reader.class, p);
        assertEquals(0, seen.exitCode(), seen.output());
        String line = seen.output().lines().filter(l -> l.startsWith("codes [")).findFirst().orElseThrow(
                () -> new AssertionError("the commands did not all run: " + seen.output()));
        List<String> codes = List.of(line.substring("codes [".length(), line.length() - 1).split(", "));
        assertEquals("0", codes.get(0), "the recording is valid: replay must reach every event: " + seen.output());
        assertEquals("0", codes.get(2), seen.output());
        String canary = canaryDir().toString();
        List<String> touched = seen.files().stream().filter(f -> f.contains(canary) || f.contains("canary")).toList();
        assertEquals(List.of(), touched, "paths named inside the recording were accessed");
        assertEquals(List.of(), seen.programs(), "programs were started");
        assertEquals(List.of(), seen.sockets(), "sockets were used");
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(p)), "the watcher saw the log itself being read: "
                + seen.files().size() + " accesses");
        assertFalse(Files.exists(canaryDir()));
    }

    /** Probes a path, tries to start a program and to connect: what the rule forbids, done on purpose. */
    static final class Offender {
        public static void main(String[] args) {
            Files.exists(Path.of(args[0]));
            try {
                new ProcessBuilder(args[1]).start();
            } catch (IOException expected) {
                // the start was still attempted
            }
            try (Socket s = new Socket("127.0.0.1", Integer.parseInt(args[2]))) {
                s.getInputStream();
            } catch (IOException expected) {
                // refused (nobody listens), but the connect was made
            }
        }
    }

    @Test
    void theWatcherSeesAPathProbeAProgramStartAndAConnect() throws Exception {
        // Guards against a vacuous pass: what the rule forbids must show up when it happens.
        Path named = canaryDir().resolve("meta-path");
        Path program = canaryDir().resolve("no-such-program");
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        AccessWatcher seen = AccessWatcher.watch(Offender.class, named.toString(), program.toString(),
                Integer.toString(closedPort));
        assertTrue(seen.files().stream().anyMatch(f -> f.endsWith(" " + named)), seen.files().toString());
        assertTrue(seen.programs().contains(program.toString()), seen.programs().toString());
        String port = "htons(" + closedPort + ")";
        assertTrue(seen.sockets().stream().anyMatch(s -> s.startsWith("connect ") && s.contains(port)),
                seen.sockets().toString());
    }
}
