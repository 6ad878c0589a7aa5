package dev.weft.app.view;

import javafx.scene.control.Button;
import javafx.scene.control.Tooltip;

/** Toolbar buttons as every pane makes them: a tooltip, and no keyboard focus, so keys keep acting on the view. */
final class ToolButtons {

    private ToolButtons() { }

    static Button button(String text, String tip, Runnable action) {
        Button b = new Button(text);
        b.setTooltip(new Tooltip(tip));
        b.setOnAction(e -> action.run());
        b.setFocusTraversable(false);
        return b;
    }
}
