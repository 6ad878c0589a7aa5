package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChoicePlanTest {

    @Test
    void aSeedAlwaysDrawsTheSamePlanWithTheSameBytes() {
        ChoicePlan a = ChoicePlan.draw(42, Scenario.DEFAULT);
        ChoicePlan b = ChoicePlan.draw(42, Scenario.DEFAULT);
        assertEquals(a, b);
        assertEquals(Json.pretty(a.toJson()), Json.pretty(b.toJson()));
        // Pinned: the plan of seed 42 must not drift between versions (old run directories would stop replaying).
        assertEquals("sf.seed=42 sf.req=40 sf.pace=2 sf.kill=40 sf.restart=8 sf.salt=5139283748462763858", a.kernelArgs());
    }

    @Test
    void drawsStayInTheirWindowsAndSeedsSpreadOverThem() {
        Set<Integer> kills = new HashSet<>();
        for (long seed = 0; seed < 500; seed++) {
            ChoicePlan p = ChoicePlan.draw(seed, Scenario.DEFAULT);
            assertTrue(p.killAtMs() >= 15 && p.killAtMs() <= 45, "kill " + p.killAtMs());
            assertTrue(p.restartAfterMs() >= 5 && p.restartAfterMs() <= 20, "restart " + p.restartAfterMs());
            kills.add(p.killAtMs());
        }
        assertEquals(31, kills.size(), "500 seeds should hit every kill time of the 31 in the window");
        assertNotEquals(ChoicePlan.draw(1, Scenario.DEFAULT), ChoicePlan.draw(2, Scenario.DEFAULT));
    }

    @Test
    void unsignedSeedsRoundTripThroughJson() {
        ChoicePlan p = ChoicePlan.draw(-1L, new Scenario(5, 0, 3, 3, 0, 0));
        assertEquals(p, ChoicePlan.fromJson(p.toJson()));
        assertTrue(p.kernelArgs().startsWith("sf.seed=18446744073709551615 sf.req=5 sf.pace=0 sf.kill=3 sf.restart=0"));
    }

    @Test
    void anEditedPlanIsRejected() {
        ObjectNode json = ChoicePlan.draw(3, Scenario.DEFAULT).toJson();
        ((ObjectNode) json.get("choices")).put("kill_at_ms", 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChoicePlan.fromJson(json));
        assertTrue(e.getMessage().contains("not what seed 3"), e.getMessage());
    }
}
