/**
 * {@code weft fuzz} and {@code weft fuzz merge}: the command line, progress on stderr, and merging shards; the work
 * itself is the engine's {@code dev.weft.fuzz}.
 */
package dev.weft.launcher.fuzz;
