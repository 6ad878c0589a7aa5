package dev.weft.broker.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shim's C tag enums and {@link Wire} are two spellings of one protocol: C {@code REQ_TCP_BIND} is
 * {@code Wire.TCP_BIND}, C {@code REP_ERROR} is {@code Wire.ERROR}. Read from the C sources, so a tag changed on
 * one side only fails here instead of as a garbled frame in a cluster run.
 */
class WireTagsAgreeWithShimTest {
    private static final Pattern TAG = Pattern.compile("\\b(REQ|REP)_([A-Z0-9_]+)\\s*=\\s*(\\d+)");

    static Path shimSources() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path src = p.resolve("shim-native/src");
            if (Files.isDirectory(src)) {
                return src;
            }
        }
        return null;
    }

    /** "REQ_TCP_BIND" → 16, from every .c and .h of the shim. */
    static Map<String, Integer> cTags() throws IOException {
        Path src = shimSources();
        assertNotNull(src, "shim-native/src not found above " + Path.of("").toAbsolutePath());
        Map<String, Integer> tags = new TreeMap<>();
        try (Stream<Path> files = Files.list(src)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".c") || p.toString().endsWith(".h")).sorted()
                    .toList()) {
                Matcher m = TAG.matcher(Files.readString(f));
                while (m.find()) {
                    Integer old = tags.put(m.group(1) + "_" + m.group(2), Integer.parseInt(m.group(3)));
                    if (old != null) {
                        assertEquals(old, tags.get(m.group(1) + "_" + m.group(2)),
                                m.group(0) + " in " + f + " disagrees with another definition");
                    }
                }
            }
        }
        return tags;
    }

    @Test
    void everyShimTagHasTheSameValueInWire() throws Exception {
        Map<String, Integer> c = cTags();
        assertFalse(c.isEmpty(), "no REQ_/REP_ tags found in the shim's sources");
        for (Map.Entry<String, Integer> e : c.entrySet()) {
            String javaName = e.getKey().substring(4);
            Field f;
            try {
                f = Wire.class.getField(javaName);
            } catch (NoSuchFieldException ex) {
                throw new AssertionError("C " + e.getKey() + " = " + e.getValue() + " has no Wire." + javaName);
            }
            assertEquals(e.getValue().intValue(), f.getInt(null), "C " + e.getKey() + " vs Wire." + javaName);
        }
    }

    @Test
    void everyWireTagTheShimSpeaksIsDeclaredThere() throws Exception {
        Map<String, Integer> c = cTags();
        // the shim declares the TCP tags once it speaks TCP; until then only the v2 set is compared
        boolean shimSpeaksTcp = c.containsKey("REQ_TCP_BIND");
        for (String name : new String[] {"HELLO", "BIND", "SEND", "RECV", "FRONTIER", "GOODBYE"}) {
            assertEquals(Wire.class.getField(name).getInt(null), c.get("REQ_" + name), "REQ_" + name);
        }
        for (String name : new String[] {"ACK", "DELIVER", "EMPTY"}) {
            assertEquals(Wire.class.getField(name).getInt(null), c.get("REP_" + name), "REP_" + name);
        }
        if (!shimSpeaksTcp) {
            return;
        }
        for (Field f : Wire.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) {
                continue;
            }
            int v = f.getInt(null);
            String n = f.getName();
            if (n.startsWith("TCP_")) {
                assertEquals(v, c.get("REQ_" + n), "Wire." + n + " vs C REQ_" + n);
            }
        }
        for (String n : new String[] {"ERROR", "BOUND", "CONNECTED", "ACCEPTED", "WROTE", "DATA", "EOF", "READY",
                "UNWAIT_ACK", "STATUS"}) {
            assertEquals(Wire.class.getField(n).getInt(null), c.get("REP_" + n), "Wire." + n + " vs C REP_" + n);
        }
    }
}
