package dev.weft.scenario;

import java.util.List;
import java.util.SortedMap;

/**
 * A parsed scenario (scenario-dsl.md §1). Absent optional members are null; {@code filesystem} and
 * {@code timeSkew} are null when absent and otherwise sorted by node id, so iterating them is
 * deterministic. After {@link Scenarios#load} the events are sorted by time (stable).
 *
 * @param seed u64, unsigned in a long
 * @param endWhenExited our extension {@code "end_when_exited": [node ids]} (the reference ignores unknown
 *                      members): the run ends once these nodes have exited; null when absent
 */
public record Scenario(String name, String description, long seed, List<NodeSpec> nodes, NetworkSpec network,
                       SortedMap<Long, FilesystemFaults> filesystem, SortedMap<Long, Long> timeSkew,
                       List<ScenarioEvent> events, List<Long> endWhenExited) {

    public Scenario {
        nodes = List.copyOf(nodes);
        events = List.copyOf(events);
        endWhenExited = endWhenExited == null ? null : List.copyOf(endWhenExited);
    }

    public Scenario(String name, String description, long seed, List<NodeSpec> nodes, NetworkSpec network,
            SortedMap<Long, FilesystemFaults> filesystem, SortedMap<Long, Long> timeSkew, List<ScenarioEvent> events) {
        this(name, description, seed, nodes, network, filesystem, timeSkew, events, null);
    }

    /** The same scenario with another event list (used to return the time-sorted events). */
    public Scenario withEvents(List<ScenarioEvent> sorted) {
        return new Scenario(name, description, seed, nodes, network, filesystem, timeSkew, sorted, endWhenExited);
    }
}
