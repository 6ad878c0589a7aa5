package dev.weft.launcher.net;

import static dev.weft.launcher.net.TcpProgramsTest.pythonAccept;
import static dev.weft.launcher.net.TcpProgramsTest.pythonConnect;
import static dev.weft.launcher.net.TcpProgramsTest.pythonPair;
import static dev.weft.launcher.net.TcpProgramsTest.requires;
import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.ClusterRunTest.Out;
import dev.weft.launcher.run.NativeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Windowed runs (docs/shim.md, "Windowed runs", close): a fork child that leaves by {@code _exit} (redis-server's RDB
 * writer does) gives up its copies of the sockets it inherited, so its parent's later close of them is the last one
 * and goes to the broker as TcpClose, at the node's clock. Before, the child's copies stayed counted, the parent's
 * close sent nothing, and the socket was closed by its connection's end, which has no clock: a late op whenever
 * the broker had sealed past the node's clock by then (the Redis failover campaign, just after the heal). The
 * shim's trace shows each TcpClose ({@code tcp_close(FD at the node's clock)}).
 */
class WindowedChildExitTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    private static final String SERVER = pythonAccept(7000) + """
            import os
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
            d = c.recv(100)
            c.close(); l.close()
            print('server read', d.decode(), 'and closed both sockets')
            """;

    private static final String CLIENT = pythonConnect(7000) + """
            s.sendall(b'hi')
            print('client saw', 'EOF' if s.recv(100) == b'' else 'data')
            """;

    @Test
    void socketsAForkChildLeftBy_exitAreClosedByTcpCloseInTheParent() throws Exception {
        requires("python3");
        Path s = dir.resolve("child-exit.json");
        Files.writeString(s, pythonPair("child _exit", SERVER, CLIENT, "uniform:1000-5000",
                "\"end_when_exited\": [0, 1], \"events\": []"));
        Out o = weft("--window", "1000", "--watchdog", "120", "--trace", "--record", dir.resolve("r.weftlog").toString(),
                s.toString());
        assertEquals(0, o.exit(), o.stdout() + o.stderr());
        String all = o.stdout() + o.stderr();
        assertTrue(all.contains("[n0] server read hi and closed both sockets"), all);
        assertTrue(all.contains("[n1] client saw EOF"), all);
        long closes = all.lines().filter(l -> l.startsWith("[n0] ") && l.contains("trace tcp_close(")).count();
        assertEquals(2, closes, "the parent closes the accepted socket and the listener with TcpClose: " + all);
    }
}
