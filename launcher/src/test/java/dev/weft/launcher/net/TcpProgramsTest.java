package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.launcher.run.RunCommand;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unmodified Debian TCP programs as scenario clusters under the live broker (docs/tcp.md, docs/broker.md "TCP"):
 * each runs to its end ({@code end_when_exited}), its per-node output is the program's, the bytes it moved are in
 * the recording, and the recording replays identically. Each test skips when its program is not installed
 * (.ci/apt-packages.txt lists them). Clients retry their connect: in a plain run nothing orders a client's
 * connect after the server's listen, and "connect before listen is refused" is itself part of what is tested.
 */
class TcpProgramsTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    record Out(int exit, String stdout, String stderr) {
    }

    static Out weft(String... args) {
        List<String> all = new ArrayList<>(List.of("--shim", NativeFixture.shim().toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = RunCommand.run(all.toArray(String[]::new), NativeFixture.cleanEnv(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static void requires(String program) {
        boolean found = false;
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            found |= Files.isExecutable(Path.of(d, program));
        }
        assumeTrue(found, "skipped: " + program + " is not installed (CI installs it, see .ci/apt-packages.txt)");
    }

    static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }

    /** A client shell loop that retries cmd (a refused connect) until it succeeds. */
    static String retrying(String cmd) {
        return "for i in $(seq 1 400); do " + cmd + " && break; sleep 0.05; done";
    }

    /** A shell loop that retries cmd and prints label once it succeeds (nothing if it never does). */
    static String once(String cmd, String label) {
        return "for i in $(seq 1 400); do if " + cmd + "; then echo " + label + "; break; fi; sleep 0.05; done";
    }

    private Path scenario(String name, String server, String client) throws Exception {
        Path s = dir.resolve(name + ".json");
        Files.writeString(s, """
                {"name": %s, "seed": 11,
                 "nodes": [{"node_id": 0, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 1, "program": "/bin/sh", "args": ["-c", %s]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [1],
                 "events": []}
                """.formatted(json(name), json(server), json(client)));
        return s;
    }

    /** Runs the scenario recorded; checks exit 0, replay identical, and that the recording carries these bytes. */
    private Out run(Path scenario, String... transferred) throws Exception {
        Path log = dir.resolve(scenario.getFileName() + ".weftlog");
        Out o = weft("--watchdog", "30", "--record", log.toString(), scenario.toString());
        assertEquals(0, o.exit(), o.stdout() + o.stderr());
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
        String text = Files.readString(log);
        assertTrue(text.contains("{\"k\":\"ext\",\"name\":\"tcp\",\"version\":1}"), "the log announces TCP");
        for (String t : transferred) {
            String hex = HexFormat.of().formatHex(t.getBytes(StandardCharsets.UTF_8));
            assertTrue(text.contains(hex), () -> "the recording carries " + t + " (" + hex + ")");
        }
        return o;
    }

    @Test
    void curlFetchesAFileFromPythonsHttpServer() throws Exception {
        requires("curl");
        requires("python3");
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.writeString(www.resolve("index.txt"), "hello from http.server\n");
        Out o = run(scenario("curl-http",
                "cd " + www + " && exec python3 -m http.server --bind 127.0.0.1 8000",
                retrying("curl -s http://127.0.0.1:8000/index.txt")),
                "GET /index.txt HTTP/1.1", "hello from http.server\n");
        assertTrue(o.stdout().contains("[n1] hello from http.server"), o.stdout());
        assertTrue(o.stderr().contains("\"GET /index.txt HTTP/1.1\" 200"), o.stderr()); // its log goes to stderr
    }

    @Test
    void socatForksAChildPerConnectionThatEchoesThroughCat() throws Exception {
        requires("socat");
        Out o = run(scenario("socat-fork",
                "exec socat TCP-LISTEN:7000,bind=127.0.0.1,fork,reuseaddr EXEC:/bin/cat",
                retrying("echo echo-me | socat -t 2 - TCP:127.0.0.1:7000 2>/dev/null")),
                "echo-me\n");
        assertTrue(o.stdout().contains("[n1] echo-me"), o.stdout());
    }

    @Test
    void redisCliSetsAndGetsAKeyOnARedisServer() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Out o = run(scenario("redis",
                "exec redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --protected-mode no"
                        + " --dir " + dir,
                retrying("redis-cli -h 127.0.0.1 SET greeting hello-redis 2>/dev/null | grep -q OK")
                        + "; redis-cli -h 127.0.0.1 GET greeting"),
                "SET", "hello-redis", "+OK\r\n");
        assertTrue(o.stdout().contains("[n1] hello-redis"), o.stdout());
    }

    @Test
    void aRedisReplicaSyncsFromItsPrimaryAndServesTheKey() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path m = Files.createDirectories(dir.resolve("primary"));
        Path r = Files.createDirectories(dir.resolve("replica"));
        String common = " --port 6379 --save '' --appendonly no --protected-mode no --repl-diskless-sync no --dir ";
        Path s = dir.resolve("replica.json");
        Files.writeString(s, """
                {"name": "redis primary and replica", "seed": 11,
                 "nodes": [{"node_id": 0, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 1, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 2, "program": "/bin/sh", "args": ["-c", %s]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [2],
                 "events": []}
                """.formatted(json("exec redis-server --bind 127.0.0.1" + common + m),
                json("exec redis-server --bind 127.0.0.2 --replicaof 127.0.0.1 6379" + common + r),
                json(retrying("redis-cli -h 127.0.0.1 SET k hello-replica 2>/dev/null | grep -q OK") + "; "
                        + retrying("[ \"$(redis-cli -h 127.0.0.2 GET k 2>/dev/null)\" = hello-replica ]")
                        + "; echo replica-has=$(redis-cli -h 127.0.0.2 GET k)")));
        Out o = run(s, "hello-replica", "PSYNC");
        assertTrue(o.stdout().contains("[n2] replica-has=hello-replica"), o.stdout() + o.stderr());
    }

    @Test
    void aPartitionTakesTheReplicasLinkDownAndTheHealResyncsIt() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path m = Files.createDirectories(dir.resolve("p-primary"));
        Path r = Files.createDirectories(dir.resolve("p-replica"));
        String common = " --port 6379 --save '' --appendonly no --protected-mode no --repl-diskless-sync no"
                + " --repl-timeout 5 --dir ";
        String status = "redis-cli -h 127.0.0.2 INFO replication 2>/dev/null | grep -o 'master_link_status:[a-z]*'";
        Path s = dir.resolve("partition.json");
        // the partition (t = 3 s) outlasts tcp_stall (30 s): the stream is reset and the replica's link goes down;
        // the heal (t = 40 s) lets it reconnect and resync
        Files.writeString(s, """
                {"name": "redis partition", "seed": 11,
                 "nodes": [{"node_id": 0, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 1, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 2, "program": "/bin/sh", "args": ["-c", %s]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [2],
                 "events": [{"time_ns": 3000000000, "action": {"type": "activate_partition", "spec": "0|1+2"}},
                            {"time_ns": 40000000000, "action": {"type": "clear_partition"}}]}
                """.formatted(json("exec redis-server --bind 127.0.0.1" + common + m),
                json("exec redis-server --bind 127.0.0.2 --replicaof 127.0.0.1 6379" + common + r),
                json(once(status + " | grep -q up", "first=up") + "; " + once(status + " | grep -q down", "then=down")
                        + "; " + once(status + " | grep -q up", "again=up"))));
        Out o = run(s);
        assertTrue(o.stdout().contains("[n2] first=up"), o.stdout());
        assertTrue(o.stdout().contains("[n2] then=down"), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains("[n2] again=up"), o.stdout() + o.stderr());
        assertTrue(o.stderr().contains("partition cleared"), o.stderr());
    }

    @Test
    void aCrashedServerResetsItsClientAndARetryIsRefused() throws Exception {
        requires("python3");
        String server = "import socket\n"
                + "l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                + "l.bind(('127.0.0.1', 7300)); l.listen(1)\n"
                + "c, _ = l.accept(); c.recv(100)\n"
                + "import time\n"
                + "while True: time.sleep(1)\n";
        String client = "import socket, time\n"
                + "for i in range(400):\n"
                + "    try:\n"
                + "        s = socket.create_connection(('127.0.0.1', 7300)); break\n"
                + "    except OSError: time.sleep(0.05)\n"
                + "s.sendall(b'anyone there?\\n')\n"
                + "try:\n"
                + "    print('read', s.recv(100))\n"
                + "except OSError as e:\n"
                + "    print('read failed:', type(e).__name__)\n"
                + "try:\n"
                + "    socket.create_connection(('127.0.0.1', 7300)); print('reconnected')\n"
                + "except OSError as e:\n"
                + "    print('reconnect failed:', type(e).__name__)\n";
        Path s = dir.resolve("crash.json");
        // the crash comes at t = 15 s: before it, the client's paced connect retries (50 ms each) leave a loaded
        // machine 1.5 s of real time to start the Python server (at t = 2 s it once crashed before listening)
        Files.writeString(s, """
                {"name": "crash", "seed": 11,
                 "nodes": [{"node_id": 0, "program": "python3", "args": ["-c", %s]},
                           {"node_id": 1, "program": "python3", "args": ["-c", %s]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [1],
                 "events": [{"time_ns": 15000000000, "action": {"type": "crash", "node_id": 0}}]}
                """.formatted(json(server), json(client)));
        Out o = run(s, "anyone there?");
        assertTrue(o.stdout().contains("[n1] read failed: ConnectionResetError"), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains("[n1] reconnect failed: ConnectionRefusedError"), o.stdout() + o.stderr());
    }

    /**
     * Windowed (protocol-v3 §2: nothing armed): curl against Python's http.server, twice with one seed, gives
     * byte-identical recordings that replay identical. Not yet: see the @Disabled reason.
     */
    @Test
    @Disabled("known gap (docs/shim.md, TCP, 'windowed runs: known gap'): http.server's main thread holds a TcpWait in"
            + " its poll while a handler thread writes; the run is discarded as a late op")
    void windowedCurlAgainstHttpServerIsAFunctionOfTheSeed() throws Exception {
        requires("curl");
        requires("python3");
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.writeString(www.resolve("index.txt"), "hello from http.server\n");
        Path s = scenario("curl-http-windowed",
                "cd " + www + " && exec python3 -m http.server --bind 127.0.0.1 8000",
                retrying("curl -s http://127.0.0.1:8000/index.txt"));
        byte[] first = null;
        for (int i = 0; i < 2; i++) {
            Path log = dir.resolve("windowed-" + i + ".weftlog");
            Out o = weft("--window", "1000", "--watchdog", "60", "--record", log.toString(), s.toString());
            assertEquals(0, o.exit(), o.stdout() + o.stderr());
            assertTrue(o.stdout().contains("[n1] hello from http.server"), o.stdout() + o.stderr());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = ReplayCommand.run(new String[] {log.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("replay identical: "), out.toString(StandardCharsets.UTF_8));
            byte[] bytes = Files.readAllBytes(log);
            if (first == null) first = bytes;
            else assertTrue(java.util.Arrays.equals(first, bytes), "two windowed runs with one seed differ");
        }
    }
}
