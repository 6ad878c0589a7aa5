package dev.weft.app.view;

import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.SummaryViewModel;
import eu.hansolo.tilesfx.Tile;
import eu.hansolo.tilesfx.TileBuilder;
import javafx.scene.layout.HBox;
import javafx.scene.paint.Color;

/** TilesFX summary: ops, sent / delivered / dropped, verification and digest, verdict. */
final class SummaryTiles {

    private final HBox root = new HBox(6);

    SummaryTiles(DocumentViewModel doc, SummaryViewModel vm) {
        root.getStyleClass().add("summary-tiles");
        root.getChildren().addAll(
                number("ops", vm.ops(), Color.web("#2563eb")),
                number("sent", vm.sent(), Color.web("#0891b2")),
                number("delivered", vm.delivered(), Color.web("#16a34a")),
                number("dropped", vm.dropped(), Color.web("#dc2626")),
                number("no receiver", vm.noReceiver(), Color.web("#ea7c0c")));
        Tile verification = text("verification", vm.verificationText(), doc.verification().ok() ? Color.web("#15803d") : Color.web("#b91c1c"));
        verification.setPrefWidth(260);
        Tile verdict = text("verdict", vm.verdict(), verdictColor(vm.verdict()));
        verdict.setId("verdictTile");
        Runnable update = () -> {
            verdict.setDescription(vm.verdict());
            verdict.setBackgroundColor(verdictColor(vm.verdict()));
            verdict.setText(doc.checkingProperty().get() ? "checking…" : doc.violations().size() + " violation(s)");
        };
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> update.run());
        doc.checkingProperty().addListener(o -> update.run());
        update.run();
        root.getChildren().addAll(verification, verdict);
    }

    private static Color verdictColor(String verdict) {
        return switch (verdict) {
            case "CLEAN" -> Color.web("#15803d");
            case "VIOLATED" -> Color.web("#c2410c");
            default -> Color.web("#b91c1c");
        };
    }

    private static Tile number(String title, long value, Color color) {
        return TileBuilder.create().skinType(Tile.SkinType.NUMBER).title(title).value(value).decimals(0)
                .animated(false).prefSize(118, 74).minSize(100, 60).backgroundColor(color)
                .titleColor(Color.WHITE).valueColor(Color.WHITE).build();
    }

    private static Tile text(String title, String description, Color color) {
        return TileBuilder.create().skinType(Tile.SkinType.TEXT).title(title).description(description)
                .animated(false).prefSize(170, 74).minSize(120, 60).backgroundColor(color)
                .titleColor(Color.WHITE).descriptionColor(Color.WHITE).textColor(Color.WHITE).textVisible(true).build();
    }

    HBox node() {
        return root;
    }
}
