package dev.weft.app.view;

import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.SummaryViewModel;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The summary tiles: ops, sent / delivered / dropped / no receiver, verification and digest, verdict. Plain
 * labels styled by CSS (title and sub-line at body-text size), so they stay readable at any window size.
 */
final class SummaryTiles {

    private final HBox root = new HBox(6);

    SummaryTiles(DocumentViewModel doc, SummaryViewModel vm) {
        root.getStyleClass().add("summary-tiles");
        root.getChildren().addAll(
                tile("ops", format(vm.ops()), "records in the recording", "tile-ops"),
                tile("sent", format(vm.sent()), "send events (any fate)", "tile-sent"),
                tile("delivered", format(vm.delivered()), "datagrams received", "tile-delivered"),
                // Red / amber only when there is something to see: a zero is neutral.
                tile("dropped", format(vm.dropped()), "sends the fault model dropped", vm.dropped() == 0 ? "tile-zero" : "tile-dropped"),
                tile("no receiver", format(vm.noReceiver()), "sends to an address nobody bound",
                        vm.noReceiver() == 0 ? "tile-zero" : "tile-noreceiver"));
        VBox verification = tile("verification", doc.verification().ok() ? "verified" : "FAILED", vm.verificationText(),
                doc.verification().ok() ? "tile-ok" : "tile-bad");
        verification.setId("verificationTile");
        VBox verdict = tile("verdict", vm.verdict(), "", "tile-verdict");
        verdict.setId("verdictTile");
        HBox.setHgrow(verdict, Priority.ALWAYS);
        verdict.setMaxWidth(Double.MAX_VALUE);
        Label value = (Label) verdict.getChildren().get(1);
        Label sub = (Label) verdict.getChildren().get(2);
        value.setId("verdictValue");
        sub.setId("verdictDetail");
        Runnable update = () -> {
            String word = vm.verdict();
            value.setText(word);
            verdict.getStyleClass().removeAll("tile-ok", "tile-bad", "tile-warn", "tile-discard");
            verdict.getStyleClass().add(switch (word) {
                case "CLEAN" -> "tile-ok";
                case "VIOLATED" -> "tile-warn";
                case "DISCARD" -> "tile-discard";
                default -> "tile-bad";
            });
            sub.setText(doc.checkingProperty().get() ? "checking…" : vm.verdictDetail());
            sub.setTooltip(new Tooltip(sub.getText()));
        };
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> update.run());
        // the history's findings arrive with the findings, not as violations
        doc.findings().addListener((javafx.collections.ListChangeListener<dev.weft.findings.Finding>) c -> update.run());
        doc.checkingProperty().addListener(o -> update.run());
        update.run();
        root.getChildren().addAll(verification, verdict);
    }

    private static String format(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }

    /** A tile: title (body size), value (large), sub-line (body size). */
    private static VBox tile(String title, String value, String subLine, String style) {
        Label t = new Label(title);
        t.getStyleClass().add("tile-title");
        Label v = new Label(value);
        v.getStyleClass().add("tile-value");
        Label s = new Label(subLine);
        s.getStyleClass().add("tile-sub");
        s.setTooltip(new Tooltip(subLine));
        // A narrow window cuts a long verdict or digest: its whole text on hover.
        dev.weft.app.widgets.TableChrome.tooltipWhenCut(t);
        dev.weft.app.widgets.TableChrome.tooltipWhenCut(v);
        VBox box = new VBox(1, t, v, s);
        box.getStyleClass().addAll("tile", style);
        box.setMinWidth(110);
        return box;
    }

    HBox node() {
        return root;
    }
}
