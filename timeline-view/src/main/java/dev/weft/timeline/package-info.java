/**
 * JavaFX controls for recordings, drawn immediate-mode on Canvas: {@link dev.weft.timeline.TimelineView} (lanes,
 * marks, arrows, ruler with range selection, overview; any log size through the model's pyramid) over a compact
 * {@link dev.weft.timeline.TimelineModel}, and its {@link dev.weft.timeline.TimelineLegend}. The view side of the
 * protocol seam is here too: {@link dev.weft.timeline.ProtocolView} (a protocol's workbench view and its reading of a
 * state report), registered through {@code META-INF/services} and found by {@link dev.weft.timeline.ProtocolViews};
 * each protocol's views live in their own subpackage.
 */
package dev.weft.timeline;
