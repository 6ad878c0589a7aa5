package dev.weft.launcher.run;

import dev.weft.scenario.RustFloatText;
import dev.weft.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's {@code network} object as a net spec (docs/broker.md, "Scenario runs"): the text a scenario run puts in
 * its log header's {@code net}, and that a scenario campaign reports and a fault plan for it must name.
 */
public final class ScenarioNetSpec {

    private ScenarioNetSpec() {
    }

    /** The scenario's network object as a net spec; empty for a reliable network. */
    public static String of(Scenario s) {
        List<String> clauses = new ArrayList<>();
        if (s.network() != null) {
            if (s.network().latency() != null) {
                clauses.add("latency=" + s.network().latency().strip());
            }
            if (s.network().loss() != null) {
                clauses.add("loss=" + RustFloatText.display(s.network().loss()));
            }
            if (s.network().bandwidth() != null) {
                clauses.add("bw=" + Long.toUnsignedString(s.network().bandwidth()));
            }
            if (s.network().partitions() != null && !s.network().partitions().strip().isEmpty()) {
                clauses.add("partition=" + s.network().partitions().strip());
            }
        }
        return String.join(",", clauses);
    }
}
