package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.qemu.MachineRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's properties, judged on the host from the normalized events (never from host timing):
 * the machine ended normally, the events are complete and well formed, every successful response matches its
 * request, the planned failure happened as planned, progress resumed after it, and the guest's checker agreed.
 * A run passes when all hold. Details are counts and ids only, so they are identical in a replay.
 */
public final class RunAssertions {

    /** One property's verdict. */
    public record Assertion(String name, boolean ok, String detail) {
    }

    /** The events every complete run has, as (program, event, field=value...) descriptions, in console order. */
    private static final List<String[]> REQUIRED = List.of(
            new String[] {"agent", "boot"},
            new String[] {"server", "listen", "gen", "1"},
            new String[] {"agent", "kill", "target", "server"},
            new String[] {"agent", "exit", "target", "server", "gen", "1"},
            new String[] {"server", "listen", "gen", "2"},
            new String[] {"agent", "restart", "target", "server"},
            new String[] {"client", "done"},
            new String[] {"checker", "verdict"},
            new String[] {"agent", "end"});

    private RunAssertions() {
    }

    public static List<Assertion> evaluate(List<ObjectNode> events, ChoicePlan plan, MachineRun.Ending ending) {
        List<Assertion> out = new ArrayList<>();
        out.add(new Assertion("machine-ended-normally", ending == MachineRun.Ending.POWERED_OFF, "ending: " + ending.word));
        long malformed = events.stream().filter(e -> is(e, "?", "malformed")).count();
        out.add(new Assertion("events-well-formed", malformed == 0, malformed + " malformed event line(s)"));
        out.add(requiredEvents(events));
        out.add(responsesMatchRequests(events));
        out.add(plannedFailure(events, plan));
        out.add(progressAfterFailure(events, plan));
        out.add(checkerVerdict(events, plan));
        return out;
    }

    public static boolean allHold(List<Assertion> assertions) {
        return assertions.stream().allMatch(Assertion::ok);
    }

