package dev.weft.app.source;

/** One invariant violation found by a check: which invariant, where, and its message. */
public record ViolationInfo(String invariant, long op, long vt, String message) {
}
