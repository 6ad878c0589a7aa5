package dev.weft.protocol;

/**
 * One stretch of ops over which a protocol invariant was broken, transient ones included.
 *
 * @param fromOp the first op it was broken at
 * @param toOp   the last op it was broken at, or -1 when it is still broken at the end
 */
public record Episode(String invariant, long fromOp, long toOp) { }
