package dev.weft.diff;

/**
 * One recording's totals. {@code violations} counts what the fifo and dup invariants report over the recording
 * (as {@code weft replay --check fifo,dup} does) plus violation records written into the log itself.
 */
public record SideSummary(long ops, long deliveries, long drops, long violations) {
}
