package dev.weft.launcher.net;

import static dev.weft.launcher.net.NetcatMemcachedAsyncioTest.readsByNode;
import static dev.weft.launcher.net.TcpProgramsTest.requires;
import static dev.weft.launcher.net.TcpProgramsTest.retrying;
import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.ClusterRunTest.Out;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs of docs/tcp.md "Programs tried" that nobody here wrote, beyond issue 23's list: a socat relay between two
 * socat servers, redis-benchmark, a Node.js HTTP server, a Perl server; windowed ({@code --window 1000}: two runs of
 * one seed give the same bytes) wget on http.server, the relay, redis-benchmark, Node.js and Perl. Scenario clusters ending by {@code end_when_exited}; what moved is
 * checked in the recording, which replays identical. Each test skips when its program is not installed.
 */
class TcpProgramsTriedTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    /** A scenario of one shell script per node. */
    private Path scenario(String name, List<String> shellNodes, String endWhenExited) throws Exception {
        return ProgramScenario.write(dir, name, shellNodes.stream().map(ProgramScenario::sh).toList(), endWhenExited);
    }

    private Out run(Path scenario, Path log, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of(extra));
        args.addAll(List.of("--watchdog", "60", "--record", log.toString(), scenario.toString()));
        Out o = weft(args.toArray(String[]::new));
        assertEquals(0, o.exit(), o.stdout() + o.stderr());
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
        return o;
    }

    private static List<String> texts(Map<Long, Map<Long, byte[]>> reads, long node) {
        List<String> t = new ArrayList<>();
        reads.getOrDefault(node, Map.of()).values().forEach(b -> t.add(new String(b, StandardCharsets.UTF_8)));
        return t;
    }

    /**
     * A line through a socat relay (node 1, a forked child per connection that connects on) to socat's echo. The
     * client retries until the echo comes back: the relay may be up before the echo server, and then its child's
     * connect is refused and the client's connection just ends.
     */
    @Test
    void aSocatRelayForwardsALineToAnEchoServerAndBack() throws Exception {
        requires("socat");
        Path log = dir.resolve("relay.weftlog");
        Out o = run(scenario("socat relay", List.of(
                "exec socat TCP-LISTEN:7000,bind=127.0.0.1,fork,reuseaddr EXEC:/bin/cat",
                "exec socat TCP-LISTEN:7001,bind=127.0.0.2,fork,reuseaddr TCP:127.0.0.1:7000",
                "for i in $(seq 1 400); do out=$(echo relayed-line | socat -t 2 - TCP:127.0.0.2:7001 2>/dev/null);"
                        + " [ \"$out\" = relayed-line ] && break; sleep 0.05; done; echo \"got $out\""), "2"), log);
        assertTrue(o.stdout().contains("[n2] got relayed-line"), o.stdout() + o.stderr());
        Map<Long, Map<Long, byte[]>> reads = readsByNode(log);
        assertEquals(List.of("relayed-line\n"), texts(reads, 0), "the echo server read the line once");
        List<String> relayed = texts(reads, 1);
        assertTrue(relayed.size() >= 2 && relayed.stream().allMatch(t -> t.equals("relayed-line\n")),
                "the relay read the line from the client and back from the echo server: " + relayed);
        assertTrue(texts(reads, 2).contains("relayed-line\n"), "the client read the echo");
    }

    /** redis-benchmark's 100 SETs and 100 GETs all reach redis-server; its rates are measured in virtual time. */
    @Test
    void redisBenchmarkRunsItsRequestsAgainstRedisServer() throws Exception {
        requires("redis-server");
        requires("redis-benchmark");
        requires("redis-cli");
        Path log = dir.resolve("bench.weftlog");
        Out o = run(scenario("redis-benchmark", List.of(
                "exec redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --protected-mode no --dir "
                        + dir,
                retrying("redis-cli -h 127.0.0.1 PING 2>/dev/null | grep -q PONG")
                        + "; redis-benchmark -h 127.0.0.1 -n 100 -c 2 -t set,get -q"), "1"), log);
        assertTrue(o.stdout().contains("SET: ") && o.stdout().contains("requests per second"), o.stdout());
        String served = String.join("", texts(readsByNode(log), 0));
        assertEquals(100, count(served, "*3\r\n$3\r\nSET\r\n"), "SETs redis-server read");
        assertEquals(100, count(served, "*2\r\n$3\r\nGET\r\n"), "GETs redis-server read (CONFIG GET aside)");
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + what.length())) n++;
        return n;
    }

    /** A Node.js HTTP server (libuv: epoll, accept4, an eventfd) answers curl. */
    @Test
    void curlFetchesFromANodeHttpServer() throws Exception {
        requires("node");
        requires("curl");
        Path log = dir.resolve("node.weftlog");
        Out o = run(scenario("node http", List.of(
                "exec node -e \"require('http').createServer((q, s) => s.end('hello from node ' + q.url + '\\\\n'))"
                        + ".listen(8080, '127.0.0.1')\"",
                retrying("curl -s http://127.0.0.1:8080/x")), "1"), log);
        assertTrue(o.stdout().contains("[n1] hello from node /x"), o.stdout() + o.stderr());
        assertTrue(String.join("", texts(readsByNode(log), 1)).endsWith("hello from node /x\n"), "curl read the body");
    }

    /** A Perl IO::Socket::INET server and nc: plain, and windowed twice with the same bytes. */
    @Test
    void aPerlServerAnswersNetcatPlainAndWindowed() throws Exception {
        requires("perl");
        requires("nc");
        Path s = scenario("perl", List.of(
                "exec perl -MIO::Socket::INET -e '$l = IO::Socket::INET->new(LocalAddr => \"127.0.0.1:7100\","
                        + " Listen => 5, ReuseAddr => 1) or die; $c = $l->accept; $x = <$c>; print $c \"perl got $x\";"
                        + " close $c'",
                retrying("echo hi-perl | nc -N 127.0.0.1 7100")), "0, 1");
        Out plain = run(s, dir.resolve("perl.weftlog"));
        assertTrue(plain.stdout().contains("[n1] perl got hi-perl"), plain.stdout() + plain.stderr());
        Path log = windowedTwice(s, "[n1] perl got hi-perl");
        assertEquals(List.of("perl got hi-perl\n"), texts(readsByNode(log), 1));
    }

    /**
     * Two windowed runs ({@code --window 1000}) of the scenario with its seed: each exits 0, prints {@code expect} and
     * replays identical, and the two recordings are byte-identical. Returns the first recording.
     */
    private Path windowedTwice(Path scenario, String expect) throws Exception {
        return WindowedTwice.record(scenario, dir.resolve(scenario.getFileName() + "-windowed"), 60,
                (o, log) -> assertTrue(o.stdout().contains(expect), o.stdout() + o.stderr()));
    }

    /** Windowed: wget against Python's threaded http.server (curl's windowed run is in TcpProgramsTest). */
    @Test
    void windowedWgetAgainstHttpServerIsAFunctionOfTheSeed() throws Exception {
        requires("wget");
        requires("python3");
        Path www = Files.createDirectories(dir.resolve("www"));
        Files.writeString(www.resolve("index.txt"), "hello from http.server\n");
        // older than the run: a file written just before it may read as modified in the run (its Last-Modified is
        // then the run's virtual now, docs/shim.md "stat"), and the two runs' replies differ
        Files.setLastModifiedTime(www.resolve("index.txt"), FileTime.fromMillis(1_500_000_000_000L));
        Path s = scenario("wget windowed", List.of(
                "cd " + www + " && exec python3 -m http.server --bind 127.0.0.1 8000",
                retrying("wget -q -O - http://127.0.0.1:8000/index.txt")), "1");
        Path log = windowedTwice(s, "[n1] hello from http.server");
        assertTrue(String.join("", texts(readsByNode(log), 1)).endsWith("hello from http.server\n"), "wget read the body");
    }

    /**
     * Windowed: the socat relay, whose forked child per connection connects on to the echo server. The echo is
     * socat's own {@code PIPE} here: with {@code EXEC:/bin/cat} cat's answer comes over a socketpair in real time
     * (docs/shim.md, "Windowed runs: known gap").
     */
    @Test
    void windowedSocatRelayIsAFunctionOfTheSeed() throws Exception {
        requires("socat");
        Path s = scenario("socat relay windowed", List.of(
                "exec socat TCP-LISTEN:7000,bind=127.0.0.1,fork,reuseaddr PIPE",
                "exec socat TCP-LISTEN:7001,bind=127.0.0.2,fork,reuseaddr TCP:127.0.0.1:7000",
                "for i in $(seq 1 400); do out=$(echo relayed-line | socat -t 2 - TCP:127.0.0.2:7001 2>/dev/null);"
                        + " [ \"$out\" = relayed-line ] && break; sleep 0.05; done; echo \"got $out\""), "2");
        Path log = windowedTwice(s, "[n2] got relayed-line");
        assertEquals(List.of("relayed-line\n"), texts(readsByNode(log), 0), "the echo server read the line once");
    }

    /** Windowed: redis-benchmark's 100 SETs and 100 GETs on redis-server (its rates are virtual time). */
    @Test
    void windowedRedisBenchmarkIsAFunctionOfTheSeed() throws Exception {
        requires("redis-server");
        requires("redis-benchmark");
        requires("redis-cli");
        Path s = scenario("redis-benchmark windowed", List.of(
                "exec redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --protected-mode no --dir "
                        + dir,
                retrying("redis-cli -h 127.0.0.1 PING 2>/dev/null | grep -q PONG")
                        + "; redis-benchmark -h 127.0.0.1 -n 100 -c 2 -t set,get -q"), "1");
        Path log = windowedTwice(s, "requests per second");
        String served = String.join("", texts(readsByNode(log), 0));
        assertEquals(100, count(served, "*3\r\n$3\r\nSET\r\n"), "SETs redis-server read");
        assertEquals(100, count(served, "*2\r\n$3\r\nGET\r\n"), "GETs redis-server read (CONFIG GET aside)");
    }

    /** Windowed: curl against a Node.js HTTP server (libuv's epoll loop; its worker threads stay idle here). */
    @Test
    void windowedCurlAgainstANodeHttpServerIsAFunctionOfTheSeed() throws Exception {
        requires("node");
        requires("curl");
        Path s = scenario("node http windowed", List.of(
                "exec node -e \"require('http').createServer((q, s) => s.end('hello from node ' + q.url + '\\\\n'))"
                        + ".listen(8080, '127.0.0.1')\"",
                retrying("curl -s http://127.0.0.1:8080/x")), "1");
        Path log = windowedTwice(s, "[n1] hello from node /x");
        assertTrue(String.join("", texts(readsByNode(log), 1)).endsWith("hello from node /x\n"), "curl read the body");
    }
}
