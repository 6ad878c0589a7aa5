package dev.weft.scenario;

/**
 * A scenario that cannot be used. {@link #getMessage()} is exactly the Display text of
 * scenario-dsl.md §4 (for PARSE the parser wording is ours, with line and column).
 */
public final class ScenarioException extends Exception {

    public enum Kind { PARSE, INVALID_NODE_ID, INVALID_LATENCY, INVALID_LOSS_PROBABILITY, INVALID_BANDWIDTH, INVALID_PARTITION }

    private final Kind kind;

    ScenarioException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    static ScenarioException parse(String parserMessage) {
        return new ScenarioException(Kind.PARSE, "JSON parse error: " + parserMessage);
    }

    static ScenarioException invalidNodeId(long id, String reason) {
        return new ScenarioException(Kind.INVALID_NODE_ID, "Invalid node ID " + Long.toUnsignedString(id) + ": " + reason);
    }

    static ScenarioException invalidLatency(String trimmed, String reason) {
        return new ScenarioException(Kind.INVALID_LATENCY, "Invalid latency spec '" + trimmed + "': " + reason);
    }

    static ScenarioException invalidLossProbability(double value) {
        return new ScenarioException(Kind.INVALID_LOSS_PROBABILITY,
                "Invalid loss probability " + RustFloatText.display(value) + ": must be in [0.0, 1.0]");
    }

    static ScenarioException invalidBandwidth(long value) {
        return new ScenarioException(Kind.INVALID_BANDWIDTH, "Invalid bandwidth " + Long.toUnsignedString(value) + ": must be > 0");
    }

    static ScenarioException invalidPartition(String trimmed, String reason) {
        return new ScenarioException(Kind.INVALID_PARTITION, "Invalid partition spec '" + trimmed + "': " + reason);
    }
}
