package dev.weft.log;

/**
 * One record line of a weft-log: its op (0-based position), vt (broker high-water mark after the op,
 * ns), the event, and the integrity chain value through this record. {@code line} is the physical
 * line number in the file (1-based; the header is line 1), or 0 when the record was not read from a file.
 */
public record LogRecord(long op, long vt, Event event, long chain, long line) {
}
