/**
 * The Chord checker and trace (invariants-and-checkers.md §4-5) behind the protocol seam
 * ({@link dev.weft.chord.ChordProtocol}): state reports decoded from {@code send} payloads
 * ({@link dev.weft.chord.ChordReport}), the latest snapshot of each node, the four ring invariants and the failure
 * assumption, {@code chord-check} and {@code chord-trace}, and {@link dev.weft.chord.ChordTimeline}, the ring pointers
 * after any op for the workbench.
 */
package dev.weft.chord;
