package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.net.SplitMix64;

/**
 * The seeded choices of one run, materialized before QEMU starts: the draws come from one SplitMix64 stream
 * seeded with the run's seed, in a fixed order (kill time, restart delay, payload salt), so the plan depends on
 * the seed and the scenario only. The guest agent receives it on the kernel command line ({@link #kernelArgs()}).
 */
public record ChoicePlan(long seed, Scenario scenario, int killAtMs, int restartAfterMs, long payloadSalt) {

    public static ChoicePlan draw(long seed, Scenario s) {
        SplitMix64 stream = new SplitMix64(seed);
        int killAt = s.killMinMs() + (int) Long.remainderUnsigned(stream.next(), s.killMaxMs() - s.killMinMs() + 1L);
        int restart = s.restartMinMs()
                + (int) Long.remainderUnsigned(stream.next(), s.restartMaxMs() - s.restartMinMs() + 1L);
        long salt = stream.next();
        return new ChoicePlan(seed, s, killAt, restart, salt);
    }

    /** The {@code sf.*} words the agent reads from /proc/cmdline (all unsigned decimal). */
    public String kernelArgs() {
        return "sf.seed=" + Long.toUnsignedString(seed) + " sf.req=" + scenario.requests() + " sf.pace="
                + scenario.paceMs() + " sf.kill=" + killAtMs + " sf.restart=" + restartAfterMs + " sf.salt="
                + Long.toUnsignedString(payloadSalt);
    }

    /** choice-plan.json's content (members in a fixed order). */
    public ObjectNode toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", "simferret-choice-plan/1");
        root.put("seed", Long.toUnsignedString(seed));
        root.put("stream", "SplitMix64(seed); draws in order: kill_at_ms, restart_after_ms, payload_salt");
        ObjectNode sc = root.putObject("scenario");
        int[] v = scenario.values();
        for (int i = 0; i < v.length; i++) {
            sc.put(Scenario.KEYS.get(i), v[i]);
        }
        ObjectNode choices = root.putObject("choices");
        choices.put("kill_target", "server");
        choices.put("kill_signal", 9);
        choices.put("kill_at_ms", killAtMs);
        choices.put("restart_after_ms", restartAfterMs);
        choices.put("payload_salt", Long.toUnsignedString(payloadSalt));
        root.put("kernel_args", kernelArgs());
        return root;
    }

    /** Reads a plan back and checks that it is exactly what its seed and scenario draw (a tampered plan is refused). */
    public static ChoicePlan fromJson(JsonNode root) {
        long seed = Long.parseUnsignedLong(root.path("seed").asText());
        int[] v = new int[Scenario.KEYS.size()];
        for (int i = 0; i < v.length; i++) {
            JsonNode n = root.path("scenario").path(Scenario.KEYS.get(i));
            if (!n.isInt()) {
                throw new IllegalArgumentException("scenario." + Scenario.KEYS.get(i) + " is missing or not a whole number");
            }
            v[i] = n.intValue();
        }
        ChoicePlan plan = draw(seed, Scenario.of(v));
        if (!plan.toJson().equals(root)) {
            throw new IllegalArgumentException("the plan is not what seed " + Long.toUnsignedString(seed)
                    + " and its scenario draw (edited?)");
        }
        return plan;
    }
}
