package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.wire.Wire;
import dev.weft.testsupport.NativeBuild;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The broker↔shim wire numbers are written twice, in Java ({@link Wire}) and in C (the UDP and lease tags in
 * shim-native/src/hook_net.c, the TCP ones in tcp_wire.h); this test reads every C constant of the protocol and
 * compares it with the Java constant it stands for, so neither side can change a number alone.
 */
class WireConstantsTest {
    /** C name → the Java field of {@link Wire} it must equal (C prefixes say which direction or field). */
    private static String javaName(String c) {
        if (c.startsWith("REQ_") || c.startsWith("REP_")) {
            return c.substring(4);
        }
        if (c.startsWith("TCPW_WAIT_")) {
            return c.substring("TCPW_".length());
        }
        if (c.startsWith("TCPW_")) {
            return "POLL" + c.substring("TCPW_".length());
        }
        if (c.startsWith("TCPS_")) {
            return "STATE_" + c.substring("TCPS_".length());
        }
        return c; // LEASE_NONBLOCKING and friends keep their names
    }

    /** Every {@code NAME = number} of the protocol's enums in one C file (hex or decimal). */
    private static Map<String, Integer> constants(String file) throws Exception {
        String text = Files.readString(NativeBuild.root().resolve("shim-native/src/" + file));
        Matcher m = Pattern.compile("\\b((?:REQ|REP|LEASE|TCPW|TCPS)_[A-Z_]+) = (0x[0-9a-fA-F]+|\\d+)").matcher(text);
        Map<String, Integer> found = new TreeMap<>();
        while (m.find()) {
            found.put(m.group(1), Integer.decode(m.group(2)));
        }
        return found;
    }

    private static int check(String file) throws Exception {
        Map<String, Integer> c = constants(file);
        for (Map.Entry<String, Integer> e : c.entrySet()) {
            String java = javaName(e.getKey());
            int expected = Wire.class.getField(java).getInt(null);
            assertEquals(expected, e.getValue(), file + ": " + e.getKey() + " is not Wire." + java);
        }
        return c.size();
    }

    @Test
    void theUdpAndLeaseTagsOfHookNetAreTheBrokers() throws Exception {
        // 6 requests and the lease, Ack/Deliver/Empty and Leased, 3 lease modes
        assertEquals(14, check("hook_net.c"));
        String text = Files.readString(NativeBuild.root().resolve("shim-native/src/hook_net.c"));
        assertTrue(text.contains("#define FRAME_MAX " + Wire.MAX_FRAME + "u"), "FRAME_MAX is Wire.MAX_FRAME");
    }

    @Test
    void theTcpTagsBitsAndStatesOfTcpWireAreTheBrokers() throws Exception {
        // 13 requests, 12 replies, 5 readiness bits, 3 wait flags, 7 states
        assertEquals(40, check("tcp_wire.h"));
    }
}
