package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.RunAssertions.Assertion;
import dev.weft.vm.qemu.MachineRun.Ending;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunAssertionsTest {

    private static final ChoicePlan PLAN = ChoicePlan.draw(5, new Scenario(3, 2, 10, 10, 5, 5));

    /** A complete run of 3 operations where the kill hits operation r0001 once. */
    private static String goodConsole() {
        return String.join("\n",
                "SF {\"p\":\"agent\",\"e\":\"boot\",\"seed\":5,\"req\":3,\"pace_ms\":2,\"kill_at_ms\":10,\"restart_after_ms\":5}",
                "SF {\"p\":\"server\",\"e\":\"listen\",\"gen\":1,\"port\":7000}",
                "SF {\"p\":\"agent\",\"e\":\"started\",\"target\":\"server\",\"gen\":1}",
                "SF {\"p\":\"client\",\"e\":\"req\",\"id\":\"r0000\",\"attempt\":1,\"payload\":\"aa\"}",
                "SF {\"p\":\"client\",\"e\":\"resp\",\"id\":\"r0000\",\"attempt\":1,\"echo_id\":\"r0000\",\"got\":\"aa\"}",
                "SF {\"p\":\"agent\",\"e\":\"kill\",\"target\":\"server\",\"gen\":1,\"signal\":9}",
                "SF {\"p\":\"agent\",\"e\":\"exit\",\"target\":\"server\",\"gen\":1,\"signal\":9}",
                "SF {\"p\":\"client\",\"e\":\"req\",\"id\":\"r0001\",\"attempt\":1,\"payload\":\"bb\"}",
                "SF {\"p\":\"client\",\"e\":\"error\",\"id\":\"r0001\",\"attempt\":1,\"err\":\"ECONNREFUSED\"}",
                "SF {\"p\":\"server\",\"e\":\"listen\",\"gen\":2,\"port\":7000}",
                "SF {\"p\":\"agent\",\"e\":\"restart\",\"target\":\"server\",\"gen\":2}",
                "SF {\"p\":\"client\",\"e\":\"req\",\"id\":\"r0001\",\"attempt\":2,\"payload\":\"bb\"}",
                "SF {\"p\":\"client\",\"e\":\"resp\",\"id\":\"r0001\",\"attempt\":2,\"echo_id\":\"r0001\",\"got\":\"bb\"}",
                "SF {\"p\":\"client\",\"e\":\"req\",\"id\":\"r0002\",\"attempt\":1,\"payload\":\"cc\"}",
                "SF {\"p\":\"client\",\"e\":\"resp\",\"id\":\"r0002\",\"attempt\":1,\"echo_id\":\"r0002\",\"got\":\"cc\"}",
                "SF {\"p\":\"client\",\"e\":\"done\",\"completed\":3}",
                "SF {\"p\":\"checker\",\"e\":\"verdict\",\"ok\":true,\"checked\":3,\"mismatches\":0}",
                "SF {\"p\":\"agent\",\"e\":\"end\"}") + "\n";
    }

    private static List<Assertion> judge(String console, Ending ending) {
        List<ObjectNode> events = EventNormalizer.normalize(console.getBytes(StandardCharsets.UTF_8));
        return RunAssertions.evaluate(events, PLAN, ending);
    }

    private static Assertion named(List<Assertion> all, String name) {
        return all.stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void aCompleteRunPassesEveryProperty() {
        assertEquals(10, PLAN.killAtMs());
        List<Assertion> all = judge(goodConsole(), Ending.POWERED_OFF);
        assertTrue(RunAssertions.allHold(all), all.toString());
        assertEquals("3 responses, each the echo of its own request", named(all, "every-response-matches-request").detail());
        assertEquals("2 response(s) after the restart (event 10); client completed 3 of 3",
                named(all, "progress-resumes-after-failure").detail());
    }

    @Test
    void aResponseCarryingAnotherPayloadFails() {
        List<Assertion> all = judge(goodConsole().replace("\"echo_id\":\"r0002\",\"got\":\"cc\"", "\"echo_id\":\"r0002\",\"got\":\"bb\""),
                Ending.POWERED_OFF);
        Assertion a = named(all, "every-response-matches-request");
        assertFalse(a.ok());
        assertEquals("1 of 3 responses do not match their request: r0002#1 (event 14)", a.detail());
    }

    @Test
    void aMissingKillFailsThePlannedFailureAndTheRequiredEvents() {
        String console = goodConsole().replaceAll("SF \\{\"p\":\"agent\",\"e\":\"kill\"[^\n]*\n", "");
        List<Assertion> all = judge(console, Ending.POWERED_OFF);
        assertFalse(named(all, "planned-failure-happened").ok());
        assertEquals("missing: agent/kill target=server", named(all, "required-events-present").detail());
    }

    @Test
    void noResponseAfterTheRestartFailsLiveness() {
        String console = goodConsole().replaceAll("SF \\{\"p\":\"client\",\"e\":\"resp\",\"id\":\"r000[12]\"[^\n]*\n", "")
                .replace("\"completed\":3", "\"completed\":1");
        Assertion a = named(judge(console, Ending.POWERED_OFF), "progress-resumes-after-failure");
        assertFalse(a.ok());
        assertEquals("0 response(s) after the restart (event 10); client completed 1 of 3", a.detail());
    }

    @Test
    void aGuestRunningAnotherPlanFails() {
        Assertion a = named(judge(goodConsole().replace("\"kill_at_ms\":10", "\"kill_at_ms\":11"), Ending.POWERED_OFF),
                "planned-failure-happened");
        assertFalse(a.ok());
        assertTrue(a.detail().startsWith("the guest ran a different plan"), a.detail());
    }

    @Test
    void aStalledMachineFailsEvenWithCompleteEvents() {
        List<Assertion> all = judge(goodConsole(), Ending.STALLED);
        assertFalse(RunAssertions.allHold(all));
        assertEquals("ending: stalled", named(all, "machine-ended-normally").detail());
    }
}
