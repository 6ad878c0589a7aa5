/**
 * Replaying a weft-log (core-and-replay.md §4), and the start of a tour of the engine.
 *
 * <p>The path of a recording: {@code dev.weft.log} reads and verifies its lines (over the byte-level JSON of
 * {@code dev.weft.json}); {@code ReplayLoop}, the one replay loop, steps each record through the broker
 * core of {@code dev.weft.core} ({@link dev.weft.replay.ReplayStepper}), compares the replayed event with the recorded
 * one and offers it to the invariants of {@code dev.weft.check}; {@link dev.weft.replay.Replayer} is what
 * {@code weft replay} drives, {@link dev.weft.replay.LogIndex} what the workbench drives (op offsets, checkpoints, the
 * plain {@link dev.weft.replay.GzipCache} of a gzip log). The network spec and the seeded fault model are in
 * {@code dev.weft.net}; the fuzzer in {@code dev.weft.fuzz}; the scenario DSL in {@code dev.weft.scenario}; the
 * protocol seam in {@code dev.weft.protocol} (each protocol checker in its own package behind it); exports in {@code dev.weft.export}, recording
 * comparison in {@code dev.weft.diff}; Rust-compatible texts in {@code dev.weft.text}; atomic files in
 * {@code dev.weft.io}. Everything here is pure Java: no JavaFX, no native code, the same answer on every OS.
 */
package dev.weft.replay;
