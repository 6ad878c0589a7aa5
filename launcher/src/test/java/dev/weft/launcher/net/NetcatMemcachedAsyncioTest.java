package dev.weft.launcher.net;

import static dev.weft.launcher.net.ProgramScenario.sh;
import static dev.weft.launcher.net.TcpProgramsTest.requires;
import static dev.weft.launcher.net.TcpProgramsTest.retrying;
import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.ClusterRunTest.Out;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import dev.weft.text.Hex;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23's remaining unmodified programs as scenario clusters in plain runs (docs/tcp.md "Programs tried"): a
 * one-shot netcat-openbsd transfer, memcached with a client speaking its text protocol, and Python asyncio servers
 * with several clients. Each run ends by itself ({@code end_when_exited}); what the programs moved is checked twice:
 * in their own output, and in the recording, where the bytes each node read from each stream (its tcp_recv data, in
 * order) must be exactly the bytes sent. The recording must replay identical, with the recorded stream digest.
 * Windowed variants run twice with one seed and must give the same bytes (memcached's worker threads and asyncio's
 * several connects in one wait too, since windowed waits declare the node idle only when it is). Each test skips when its program is not installed (.ci/apt-packages.txt lists them).
 */
class NetcatMemcachedAsyncioTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    /** A scenario of one program per node ({@code [program, args…]}), ending once the listed nodes exited. */
    private Path scenario(String name, List<List<String>> nodes, String endWhenExited) throws Exception {
        return ProgramScenario.write(dir, name, nodes, endWhenExited);
    }

    /** Runs the scenario recorded; checks exit 0 and that the recording replays identical with its own digest. */
    private Out runAndReplay(Path scenario, Path log) throws Exception {
        Out o = weft("--watchdog", "60", "--record", log.toString(), scenario.toString());
        assertEquals(0, o.exit(), o.stdout() + o.stderr());
        assertReplaysWithItsDigest(log);
        assertTrue(Files.readString(log).contains("{\"k\":\"ext\",\"name\":\"tcp\",\"version\":1}"),
                "the log has TCP");
        return o;
    }

    /** {@code weft replay LOG} says identical, with the stream digest the recording itself has. */
    static void assertReplaysWithItsDigest(Path log) throws Exception {
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
        assertEquals(r.recordedDigest(), r.digest(), "the replayed stream digest is the recorded one");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ReplayCommand.run(new String[] {log.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc, said + err.toString(StandardCharsets.UTF_8));
        assertTrue(said.startsWith("replay identical: ") && said.contains("stream digest "
                + String.format("%016x", r.recordedDigest())), said);
    }

    /**
     * Runs the scenario windowed (protocol-v3 §2) twice with its one seed: each ends by itself and replays identical
     * with its recorded digest, and the two recordings are the same bytes. Returns the first run's output and log.
     */
    private Out runWindowedTwice(Path scenario, Path log) throws Exception {
        Out first = null;
        byte[] bytes = null;
        for (int i = 0; i < 2; i++) {
            Path l = i == 0 ? log : dir.resolve("again-" + log.getFileName());
            Out o = weft("--window", "1000", "--watchdog", "60", "--record", l.toString(), scenario.toString());
            assertEquals(0, o.exit(), o.stdout() + o.stderr());
            assertReplaysWithItsDigest(l);
            if (i == 0) {
                first = o;
                bytes = Files.readAllBytes(l);
            } else {
                assertArrayEquals(bytes, Files.readAllBytes(l), "two windowed runs of one seed differ");
            }
        }
        return first;
    }

    /** What each node read from each of its streams in the recording: node → (sid → bytes), non-peek reads in order. */
    static Map<Long, Map<Long, byte[]>> readsByNode(Path log) throws Exception {
        Map<Long, Long> nodeOfConn = new HashMap<>();
        Map<Long, Map<Long, ByteArrayOutputStream>> reads = new TreeMap<>();
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                Event e = rec.event();
                if (e instanceof Event.Hello h) nodeOfConn.putIfAbsent(h.conn(), h.node());
                if (e instanceof Event.TcpRecv rv && !rv.peek() && rv.outcome() instanceof TcpRecvOutcome.Data d) {
                    reads.computeIfAbsent(nodeOfConn.get(rv.conn()), k -> new TreeMap<>())
                            .computeIfAbsent(rv.sid(), k -> new ByteArrayOutputStream())
                            .writeBytes(Hex.decode(d.payload()));
                }
            }
        }
        Map<Long, Map<Long, byte[]>> out = new TreeMap<>();
        reads.forEach((node, bySid) -> {
            Map<Long, byte[]> m = new TreeMap<>();
            bySid.forEach((sid, b) -> m.put(sid, b.toByteArray()));
            out.put(node, m);
        });
        return out;
    }

    /** The texts one node read, one per stream in sid order. */
    private static List<String> textsReadBy(Map<Long, Map<Long, byte[]>> reads, long node) {
        List<String> t = new ArrayList<>();
        reads.getOrDefault(node, Map.of()).values().forEach(b -> t.add(new String(b, StandardCharsets.UTF_8)));
        return t;
    }

    /** 200 kB of every byte value (binary, and more than one read and one segment of nc's 16 KiB buffers). */
    private static byte[] payload() {
        byte[] b = new byte[200_000];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (i * 31 + (i >> 8) * 7);
        return b;
    }

    /**
     * {@code nc -l} on one node, {@code nc -N host port < file} on another. {@code -N} matters natively too:
     * netcat-openbsd without it (Debian's {@code -q} defaults to "wait forever") keeps the connection open after its
     * stdin's EOF, so neither side ever ends and only the watchdog stops the run.
     */
    private Path netcatScenario(Path file, Path received) throws Exception {
        Files.write(file, payload());
        return scenario("nc-transfer", List.of(
                sh("exec nc -l 127.0.0.1 9000 > " + received),
                sh(retrying("nc -N 127.0.0.1 9000 < " + file + " 2>/dev/null") + "; echo sent")), "0, 1");
    }

    private void assertNetcatTransfer(Out o, Path received, Path log) throws Exception {
        assertTrue(o.stdout().contains("[n1] sent"), o.stdout());
        assertArrayEquals(payload(), Files.readAllBytes(received), "the listener wrote exactly the bytes sent");
        Map<Long, Map<Long, byte[]>> reads = readsByNode(log);
        assertEquals(1, reads.get(0L).size(), "node 0 read one stream: " + reads.get(0L).keySet());
        assertArrayEquals(payload(), reads.get(0L).values().iterator().next(),
                "the recording holds every byte node 0 read");
    }

    @Test
    void netcatSendsAFileToAListeningNetcatExactly() throws Exception {
        requires("nc");
        Path received = dir.resolve("received.bin");
        Path log = dir.resolve("nc.weftlog");
        Out o = runAndReplay(netcatScenario(dir.resolve("payload.bin"), received), log);
        assertNetcatTransfer(o, received, log);
    }

    /** Windowed, nc polls its socket with stdin at EOF (docs/shim.md "TCP", windowed: a ready ordinary fd). */
    @Test
    void windowedNetcatTransferIsAFunctionOfTheSeed() throws Exception {
        requires("nc");
        Path received = dir.resolve("received.bin");
        Path log = dir.resolve("nc-windowed.weftlog");
        Path s = netcatScenario(dir.resolve("payload.bin"), received);
        Out o = runWindowedTwice(s, log);
        assertNetcatTransfer(o, received, log); // (the second run wrote the same file)
    }

    private static final String MEMCACHED_CLIENT = """
            import socket, time
            for i in range(2000):  # 100 s of retries: a loaded machine starts the server slowly
                try:
                    s = socket.create_connection(('127.0.0.1', 11211)); break
                except OSError: time.sleep(0.05)
            def ask(req, end=b'\\r\\n'):
                s.sendall(req)
                got = b''
                while not got.endswith(end):
                    d = s.recv(65536)
                    if not d: break
                    got += d
                return got
            big = bytes(ord('a') + i % 26 for i in range(100000))
            print(ask(b'set greeting 0 0 14\\r\\nhello-memcache\\r\\n').decode().strip())
            print(ask(b'get greeting\\r\\n', b'END\\r\\n').decode().split('\\r\\n')[1])
            print(ask(b'set n 0 0 2\\r\\n41\\r\\n').decode().strip())
            print('incr', ask(b'incr n 1\\r\\n').decode().strip())
            print(ask(b'set big 0 0 100000\\r\\n' + big + b'\\r\\n').decode().strip())
            print('big intact', ask(b'get big\\r\\n', b'END\\r\\n') == b'VALUE big 0 100000\\r\\n' + big + b'\\r\\nEND\\r\\n')
            """;

    /**
     * memcached and a Python client: set, get, incr, a 100 kB value. The node runs as root in its user namespace,
     * so memcached needs {@code -u root}; it then prints "failed to drop supplementary groups: Operation not
     * permitted" (the namespace denies setgroups) and serves on.
     */
    private Path memcachedScenario(String name) throws Exception {
        return scenario(name, List.of(sh("exec memcached -u root -l 127.0.0.1 -p 11211"),
                List.of("python3", "-c", MEMCACHED_CLIENT)), "1");
    }

    @Test
    void memcachedServesSetGetAndIncrToAPythonClient() throws Exception {
        requires("memcached");
        requires("python3");
        Path log = dir.resolve("memcached.weftlog");
        Out o = runAndReplay(memcachedScenario("memcached"), log);
        assertTrue(o.stdout().contains("[n1] STORED\n[n1] hello-memcache\n[n1] STORED\n[n1] incr 42\n[n1] STORED\n"
                + "[n1] big intact True\n"), o.stdout() + o.stderr());
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 100_000; i++) big.append((char) ('a' + i % 26));
        Map<Long, Map<Long, byte[]>> reads = readsByNode(log);
        assertEquals(List.of("set greeting 0 0 14\r\nhello-memcache\r\nget greeting\r\n"
                        + "set n 0 0 2\r\n41\r\nincr n 1\r\n"
                        + "set big 0 0 100000\r\n" + big + "\r\nget big\r\n"), textsReadBy(reads, 0),
                "memcached read exactly the client's requests");
        assertEquals(List.of("STORED\r\nVALUE greeting 0 14\r\nhello-memcache\r\nEND\r\nSTORED\r\n42\r\nSTORED\r\n"
                        + "VALUE big 0 100000\r\n" + big + "\r\nEND\r\n"), textsReadBy(reads, 1),
                "the client read exactly memcached's replies");
    }

    @Test
    void windowedMemcachedIsAFunctionOfTheSeed() throws Exception {
        requires("memcached");
        requires("python3");
        Out o = runWindowedTwice(memcachedScenario("memcached-windowed"), dir.resolve("memcached-windowed.weftlog"));
        assertTrue(o.stdout().contains("[n1] incr 42\n[n1] STORED\n[n1] big intact True\n"), o.stdout() + o.stderr());
    }

    private static final String HUB = """
            import asyncio
            names, writers, done = [], [], asyncio.Event()
            async def client(reader, writer):
                names.append((await reader.readline()).decode().strip()); writers.append(writer)
                if len(names) == 3:
                    msg = ('hub: ' + ','.join(sorted(names)) + '\\n').encode()
                    for w in writers:
                        w.write(msg); await w.drain(); w.close()
                    done.set()
            async def main():
                server = await asyncio.start_server(client, '127.0.0.1', 8765)
                async with server:
                    await done.wait()
                print('hub served', len(names))
            asyncio.run(main())
            """;

    private static final String HUB_CLIENT = """
            import asyncio, sys
            async def main(name):
                for i in range(2000):  # 100 s of retries: a loaded machine starts the server slowly
                    try:
                        r, w = await asyncio.open_connection('127.0.0.1', 8765); break
                    except OSError:
                        await asyncio.sleep(0.05)
                w.write((name + '\\n').encode()); await w.drain()
                print(name, 'got', (await r.readline()).decode().strip())
                w.close(); await w.wait_closed()
            asyncio.run(main(sys.argv[1]))
            """;

    /** An asyncio server (streams API: epoll, accept4, a socketpair self-pipe) with three client nodes. */
    private Path hubScenario(String name) throws Exception {
        return scenario(name, List.of(List.of("python3", "-c", HUB), List.of("python3", "-c", HUB_CLIENT, "c1"),
                List.of("python3", "-c", HUB_CLIENT, "c2"), List.of("python3", "-c", HUB_CLIENT, "c3")), "0, 1, 2, 3");
    }

    private void assertHub(Out o, Path log) throws Exception {
        assertTrue(o.stdout().contains("[n0] hub served 3"), o.stdout() + o.stderr());
        Map<Long, Map<Long, byte[]>> reads = readsByNode(log);
        List<String> heard = new ArrayList<>(textsReadBy(reads, 0));
        heard.sort(null);
        assertEquals(List.of("c1\n", "c2\n", "c3\n"), heard, "the hub read each client's line on its own stream");
        for (long c = 1; c <= 3; c++) {
            assertTrue(o.stdout().contains("[n" + c + "] c" + c + " got hub: c1,c2,c3"), o.stdout());
            assertEquals(List.of("hub: c1,c2,c3\n"), textsReadBy(reads, c), "client " + c + " read the hub's line");
        }
    }

    @Test
    void anAsyncioHubAnswersThreeAsyncioClientNodes() throws Exception {
        requires("python3");
        Path log = dir.resolve("asyncio-hub.weftlog");
        assertHub(runAndReplay(hubScenario("asyncio-hub"), log), log);
    }

    /**
     * Windowed: the hub's epoll_wait reports its three streams in fd order (docs/shim.md "TCP", windowed), not in the
     * real-time order their Readys reached the kernel; asyncio reads them in the order told, so that order is in
     * the recording.
     */
    @Test
    void windowedAsyncioHubIsAFunctionOfTheSeed() throws Exception {
        requires("python3");
        Path log = dir.resolve("asyncio-hub-windowed.weftlog");
        assertHub(runWindowedTwice(hubScenario("asyncio-hub-windowed"), log), log);
    }

    private static final String SOCK_HUB = """
            import asyncio, socket
            async def serve(loop, c, names, conns, done):
                data = b''
                while not data.endswith(b'\\n'):
                    data += await loop.sock_recv(c, 100)
                names.append(data.decode().strip()); conns.append(c)
                if len(names) == 3:
                    msg = ('hub: ' + ','.join(sorted(names)) + '\\n').encode()
                    for x in conns:
                        await loop.sock_sendall(x, msg); x.close()
                    done.set()
            async def main():
                loop = asyncio.get_running_loop()
                l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                l.bind(('127.0.0.1', 8765)); l.listen(8); l.setblocking(False)
                names, conns, done, tasks = [], [], asyncio.Event(), []
                for i in range(3):
                    c, _ = await loop.sock_accept(l)
                    tasks.append(asyncio.create_task(serve(loop, c, names, conns, done)))
                await done.wait()
                print('hub served', len(names))
            asyncio.run(main())
            """;

    private static final String SOCK_CLIENT = """
            import asyncio, socket
            async def one(loop, name):
                for i in range(2000):  # 100 s of retries: a loaded machine starts the server slowly
                    s = socket.socket(); s.setblocking(False)
                    try:
                        await loop.sock_connect(s, ('127.0.0.1', 8765)); break
                    except OSError:
                        s.close(); await asyncio.sleep(0.05)
                await loop.sock_sendall(s, (name + '\\n').encode())
                data = b''
                while not data.endswith(b'\\n'):
                    d = await loop.sock_recv(s, 100)
                    if not d: break
                    data += d
                s.close()
                return name + ' got ' + data.decode().strip()
            async def main():
                loop = asyncio.get_running_loop()
                for r in await asyncio.gather(*(one(loop, 'c%d' % i) for i in (1, 2, 3))):
                    print(r)
            asyncio.run(main())
            """;

    /**
     * asyncio's low-level socket API on both sides: {@code loop.sock_accept}/{@code sock_recv}/{@code sock_sendall}
     * on the server, and on the client three concurrent non-blocking {@code loop.sock_connect}s (connect in
     * progress, then the writer callback and {@code SO_ERROR}) in one process.
     */
    private Path sockScenario(String name) throws Exception {
        return scenario(name, List.of(List.of("python3", "-c", SOCK_HUB), List.of("python3", "-c", SOCK_CLIENT)),
                "0, 1");
    }

    @Test
    void asyncioSockApiServerAndThreeConcurrentConnectsInOneClient() throws Exception {
        requires("python3");
        Path log = dir.resolve("asyncio-sock.weftlog");
        Out o = runAndReplay(sockScenario("asyncio-sock"), log);
        assertTrue(o.stdout().contains("[n0] hub served 3"), o.stdout() + o.stderr());
        for (int c = 1; c <= 3; c++) {
            assertTrue(o.stdout().contains("[n1] c" + c + " got hub: c1,c2,c3"), o.stdout());
        }
        Map<Long, Map<Long, byte[]>> reads = readsByNode(log);
        List<String> heard = new ArrayList<>(textsReadBy(reads, 0));
        heard.sort(null);
        assertEquals(List.of("c1\n", "c2\n", "c3\n"), heard, "the hub read each client's line on its own stream");
        assertEquals(List.of("hub: c1,c2,c3\n", "hub: c1,c2,c3\n", "hub: c1,c2,c3\n"), textsReadBy(reads, 1),
                "the client read the hub's line on each of its three streams");
    }

    @Test
    void windowedAsyncioSockApiIsAFunctionOfTheSeed() throws Exception {
        requires("python3");
        Out o = runWindowedTwice(sockScenario("asyncio-sock-windowed"), dir.resolve("asyncio-sock-windowed.weftlog"));
        assertTrue(o.stdout().contains("[n0] hub served 3"), o.stdout() + o.stderr());
    }
}
