package dev.weft.app.view;

import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/** The keys overlay (? or F1; Esc or ? again closes it): every shortcut and mouse gesture on one card. */
final class KeysOverlay {

    /** Key, what it does; the same table as docs/workbench.md. */
    static final String[][] KEYS = {
        {"← / →  (Shift: ×10)", "step one op back / forward"},
        {"Home / End", "first / last op"},
        {"Ctrl+G", "go to op"},
        {"Space", "play / pause"},
        {"] / [", "next / previous violation"},
        {"W / S  or  + / −", "zoom in / out ×4 (1M ops to 200 in six presses)"},
        {"A / D  or  Ctrl+← / →", "pan left / right"},
        {"0", "fit the whole recording"},
        {"Z", "zoom to the selected range"},
        {"J", "jump from a send to its delivery and back"},
        {"X", "switch the x axis (op / virtual time)"},
        {"Ctrl+F, F3 / Shift+F3", "search (event text and payload), next / previous match"},
        {"Ctrl+B", "bookmark the cursor's op (with a note)"},
        {"Ctrl+Shift+C", "copy `weft replay FILE --until N`"},
        {"Esc", "leave a text field; clear the range and measurement"},
        {"? / F1", "this card"},
        {"drag on the ruler", "select a range (stats, zoom, filter, export)"},
        {"Shift+click a mark", "measure from the selected event to it"},
        {"wheel / drag", "zoom at the pointer / pan"},
        {"right-click", "copy event JSON or the replay command, bookmark, inspect"},
    };

    private KeysOverlay() { }

    static VBox create() {
        GridPane grid = new GridPane();
        grid.setHgap(18);
        grid.setVgap(3);
        for (int i = 0; i < KEYS.length; i++) {
            Label k = new Label(KEYS[i][0]);
            k.getStyleClass().add("key");
            grid.add(k, 0, i);
            grid.add(new Label(KEYS[i][1]), 1, i);
        }
        Label title = new Label("Keys — they work wherever the focus is, except inside text fields");
        title.getStyleClass().add("keys-title");
        VBox box = new VBox(10, title, grid, new Label("Esc or ? closes this card"));
        box.getStyleClass().add("keys-overlay");
        box.setId("keysOverlay");
        box.setMaxSize(VBox.USE_PREF_SIZE, VBox.USE_PREF_SIZE);
        box.setVisible(false);
        box.setOnMouseClicked(e -> box.setVisible(false));
        return box;
    }
}
