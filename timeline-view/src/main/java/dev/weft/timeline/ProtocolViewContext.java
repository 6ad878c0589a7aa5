package dev.weft.timeline;

import dev.weft.protocol.ProtocolResult;
import javafx.beans.value.ObservableValue;

import java.util.function.IntFunction;

/**
 * What a protocol view is made from: the checker's result over the recording (its state over time in
 * {@link ProtocolResult#state()}), the reports the nodes sent, and the workbench's cursor, palette and names.
 *
 * @param nodeNames     the lane name of the node that reported under an identifier ("node 3"), or null
 * @param nodeAddresses the address it reported from, or null
 */
public record ProtocolViewContext(ProtocolResult result, ReportLog reports, ObservableValue<? extends Number> cursorOp,
                                  ObservableValue<TimelinePalette> palette, IntFunction<String> nodeNames,
                                  IntFunction<String> nodeAddresses) { }
