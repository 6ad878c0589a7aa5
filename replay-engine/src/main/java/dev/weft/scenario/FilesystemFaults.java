package dev.weft.scenario;

/** A {@code filesystem} entry. enospcAfterBytes (u64) and tornWriteProbability may be null (absent). */
public record FilesystemFaults(boolean fsyncLies, Long enospcAfterBytes, Double tornWriteProbability) {
}
