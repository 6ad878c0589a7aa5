package dev.weft.scenario;

/** A timed fault: at absolute virtual time {@code timeNs} (u64) apply {@code action}. */
public record ScenarioEvent(long timeNs, ScenarioAction action) {
}
