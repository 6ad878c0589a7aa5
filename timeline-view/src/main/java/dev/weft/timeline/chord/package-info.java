/**
 * Chord in the workbench, behind {@link dev.weft.timeline.ProtocolView}: {@link dev.weft.timeline.chord.ChordRingView}
 * draws the ring after the cursor op from the toolkit-free {@link dev.weft.timeline.chord.ChordRingState}, marking
 * what the engine's Chord checker finds broken; {@link dev.weft.timeline.chord.ChordView} registers it.
 */
package dev.weft.timeline.chord;
