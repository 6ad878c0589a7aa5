package dev.weft.scenario;

/** The {@code action} of an event, tagged by member {@code type} in the JSON. */
public sealed interface ScenarioAction {

    /** The JSON {@code type} tag. */
    String type();

    record Crash(long nodeId) implements ScenarioAction {
        public String type() { return "crash"; }
    }

    record Start(long nodeId) implements ScenarioAction {
        public String type() { return "start"; }
    }

    /** spec is not validated (scenario-dsl.md §1). */
    record ActivatePartition(String spec) implements ScenarioAction {
        public String type() { return "activate_partition"; }
    }

    record ClearPartition() implements ScenarioAction {
        public String type() { return "clear_partition"; }
    }
}
