package dev.weft.raft;

/** ElectionSafety broken: a second distinct leader {@code second} for {@code term}, reported at {@code op}. */
public record RaftViolation(int term, int first, int second, long op) {
}
