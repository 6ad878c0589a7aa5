package dev.weft.app.view;

import dev.weft.app.vm.InspectorViewModel;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;
import org.fxmisc.flowless.VirtualizedScrollPane;
import org.fxmisc.richtext.CodeArea;

/** The selected record: canonical JSON, payload hex + ASCII side by side (RichTextFX) and decoded report. */
final class InspectorPane {

    private final BorderPane root = new BorderPane();

    InspectorPane(InspectorViewModel vm) {
        Label title = new Label();
        title.getStyleClass().add("panel-header");
        title.textProperty().bind(vm.titleProperty());
        title.setId("inspectorTitle");
        TextArea json = new TextArea();
        json.setEditable(false);
        json.setWrapText(true);
        json.getStyleClass().add("mono");
        json.setId("inspectorJson");
        json.textProperty().bind(vm.jsonProperty());
        CodeArea hex = new CodeArea();
        hex.setEditable(false);
        hex.getStyleClass().add("hex-dump");
        hex.setId("inspectorHex");
        vm.hexDumpProperty().addListener((o, a, b) -> fill(hex, b));
        fill(hex, vm.hexDumpProperty().get());
        Label decoded = new Label();
        decoded.getStyleClass().add("decoded-report");
        decoded.textProperty().bind(vm.decodedProperty());
        decoded.setWrapText(true);
        decoded.setId("inspectorDecoded");
        VBox payload = new VBox(4, new Label("payload (hex | ASCII)"), new VirtualizedScrollPane<>(hex), decoded);
        VBox.setVgrow(payload.getChildren().get(1), javafx.scene.layout.Priority.ALWAYS);
        SplitPane split = new SplitPane(new VBox(4, new Label("canonical JSON"), json), payload);
        VBox.setVgrow(json, javafx.scene.layout.Priority.ALWAYS);
        split.setOrientation(javafx.geometry.Orientation.VERTICAL);
        split.setDividerPositions(0.4);
        root.setTop(title);
        root.setCenter(split);
    }

    /** Sets the dump and greys the offsets and the ASCII gutter so the hex bytes stand out. */
    private static void fill(CodeArea area, String text) {
        area.replaceText(text == null ? "" : text);
        int pos = 0;
        for (String line : area.getText().split("\n", -1)) {
            if (line.length() > 6) area.setStyleClass(pos, pos + 4, "hex-offset");
            int bar = line.indexOf(" |");
            if (bar >= 0) area.setStyleClass(pos + bar + 1, pos + line.length(), "hex-ascii");
            pos += line.length() + 1;
        }
    }

    BorderPane node() {
        return root;
    }
}
