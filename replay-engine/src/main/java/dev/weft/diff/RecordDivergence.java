package dev.weft.diff;

/**
 * The first place the recordings differ: for op alignment the op index; for vt alignment the virtual time and the
 * first op of that time on each side. {@code a}/{@code b} are the records there in canonical form (without the
 * integrity chain, which follows from the records before), or null where that side has no record.
 */
public record RecordDivergence(long opA, long opB, long vt, String a, String b) {
}
