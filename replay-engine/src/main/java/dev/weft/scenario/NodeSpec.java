package dev.weft.scenario;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One entry of {@code nodes}: the node id (u32), the program to run and its arguments, and (our extension, which
 * the reference's parser ignores as an unknown member) {@code env}: variables set for this node only.
 *
 * @param env the node's own variables, sorted by name; empty when the member is absent
 */
public record NodeSpec(long nodeId, String program, List<String> args, SortedMap<String, String> env) {
    public NodeSpec {
        args = List.copyOf(args);
        env = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(env));
    }

    public NodeSpec(long nodeId, String program, List<String> args) {
        this(nodeId, program, args, new TreeMap<>());
    }
}
