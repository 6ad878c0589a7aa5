package dev.weft.scenario;

import java.util.List;
import java.util.SortedMap;

/**
 * A parsed scenario (scenario-dsl.md §1). Absent optional members are null; {@code filesystem} and
 * {@code timeSkew} are null when absent and otherwise sorted by node id, so iterating them is
 * deterministic. After {@link Scenarios#load} the events are sorted by time (stable).
 *
 * @param seed u64, unsigned in a long
 */
public record Scenario(String name, String description, long seed, List<NodeSpec> nodes, NetworkSpec network,
                       SortedMap<Long, FilesystemFaults> filesystem, SortedMap<Long, Long> timeSkew,
                       List<ScenarioEvent> events) {

    public Scenario {
        nodes = List.copyOf(nodes);
        events = List.copyOf(events);
    }

    /** The same scenario with another event list (used to return the time-sorted events). */
    public Scenario withEvents(List<ScenarioEvent> sorted) {
        return new Scenario(name, description, seed, nodes, network, filesystem, timeSkew, sorted);
    }
}
