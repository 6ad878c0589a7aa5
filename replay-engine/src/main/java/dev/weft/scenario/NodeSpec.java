package dev.weft.scenario;

import java.util.List;

/** One entry of {@code nodes}: the node id (u32), the program to run and its arguments. */
public record NodeSpec(long nodeId, String program, List<String> args) {
    public NodeSpec {
        args = List.copyOf(args);
    }
}
