package dev.weft.launcher.net;

import static dev.weft.launcher.net.TcpProgramsTest.pythonAccept;
import static dev.weft.launcher.net.TcpProgramsTest.pythonConnect;
import static dev.weft.launcher.net.TcpProgramsTest.pythonPair;
import static dev.weft.launcher.net.TcpProgramsTest.requires;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Windowed scenario runs partition TCP streams as single-host runs do (docs/tcp.md, "Partitions stall";
 * docs/broker.md, "Windowed scenarios"): a line sent across a partition waits for the heal. The client sends "a" at
 * once, "b" 2 s later (inside the partition, 1 s to 4 s) and "c" at 5 s; the server prints how long after "a" each
 * line came, to the tenth of a second of virtual time. Before, a windowed run cut datagrams only and "b" came after
 * 2 s.
 */
class WindowedStreamPartitionTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    private static final String SERVER = pythonAccept(7000) + """
            import time
            data, first = b'', None
            while True:
                d = c.recv(100)
                if not d: break
                now = time.monotonic()
                first = now if first is None else first
                for ch in d.decode():
                    print('line %s after %.1f s' % (ch, now - first))
            """;

    private static final String CLIENT = pythonConnect(7000) + """
            t0 = time.monotonic()
            s.sendall(b'a')
            time.sleep(2 - (time.monotonic() - t0)); s.sendall(b'b')
            time.sleep(5 - (time.monotonic() - t0)); s.sendall(b'c')
            s.close()
            """;

    @Test
    void aSegmentSentAcrossAPartitionWaitsForTheHeal() throws Exception {
        requires("python3");
        Path s = dir.resolve("partition.json");
        Files.writeString(s, pythonPair("windowed stream partition", SERVER, CLIENT, "uniform:1000-5000", """
                "end_when_exited": [0, 1],
                 "events": [{"time_ns": 1000000000, "action": {"type": "activate_partition", "spec": "0|1"}},
                            {"time_ns": 4000000000, "action": {"type": "clear_partition"}}]"""));
        WindowedTwice.record(s, dir.resolve("partition"), 120, (o, log) -> {
            assertTrue(o.stdout().contains("[n0] line a after 0.0 s\n"), o.stdout() + o.stderr());
            assertTrue(o.stdout().contains("[n0] line b after 4.0 s\n"), "b waits for the heal at 4 s: "
                    + o.stdout() + o.stderr());
            assertTrue(o.stdout().contains("[n0] line c after 5.0 s\n"), o.stdout() + o.stderr());
            String text = Files.readString(log);
            assertTrue(text.contains("\"k\":\"tcp_partition\""), "the recording holds the partitions");
        });
    }
}
