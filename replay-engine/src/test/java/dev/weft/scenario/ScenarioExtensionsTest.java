package dev.weft.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Our two scenario members the reference's parser ignores as unknown: end_when_exited and a node's env. */
class ScenarioExtensionsTest {
    private static final String NODES = "\"nodes\":[{\"node_id\":0,\"program\":\"srv\",\"args\":[],"
            + "\"env\":{\"MODE\":\"server\",\"A\":\"1\"}},{\"node_id\":1,\"program\":\"cli\",\"args\":[]}]";

    @Test
    void bothMembersAreRead() throws Exception {
        Scenario s = Scenarios.load("{\"name\":\"t\",\"seed\":1,\"end_when_exited\":[1]," + NODES + "}");
        assertEquals(List.of(1L), s.endWhenExited());
        assertEquals(new TreeMap<>(Map.of("A", "1", "MODE", "server")), s.nodes().get(0).env());
        assertTrue(s.nodes().get(1).env().isEmpty());
        assertEquals(List.of("A", "MODE"), List.copyOf(s.nodes().get(0).env().keySet()), "sorted by name");
    }

    @Test
    void absentOrNullMembersAreNone() throws Exception {
        Scenario s = Scenarios.load("{\"name\":\"t\",\"seed\":1,\"end_when_exited\":null," + NODES.replace(
                "\"env\":{\"MODE\":\"server\",\"A\":\"1\"}", "\"env\":null") + "}");
        assertNull(s.endWhenExited());
        assertTrue(s.nodes().get(0).env().isEmpty());
    }

    @Test
    void badValuesAreLocatedErrors() {
        String bad = assertThrows(ScenarioException.class, () -> Scenarios.load(
                "{\"name\":\"t\",\"seed\":1,\"end_when_exited\":[\"x\"]," + NODES + "}")).getMessage();
        assertTrue(bad.contains("line 1"), bad);
        String badName = assertThrows(ScenarioException.class, () -> Scenarios.load("{\"name\":\"t\",\"seed\":1,"
                + NODES.replace("\"MODE\"", "\"MO=DE\"") + "}")).getMessage();
        assertTrue(badName.contains("invalid environment variable name \"MO=DE\""), badName);
    }
}
