package dev.weft.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** `weft vm` reaches the SimFerret control plane and is listed in the help. */
class VmDispatchTest {

    @Test
    void weftVmIsDispatchedAndListed() {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code = WeftCli.run(new String[] {"vm", "--help"}, new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        assertEquals(0, code, e.toString(StandardCharsets.UTF_8));
        assertTrue(o.toString(StandardCharsets.UTF_8).startsWith("usage: weft vm record --seed N"));
        assertTrue(WeftCli.usage().contains("vm "), WeftCli.usage());
    }
}
