/** Reusable JavaFX controls for recordings: the timeline, the Chord ring and the Raft terms views. */
package dev.weft.timeline;
