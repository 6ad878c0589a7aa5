package dev.weft.timeline;

import javafx.scene.layout.Region;

/**
 * What a protocol brings to the workbench beside its engine side ({@link dev.weft.protocol.Protocol}): its picture of
 * the run and its reading of one state report. Implementations are registered in
 * {@code META-INF/services/dev.weft.timeline.ProtocolView} and reached through {@link ProtocolViews}.
 */
public interface ProtocolView {

    /** The name of the engine protocol this view shows ({@link dev.weft.protocol.Protocol#name()}). */
    String protocol();

    /** The title of the workbench tab that holds the view. */
    String title();

    /** A new view of one recording, following the context's cursor and palette. */
    Region create(ProtocolViewContext context);

    /** A state report's six fields in words, as this protocol reads them (the Inspector's line for a report). */
    String describeReport(int[] fields);
}
