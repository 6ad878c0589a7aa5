package dev.weft.app.widgets;

import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;

/** The frame of a tool panel that shows results beside its inputs: controls across the top, two panes below. */
public final class PanelFrame {

    private PanelFrame() {
    }

    /** {@code left} and {@code right} side by side under {@code top}, the divider at {@code divider} of the width. */
    public static BorderPane of(String id, Node top, Node left, Node right, double divider) {
        SplitPane split = new SplitPane(left, right);
        split.setDividerPositions(divider);
        BorderPane root = new BorderPane();
        root.setId(id);
        root.setTop(top);
        root.setCenter(split);
        return root;
    }
}
