package dev.weft.vm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.qemu.MachineRun;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** From a machine run's console to its outcome: normalized events, assertions and the outcome digest. */
public final class RunEvaluator {

    private RunEvaluator() {
    }

    public static RunFiles.Outcome evaluate(byte[] console, ChoicePlan plan, MachineRun run) {
        List<ObjectNode> events = EventNormalizer.normalize(console);
        byte[] jsonl = EventNormalizer.toJsonl(events);
        List<RunAssertions.Assertion> assertions = RunAssertions.evaluate(events, plan, run.ending());
        byte[] assertionsJson = Json.pretty(RunAssertions.toJson(assertions)).getBytes(StandardCharsets.UTF_8);
        int holding = (int) assertions.stream().filter(RunAssertions.Assertion::ok).count();
        String digest = RunFiles.outcomeDigest(run.ending().word, jsonl, assertionsJson);
        return new RunFiles.Outcome(console, events, jsonl, assertionsJson, holding == assertions.size(),
                assertions.size(), holding, run.finalIcount(), digest);
    }

    /** "7 of 7 assertions hold" plus one line per assertion. */
    public static String summary(RunFiles.Outcome o) {
        StringBuilder sb = new StringBuilder();
        sb.append("assertions: ").append(o.assertionsHolding()).append(" of ").append(o.assertionCount()).append(" hold\n");
        try {
            for (RunAssertions.Assertion a : RunAssertions.fromJson(Json.MAPPER.readTree(o.assertionsJson()))) {
                sb.append("  ").append(a.ok() ? "ok  " : "FAIL").append(' ').append(a.name()).append(": ")
                        .append(a.detail()).append('\n');
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return sb.toString();
    }
}
