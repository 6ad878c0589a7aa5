package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A client shell loop that retries cmd (a refused connect) until it succeeds. */
    static String retrying(String cmd) {
        return "for i in $(seq 1 400); do " + cmd + " && break; sleep 0.05; done";
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
}
