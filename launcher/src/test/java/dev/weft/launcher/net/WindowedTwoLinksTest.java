package dev.weft.launcher.net;

import static dev.weft.launcher.net.TcpProgramsTest.json;
import static dev.weft.launcher.net.TcpProgramsTest.requires;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Windowed runs (docs/design/protocol-v3.md §2a, "a Ready already handed out"): a single-threaded server whose one
 * wait watches several sockets, one of which has data already. The shim arms the sockets one after another; the
 * ready one is set aside and answered at once (its Ready follows its Ack), and the last one declares the node idle.
 * The broker used to believe that declaration and seal past the node's clock, though the wait returns at once on
 * the Ready; the TcpUnwait of the other sockets then came at a clock already sealed, and the run was discarded as a
 * late op — deterministically at the second round of this exchange, as with redis-server under a Sentinel's two links
 * (docs/case-studies/redis.md). The client opens two connections at once and pings on both, round after round, with
 * a timer between rounds; the server echoes. poll, select and epoll (Python's selectors) each arm the same way.
 */
class WindowedTwoLinksTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    private static final String SELECTOR = """
            import selectors, sys
            sel = {'poll': selectors.PollSelector, 'select': selectors.SelectSelector,
                   'epoll': selectors.EpollSelector}[sys.argv[1]]()
            """;

    private static final String SERVER = SELECTOR + """
            import socket
            l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            l.bind(('127.0.0.1', 7000)); l.listen(8); l.setblocking(False)
            sel.register(l, selectors.EVENT_READ)
            lines, ended = 0, 0
            while ended < 2:
                for key, ev in sel.select(0.1):
                    s = key.fileobj
                    if s is l:
                        c, _ = l.accept(); c.setblocking(False); sel.register(c, selectors.EVENT_READ)
                        continue
                    d = s.recv(4096)
                    if not d:
                        sel.unregister(s); s.close(); ended += 1
                        continue
                    lines += d.count(b'\\n')
                    s.sendall(d)
            print('server echoed', lines, 'lines')
            """;

    private static final String CLIENT = SELECTOR + """
            import socket, time
            for attempt in range(400):  # the server may listen later in virtual time: retry refused connects
                socks = [socket.socket(), socket.socket()]
                for s in socks:
                    s.setblocking(False); s.connect_ex(('127.0.0.1', 7000)); sel.register(s, selectors.EVENT_WRITE)
                done = 0
                while done < 2:
                    for key, ev in sel.select(1):
                        sel.unregister(key.fileobj); done += 1
                if all(s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0 for s in socks):
                    break
                for s in socks: s.close()
                time.sleep(0.05)
            for i, s in enumerate(socks):
                sel.register(s, selectors.EVENT_READ, i)
            got = [0, 0]
            for r in range(30):
                for i, s in enumerate(socks):
                    s.sendall(b'ping %d %d\\n' % (i, r))
                while sum(got) < 2 * (r + 1):
                    for key, ev in sel.select(0.01):
                        got[key.data] += key.fileobj.recv(4096).count(b'\\n')
                time.sleep(0.001)
            for s in socks: s.close()
            print('client got', got)
            """;

    @ParameterizedTest
    @ValueSource(strings = {"poll", "select", "epoll"})
    void aWaitOnSeveralSocketsOneReadyAlreadyIsAFunctionOfTheSeed(String waits) throws Exception {
        requires("python3");
        Path s = dir.resolve("two-links.json");
        Files.writeString(s, """
                {"name": "two links at once", "seed": 11,
                 "nodes": [{"node_id": 0, "program": "python3", "args": ["-c", %1$s, "%3$s"]},
                           {"node_id": 1, "program": "python3", "args": ["-c", %2$s, "%3$s"]}],
                 "network": {"latency": "uniform:1000-5000"},
                 "end_when_exited": [0, 1],
                 "events": []}
                """.formatted(json(SERVER), json(CLIENT), waits));
        WindowedTwice.record(s, dir.resolve(waits), 120, (o, log) -> {
            assertTrue(o.stdout().contains("[n0] server echoed 60 lines\n"), o.stdout() + o.stderr());
            assertTrue(o.stdout().contains("[n1] client got [30, 30]\n"), o.stdout() + o.stderr());
        });
    }
}
