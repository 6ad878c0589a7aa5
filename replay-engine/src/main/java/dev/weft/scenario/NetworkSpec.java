package dev.weft.scenario;

/**
 * The {@code network} object; every member may be null (absent). bandwidth is a u64 in a long.
 * The strings are kept verbatim; {@link ScenarioValidator} checks them.
 */
public record NetworkSpec(String latency, Double loss, Long bandwidth, String partitions) {
}