    /** assertions.json's content. */
    public static ObjectNode toJson(List<Assertion> assertions) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("passed", allHold(assertions));
        ArrayNode list = root.putArray("assertions");
        for (Assertion a : assertions) {
            ObjectNode o = list.addObject();
            o.put("name", a.name());
            o.put("ok", a.ok());
            o.put("detail", a.detail());
        }
        return root;
    }

    /** Reads what {@link #toJson} writes (assertions.json): the verdicts in file order. */
    public static List<Assertion> fromJson(JsonNode root) {
        List<Assertion> out = new ArrayList<>();
        for (JsonNode a : root.path("assertions")) {
            out.add(new Assertion(a.path("name").asText(), a.path("ok").asBoolean(), a.path("detail").asText()));
        }
        return out;
    }

    private static Assertion requiredEvents(List<ObjectNode> events) {
        List<String> missing = new ArrayList<>();
        for (String[] want : REQUIRED) {
            if (events.stream().noneMatch(e -> matches(e, want))) {
                missing.add(describe(want));
            }
        }
        return new Assertion("required-events-present", missing.isEmpty(),
                missing.isEmpty() ? REQUIRED.size() + " required events present" : "missing: " + String.join(", ", missing));
    }

    private static Assertion responsesMatchRequests(List<ObjectNode> events) {
        Map<String, String> sent = new HashMap<>(); // "id#attempt" -> payload
        int checked = 0;
        List<String> bad = new ArrayList<>();
        for (ObjectNode e : events) {
            if (is(e, "client", "req")) {
                sent.put(e.path("id").asText() + "#" + e.path("attempt").asInt(), e.path("payload").asText());
            } else if (is(e, "client", "resp")) {
                checked++;
                String id = e.path("id").asText();
                String key = id + "#" + e.path("attempt").asInt();
                String payload = sent.get(key);
                if (payload == null || !id.equals(e.path("echo_id").asText()) || !payload.equals(e.path("got").asText())) {
                    bad.add(key + " (event " + e.path("n").asInt() + ")");
                }
            }
        }
        if (checked == 0) {
            return new Assertion("every-response-matches-request", false, "no responses at all");
        }
        return new Assertion("every-response-matches-request", bad.isEmpty(), bad.isEmpty()
                ? checked + " responses, each the echo of its own request"
                : bad.size() + " of " + checked + " responses do not match their request: " + first(bad));
    }

    private static Assertion plannedFailure(List<ObjectNode> events, ChoicePlan plan) {
        String name = "planned-failure-happened";
        ObjectNode boot = find(events, 0, "agent", "boot");
        if (boot == null) {
            return new Assertion(name, false, "no boot event: the plan the guest ran is unknown");
        }
        if (boot.path("kill_at_ms").asLong() != plan.killAtMs()
                || boot.path("restart_after_ms").asLong() != plan.restartAfterMs()
                || !boot.path("seed").asText().equals(Long.toUnsignedString(plan.seed()))) {
            return new Assertion(name, false, "the guest ran a different plan than choice-plan.json: " + Json.compact(boot));
        }
        int kill = indexOf(events, 0, "agent", "kill");
        if (kill < 0) {
            return new Assertion(name, false, "no kill event");
        }
        ObjectNode k = events.get(kill);
        if (!k.path("target").asText().equals("server") || k.path("signal").asInt() != 9) {
            return new Assertion(name, false, "the kill was not SIGKILL of the server: " + Json.compact(k));
        }
        for (int i = kill + 1; i < events.size(); i++) {
            ObjectNode e = events.get(i);
            if (is(e, "agent", "exit") && e.path("target").asText().equals("server") && e.path("gen").asInt() == 1) {
                boolean killed = e.path("signal").asInt() == 9;
                return new Assertion(name, killed, killed
                        ? "server (gen 1) killed by signal 9, " + plan.killAtMs() + " ms after the client started (event "
                                + k.path("n").asInt() + ")"
                        : "the server ended otherwise: " + Json.compact(e));
            }
        }
        return new Assertion(name, false, "kill sent (event " + k.path("n").asInt() + ") but the server's end was never seen");
    }

    private static Assertion progressAfterFailure(List<ObjectNode> events, ChoicePlan plan) {
        String name = "progress-resumes-after-failure";
        int restart = indexOf(events, 0, "agent", "restart");
        if (restart < 0) {
            return new Assertion(name, false, "the server was never restarted");
        }
        int after = 0;
        for (int i = restart + 1; i < events.size(); i++) {
            if (is(events.get(i), "client", "resp")) {
                after++;
            }
        }
        ObjectNode done = find(events, 0, "client", "done");
        int completed = done == null ? -1 : done.path("completed").asInt();
        boolean ok = after > 0 && completed == plan.scenario().requests();
        return new Assertion(name, ok, after + " response(s) after the restart (event " + events.get(restart).path("n").asInt()
                + "); client completed " + (completed < 0 ? "nothing (no done event)" : completed + " of " + plan.scenario().requests()));
    }

    private static Assertion checkerVerdict(List<ObjectNode> events, ChoicePlan plan) {
        ObjectNode v = find(events, 0, "checker", "verdict");
        if (v == null) {
            return new Assertion("guest-checker-agrees", false, "no checker verdict");
        }
        boolean ok = v.path("ok").asBoolean(false) && v.path("checked").asInt() == plan.scenario().requests();
        return new Assertion("guest-checker-agrees", ok,
                "checker: ok=" + v.path("ok").asBoolean(false) + ", checked " + v.path("checked").asInt() + ", mismatches "
                        + v.path("mismatches").asInt());
    }

    private static boolean is(JsonNode e, String program, String event) {
        return e.path("p").asText().equals(program) && e.path("e").asText().equals(event);
    }

    private static boolean matches(JsonNode e, String[] want) {
        if (!is(e, want[0], want[1])) {
            return false;
        }
        for (int i = 2; i + 1 < want.length; i += 2) {
            if (!e.path(want[i]).asText().equals(want[i + 1])) {
                return false;
            }
        }
        return true;
    }

    private static String describe(String[] want) {
        StringBuilder sb = new StringBuilder(want[0]).append('/').append(want[1]);
        for (int i = 2; i + 1 < want.length; i += 2) {
            sb.append(' ').append(want[i]).append('=').append(want[i + 1]);
        }
        return sb.toString();
    }

    private static int indexOf(List<ObjectNode> events, int from, String program, String event) {
        for (int i = from; i < events.size(); i++) {
            if (is(events.get(i), program, event)) {
                return i;
            }
        }
        return -1;
    }

    private static ObjectNode find(List<ObjectNode> events, int from, String program, String event) {
        int i = indexOf(events, from, program, event);
        return i < 0 ? null : events.get(i);
    }

    private static String first(List<String> items) {
        return items.size() <= 5 ? String.join(", ", items) : String.join(", ", items.subList(0, 5)) + ", ...";
    }
}
