package dev.weft.protocol;

/**
 * One protocol violation placed on an op, for the findings, the views and the exports.
 *
 * @param invariant the protocol's invariant name
 * @param op        the op it is placed at (for a checker of the final state: where it broke for good)
 * @param detail    the checker's own text
 */
public record PlacedViolation(String invariant, long op, String detail) { }
