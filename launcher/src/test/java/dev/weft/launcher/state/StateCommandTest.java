package dev.weft.launcher.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.testsupport.CapturedRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code weft state} on the spec's §12 vector, where the queue contents after each op are known by hand. */
class StateCommandTest {

    private CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    private String vector() throws Exception {
        return Path.of(getClass().getResource("/spec-12-seed3.weftlog").toURI()).toString();
    }

    @Test
    void afterTheThirdSendTheQueueHoldsThreeDatagramsInPopOrder() throws Exception {
        CapturedRun r = weft("state", vector(), "--at", "9");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("  vt 39327 ns, sent 4, dropped 0, next tie 3, pending 3\n"), r.out());
        assertTrue(r.out().contains("    conn 0: 3 datagram(s)\n"
                + "      deliv 11384ns tie 2  127.0.0.2:100 → 127.0.0.1:100  63\n"
                + "      deliv 21403ns tie 1  127.0.0.2:100 → 127.0.0.1:100  62\n"
                + "      deliv 39327ns tie 0  127.0.0.2:100 → 127.0.0.1:100  61\n"), r.out());
        assertTrue(r.out().contains("    127.0.0.2:100 → 127.0.0.1:999 : 1\n"), "a no_receiver send still counts");
    }

    @Test
    void disconnectRemovesTheQueueAndItsBindings() throws Exception {
        CapturedRun r = weft("state", vector(), "--at", "13", "--at", "14");
        String[] parts = r.out().split("state after op 14", 2);
        assertTrue(parts[0].contains("127.0.0.2:100 → conn 1"));
        assertTrue(!parts[1].contains("→ conn 1") && !parts[1].contains("conn 1:"), parts[1]);
    }

    @Test
    void outOfRangeOpIsAClearError() throws Exception {
        CapturedRun r = weft("state", vector(), "--at", "16");
        assertEquals(1, r.code());
        assertTrue(r.err().endsWith("op 16 is not in 0..15\n"), r.err());
    }

    /** Issue 28 item 9: a recording without ops says so, not "op 5 is not in 0..-1". */
    @Test
    void anOpOfARecordingWithoutOpsIsNamedAsSuch(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path log = dir.resolve("empty.weftlog");
        dev.weft.log.LogWriter.create(log, 1, "", 0, new dev.weft.log.LogMeta(null, "0.0.2", null, null)).close();
        CapturedRun r = weft("state", log.toString(), "--at", "5");
        assertEquals(1, r.code());
        assertTrue(r.err().endsWith(log + ": op 5 does not exist: the recording holds no ops\n"), r.err());
    }
}
