/**
 * JavaFX controls for recordings, drawn immediate-mode on Canvas: {@link dev.weft.timeline.TimelineView} (lanes,
 * marks, arrows, ruler with range selection, overview; any log size through the model's pyramid) over a compact
 * {@link dev.weft.timeline.TimelineModel}, its {@link dev.weft.timeline.TimelineLegend}, and the case-study views
 * {@link dev.weft.timeline.ChordRingView} (with the toolkit-free {@link dev.weft.timeline.ChordRingState}) and
 * {@link dev.weft.timeline.RaftTermsView}, which mark what the engine's checkers find broken.
 */
package dev.weft.timeline;
