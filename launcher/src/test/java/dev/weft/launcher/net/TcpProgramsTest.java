package dev.weft.launcher.net;

import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.ClusterRunTest.Out;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
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

    /** Python that listens on 127.0.0.1:port and accepts one connection as c. */
    static String pythonAccept(int port) {
        return "import socket\n"
                + "l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                + "l.bind(('127.0.0.1', " + port + ")); l.listen(1)\n"
                + "c, _ = l.accept()\n";
    }

    /** Python that connects s to 127.0.0.1:port, retrying every 50 ms (400 times) while the server starts. */
    static String pythonConnect(int port) {
        return "import socket, time\n"
                + "for i in range(400):\n"
                + "    try:\n"
                + "        s = socket.create_connection(('127.0.0.1', " + port + ")); break\n"
                + "    except OSError: time.sleep(0.05)\n";
    }

    /**
     * A two-node scenario, seed 11: a Python server (node 0) and its client (node 1) on a network of the given
     * latency; members holds what follows (end_when_exited, events) as JSON members.
     */
    static String pythonPair(String name, String server, String client, String latency, String members) {
        return """
                {"name": %s, "seed": 11,
                 "nodes": [{"node_id": 0, "program": "python3", "args": ["-c", %s]},
                           {"node_id": 1, "program": "python3", "args": ["-c", %s]}],
                 "network": {"latency": "%s"},
                 %s}
                """.formatted(json(name), json(server), json(client), latency, members);
    }

    /** A client shell loop that retries cmd (a refused connect) until it succeeds. */
    static String retrying(String cmd) {
        return "for i in $(seq 1 400); do " + cmd + " && break; sleep 0.05; done";
    }

    /** A shell loop that retries cmd and prints label once it succeeds (nothing if it never does). */
    static String once(String cmd, String label) {
        return onceEvery(cmd, label, "0.05");
    }

    /**
     * once, pausing the given seconds between tries: 400 tries cover 400 × pause of virtual time plus what each try
     * costs, which differs between machines (their programs make different numbers of calls), so a wait that must
     * outlast a scheduled event uses a pause long enough that 400 × pause alone covers it.
     */
    static String onceEvery(String cmd, String label, String pause) {
        return "for i in $(seq 1 400); do if " + cmd + "; then echo " + label + "; break; fi; sleep " + pause
                + "; done";
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

    /** The folder http.server serves in the curl tests: index.txt, whose one line the tests look for. */
    private Path servedFolder() throws IOException {
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.writeString(www.resolve("index.txt"), "hello from http.server\n");
        return www;
    }

    @Test
    void curlFetchesAFileFromPythonsHttpServer() throws Exception {
        requires("curl");
        requires("python3");
        Path www = servedFolder();
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

    /**
     * A redis-server primary (node 0 on 127.0.0.1, data in primary) and its replica (node 1 on 127.0.0.2, data in
     * replica), both with the options given, and node 2 running client under /bin/sh; the run ends when node 2 exits.
     * events is the scenario's events array.
     */
    private static Path redisScenario(Path file, String name, Path primary, Path replica, String options,
            String client, String events) throws IOException {
        String common = " --port 6379 --save '' --appendonly no --protected-mode no --repl-diskless-sync no" + options
                + " --dir ";
        Files.writeString(file, """
                {"name": %s, "seed": 11,
                 "nodes": [{"node_id": 0, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 1, "program": "/bin/sh", "args": ["-c", %s]},
                           {"node_id": 2, "program": "/bin/sh", "args": ["-c", %s]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [2],
                 "events": %s}
                """.formatted(json(name), json("exec redis-server --bind 127.0.0.1" + common + primary),
                json("exec redis-server --bind 127.0.0.2 --replicaof 127.0.0.1 6379" + common + replica),
                json(client), events));
        return file;
    }

    /** redisScenario whose node 2 sets a key on the primary and prints it once the replica has it. */
    private static Path redisReplicaScenario(String name, Path file, Path primary, Path replica) throws IOException {
        return redisScenario(file, name, primary, replica, "",
                retrying("redis-cli -h 127.0.0.1 SET k hello-replica 2>/dev/null | grep -q OK") + "; "
                        + retrying("[ \"$(redis-cli -h 127.0.0.2 GET k 2>/dev/null)\" = hello-replica ]")
                        + "; echo replica-has=$(redis-cli -h 127.0.0.2 GET k)", "[]");
    }

    @Test
    void aRedisReplicaSyncsFromItsPrimaryAndServesTheKey() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path s = redisReplicaScenario("redis primary and replica", dir.resolve("replica.json"),
                Files.createDirectories(dir.resolve("primary")), Files.createDirectories(dir.resolve("replica")));
        Out o = run(s, "hello-replica", "PSYNC");
        assertTrue(o.stdout().contains("[n2] replica-has=hello-replica"), o.stdout() + o.stderr());
    }

    @Test
    void aPartitionTakesTheReplicasLinkDownAndTheHealResyncsIt() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path m = Files.createDirectories(dir.resolve("p-primary"));
        Path r = Files.createDirectories(dir.resolve("p-replica"));
        String status = "redis-cli -h 127.0.0.2 INFO replication 2>/dev/null | grep -o 'master_link_status:[a-z]*'";
        // the partition (t = 3 s) outlasts tcp_stall (30 s): the stream is reset and the replica's link goes down;
        // the heal (t = 40 s) lets it reconnect and resync; the last wait (400 × 0.25 s) outlasts the heal on any machine
        Path s = redisScenario(dir.resolve("partition.json"), "redis partition", m, r, " --repl-timeout 5",
                once(status + " | grep -q up", "first=up") + "; " + once(status + " | grep -q down", "then=down")
                        + "; " + onceEvery(status + " | grep -q up", "again=up", "0.25"), """
                [{"time_ns": 3000000000, "action": {"type": "activate_partition", "spec": "0|1+2"}},
                            {"time_ns": 40000000000, "action": {"type": "clear_partition"}}]""");
        Out o = run(s);
        assertTrue(o.stdout().contains("[n2] first=up"), o.stdout());
        assertTrue(o.stdout().contains("[n2] then=down"), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains("[n2] again=up"), o.stdout() + o.stderr());
        assertTrue(o.stderr().contains("partition cleared"), o.stderr());
    }

    @Test
    void aCrashedServerResetsItsClientAndARetryIsRefused() throws Exception {
        requires("python3");
        String server = pythonAccept(7300)
                + "c.recv(100)\n"
                + "import time\n"
                + "while True: time.sleep(1)\n";
        String client = pythonConnect(7300)
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
        Files.writeString(s, pythonPair("crash", server, client, "uniform:2000-10000", """
                "end_when_exited": [1],
                 "events": [{"time_ns": 15000000000, "action": {"type": "crash", "node_id": 0}}]"""));
        Out o = run(s, "anyone there?");
        assertTrue(o.stdout().contains("[n1] read failed: ConnectionResetError"), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains("[n1] reconnect failed: ConnectionRefusedError"), o.stdout() + o.stderr());
    }

    // ------------------------------------------------------------------ windowed runs (docs/tcp.md "Windowed runs")

    /** The two-node scenario with another seed (the same name, programs and network). */
    private Path reseeded(Path scenario, long seed) throws Exception {
        Path s = dir.resolve(scenario.getFileName().toString().replace(".json", "-seed" + seed + ".json"));
        Files.writeString(s, Files.readString(scenario).replace("\"seed\": 11", "\"seed\": " + seed));
        return s;
    }

    /**
     * Each node's lines of a run's output, stdout and stderr apart ("[n0] …" lines; the launcher's own are not), but
     * the line a server stopped at the run's end prints on its SIGTERM.
     */
    static java.util.SortedMap<String, List<String>> perNode(Out o) {
        java.util.SortedMap<String, List<String>> m = new java.util.TreeMap<>();
        for (String[] stream : new String[][] {{"out", o.stdout()}, {"err", o.stderr()}}) {
            for (String line : stream[1].split("\n")) {
                // what a server stopped at the run's end prints in answer to its SIGTERM comes after the run (redis
                // stamps it with the wall-clock second the signal came at): not part of what is compared
                if (line.startsWith("[n") && line.indexOf(']') > 0 && !line.contains("Received SIGTERM")) {
                    String node = line.substring(0, line.indexOf(']') + 1);
                    m.computeIfAbsent(node + " " + stream[0], k -> new ArrayList<>()).add(line);
                }
            }
        }
        return m;
    }

    /**
     * Windowed runs ({@code --window 1000}) of one scenario with its seed, {@code runs} times, each after
     * {@code fresh} (a server's directory emptied: the programs must find the same world): every run exits 0 and
     * shows {@code expect}, its recording carries the transferred bytes and replays identical through
     * {@code weft replay}, and every run's recording and per-node output are byte-identical to the first's.
     * Returns the first recording.
     */
    private byte[] windowed(Path scenario, int runs, Runnable fresh, String expect, String... transferred)
            throws Exception {
        byte[] first = null;
        java.util.SortedMap<String, List<String>> firstOut = null;
        for (int i = 0; i < runs; i++) {
            fresh.run();
            Path log = dir.resolve(scenario.getFileName() + "-windowed-" + i + ".weftlog");
            Out o = weft("--window", "1000", "--watchdog", "60", "--record", log.toString(), scenario.toString());
            assertEquals(0, o.exit(), o.stdout() + o.stderr());
            assertTrue(o.stdout().contains(expect), o.stdout() + o.stderr());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int rc = ReplayCommand.run(new String[] {log.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
            assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("replay identical: "),
                    out.toString(StandardCharsets.UTF_8));
            String text = Files.readString(log);
            for (String t : transferred) {
                String hex = HexFormat.of().formatHex(t.getBytes(StandardCharsets.UTF_8));
                assertTrue(text.contains(hex), () -> "the recording carries " + t + " (" + hex + ")");
            }
            byte[] bytes = Files.readAllBytes(log);
            java.util.SortedMap<String, List<String>> nodes = perNode(o);
            if (first == null) {
                first = bytes;
                firstOut = nodes;
            } else {
                byte[] a = first;
                int run = i;
                assertTrue(java.util.Arrays.equals(first, bytes), () -> "windowed run " + run
                        + " recorded other bytes than run 0: " + firstDifference(a, bytes));
                assertEquals(firstOut, nodes, "windowed run " + i + ": a node printed something else than in run 0");
            }
        }
        return first;
    }

    /** The first record two recordings disagree on, and the record before it. */
    static String firstDifference(byte[] a, byte[] b) {
        String[] x = new String(a, StandardCharsets.UTF_8).split("\n");
        String[] y = new String(b, StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "(none)";
            String q = i < y.length ? y[i] : "(none)";
            if (!p.equals(q)) {
                return "line " + (i + 1) + " after " + (i > 0 ? x[i - 1] : "(start)") + "\n  run 0: " + p
                        + "\n  this:  " + q;
            }
        }
        return "(same lines)";
    }

    /** Another seed's windowed run of the scenario: it ends well and records another run (other flight times). */
    private void anotherSeedDiffers(Path scenario, Runnable fresh, byte[] recorded, String expect) throws Exception {
        fresh.run();
        Path log = dir.resolve(scenario.getFileName() + "-seed12.weftlog");
        Out o = weft("--window", "1000", "--watchdog", "60", "--record", log.toString(), reseeded(scenario, 12).toString());
        assertEquals(0, o.exit(), o.stdout() + o.stderr());
        assertTrue(o.stdout().contains(expect), o.stdout() + o.stderr());
        assertTrue(!java.util.Arrays.equals(recorded, Files.readAllBytes(log)), "seed 12 recorded what seed 11 did");
    }

    /** Empties and recreates these directories (a server's working directory between runs). */
    static Runnable emptied(Path... dirs) {
        return () -> {
            try {
                for (Path d : dirs) {
                    if (Files.exists(d)) {
                        try (var walk = Files.walk(d)) {
                            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                        }
                    }
                    Files.createDirectories(d);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
    }

    /**
     * Windowed: curl against Python's http.server (a ThreadingHTTPServer: its main thread waits in
     * {@code selector.select(0.5)} while a handler thread answers), twice with one seed, gives byte-identical
     * recordings and outputs that replay identical; another seed records another run.
     */
    @Test
    void windowedCurlAgainstHttpServerIsAFunctionOfTheSeed() throws Exception {
        requires("curl");
        requires("python3");
        Path www = servedFolder();
        // older than the run, whenever the test starts (a file changed during the run shows the run's virtual time)
        Files.setLastModifiedTime(www.resolve("index.txt"), java.nio.file.attribute.FileTime.fromMillis(1_500_000_000_000L));
        Path s = scenario("curl-http-windowed",
                "cd " + www + " && exec python3 -m http.server --bind 127.0.0.1 8000",
                retrying("curl -s http://127.0.0.1:8000/index.txt"));
        byte[] rec = windowed(s, 2, () -> { }, "[n1] hello from http.server", "GET /index.txt HTTP/1.1",
                "hello from http.server\n");
        anotherSeedDiffers(s, () -> { }, rec, "[n1] hello from http.server");
    }

    /**
     * Windowed: socat with {@code fork} (a parent that accepts, a child per connection, both holding the sockets)
     * echoing through its own {@code PIPE}: the parent going back to accept and the child going to poll wait at
     * once (NodeCountOrderTest). With {@code EXEC:/bin/cat} the echo comes from a third process over a
     * socketpair, in real time: not a function of the seed (docs/shim.md, "Windowed runs: known gap").
     */
    @Test
    void windowedSocatForkIsAFunctionOfTheSeed() throws Exception {
        requires("socat");
        Path s = scenario("socat-fork-windowed",
                "exec socat TCP-LISTEN:7000,bind=127.0.0.1,fork,reuseaddr PIPE",
                retrying("echo echo-me | socat -t 2 - TCP:127.0.0.1:7000 2>/dev/null"));
        byte[] rec = windowed(s, 2, () -> { }, "[n1] echo-me", "echo-me\n");
        anotherSeedDiffers(s, () -> { }, rec, "[n1] echo-me");
    }

    /**
     * Windowed: redis-cli SET then GET on redis-server (an epoll loop with background threads, one of them jemalloc's,
     * made behind the shim's pthread_create: ForeignThreadClockTest).
     */
    @Test
    void windowedRedisCliOnRedisServerIsAFunctionOfTheSeed() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path data = dir.resolve("redis-windowed");
        Path s = scenario("redis-windowed",
                "exec redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --protected-mode no"
                        + " --dir " + data,
                retrying("redis-cli -h 127.0.0.1 SET greeting hello-redis 2>/dev/null | grep -q OK")
                        + "; redis-cli -h 127.0.0.1 GET greeting");
        byte[] rec = windowed(s, 2, emptied(data), "[n1] hello-redis", "SET", "hello-redis", "+OK\r\n");
        anotherSeedDiffers(s, emptied(data), rec, "[n1] hello-redis");
    }

    /**
     * Windowed: a redis-server replica's full resync from its primary (the primary forks a child for the RDB, which
     * writes it and exits), then the key read from the replica.
     */
    @Test
    void windowedRedisReplicaIsAFunctionOfTheSeed() throws Exception {
        requires("redis-server");
        requires("redis-cli");
        Path m = dir.resolve("w-primary");
        Path r = dir.resolve("w-replica");
        Path s = redisReplicaScenario("redis primary and replica, windowed", dir.resolve("replica-windowed.json"),
                m, r);
        byte[] rec = windowed(s, 2, emptied(m, r), "[n2] replica-has=hello-replica", "hello-replica", "PSYNC");
        anotherSeedDiffers(s, emptied(m, r), rec, "[n2] replica-has=hello-replica");
    }

    // ------------------------------------------------------------------ the deadlock verdict over TCP

    /** Two Python nodes connected to each other, each then blocked reading what the other never writes. */
    private Path standoff(String name) throws Exception {
        String server = pythonAccept(7400)
                + "print('accepted', flush=True)\n"
                + "print('server read', c.recv(100))\n";
        String client = pythonConnect(7400)
                + "print('connected', flush=True)\n"
                + "print('client read', s.recv(100))\n";
        Path s = dir.resolve(name + ".json");
        Files.writeString(s, pythonPair(name, server, client, "uniform:2000-10000", "\"events\": []"));
        return s;
    }

    /**
     * Every node blocked reading a stream that nothing will ever write to: the deadlock verdict (exit 4), the line
     * naming each node's read, in a plain run (the shim marks the read's TcpWait "forever") and in a windowed one
     * (every node idle in a wait no instant can answer); the recording keeps the verdict and replays identical.
     */
    @Test
    void twoNodesEachReadingFromTheOtherAreADeadlock() throws Exception {
        requires("python3");
        for (boolean windowed : new boolean[] {false, true}) {
            Path s = standoff(windowed ? "standoff-windowed" : "standoff");
            Path log = dir.resolve(s.getFileName() + ".weftlog");
            List<String> args = new ArrayList<>(List.of("--watchdog", "60", "--record", log.toString()));
            if (windowed) {
                args.addAll(0, List.of("--window", "1000"));
            }
            args.add(s.toString());
            long t0 = System.nanoTime();
            Out o = weft(args.toArray(String[]::new));
            assertEquals(4, o.exit(), (windowed ? "windowed: " : "plain: ") + o.stdout() + o.stderr());
            // both ends of one stream (its sid counts the client's refused connects before the server listened)
            assertTrue(java.util.regex.Pattern.compile("deadlock: node 0 waits in tcp_read \\(sid (\\d+)\\); node 1 waits in"
                    + " tcp_read \\(sid \\1\\)").matcher(o.stderr()).find(), o.stderr());
            assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "the verdict came before the watchdog");
            assertTrue(o.stdout().contains("[n0] accepted") && o.stdout().contains("[n1] connected"), o.stdout());
            ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
            assertTrue(r.identical(), () -> "diverged: " + r.divergence());
            assertTrue(Files.readString(log).contains("\"invariant\":\"deadlock\""), "the verdict is recorded");
        }
    }
}
