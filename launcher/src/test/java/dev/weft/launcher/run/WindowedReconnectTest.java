package dev.weft.launcher.run;

import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A windowed run with a node that is not listed in {@code --end-when-exited} and has no socket open for a while: it
 * closes its only socket, sleeps, and opens another (a client that reconnects). Its process still runs, so it holds
 * the frontier at its clock (docs/broker.md, "The windowed frontier"); before, the broker took it for gone, the
 * listed receiver's timeouts went past its clock, and its next hello discarded the run as a late op.
 */
class WindowedReconnectTest {
    /** Node 0 sends twice, each time from a new socket, a second apart; node 1 (listed) counts its timeouts. */
    static final String SCRIPT = """
            import os, socket, struct, time
            if os.environ["WEFT_NODE_ID"] == "1":
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.bind(("127.0.0.2", 5000))
                # SO_RCVTIMEO, not settimeout: windowed, poll never sees a datagram (docs/shim.md)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", 0, 200000))
                got, timeouts = [], 0
                while len(got) < 2 and timeouts < 50:
                    try:
                        got.append(s.recvfrom(100)[0].decode())
                    except BlockingIOError:
                        timeouts += 1
                print("got", got, "timeouts", timeouts, flush=True)
            else:
                time.sleep(0.5)
                for i in range(2):
                    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                    s.sendto(b"hello %d" % i, ("127.0.0.2", 5000))
                    s.close()
                    if i == 0:
                        time.sleep(1)  # no socket open now, the process runs on
            """;

    @TempDir
    Path dir;

    private ClusterRunTest.Out run(Path log) {
        return weft("--seed", "3", "--net", "latency=uniform:2000-10000", "--window", "1000", "--nodes", "2",
                "--end-when-exited", "1", "--watchdog", "30", "--record", log.toString(), "--",
                "python3", "-c", SCRIPT);
    }

    @Test
    void aNodeBetweenTwoSocketsDoesNotDiscardTheRunAndRecordsTheSameBytesTwice() throws Exception {
        RealProgramsTest.assumeInstalled("python3");
        Path first = dir.resolve("a.weftlog");
        Path second = dir.resolve("b.weftlog");
        ClusterRunTest.Out a = run(first);
        assertEquals(0, a.exit(), a.stderr()); // before: 3, "node 0 hello at local_vt … was sealed (late op)"
        assertTrue(a.stdout().contains("[n1] got ['hello 0', 'hello 1'] timeouts "), a.stdout());
        ClusterRunTest.Out b = run(second);
        assertEquals(0, b.exit(), b.stderr());
        assertEquals(a.stdout().lines().sorted().toList(), b.stdout().lines().sorted().toList());
        assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second), "two runs of one seed, one recording");
        assertTrue(ClusterRunTest.replaysIdentically(first).sawEnd(), "the log has its end record");
    }
}
