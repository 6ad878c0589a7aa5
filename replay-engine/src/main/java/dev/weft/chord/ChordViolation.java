package dev.weft.chord;

/** One broken Chord invariant on a snapshot: its name (e.g. {@code AtLeastOneRing}) and what was observed. */
public record ChordViolation(String invariant, String detail) {
}
