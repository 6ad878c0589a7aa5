package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.vm.Bookmarks;
import dev.weft.app.vm.DocumentViewModel;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

/** Bookmarks with their notes (Ctrl+B or right-click ▸ Bookmark… adds one); a click jumps there, Delete removes. */
final class BookmarksPane {

    private final BorderPane root = new BorderPane();

    BookmarksPane(DocumentViewModel doc, Bookmarks bookmarks) {
        Label header = new Label("bookmarks are kept in " + Bookmarks.sidecarOf(doc.path()).getFileName() + " beside the recording");
        header.getStyleClass().add("panel-header");
        TableView<Bookmarks.Bookmark> table = new TableView<>(bookmarks.items());
        table.setId("bookmarkTable");
        TableColumn<Bookmarks.Bookmark, Number> op = new TableColumn<>("op");
        op.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().op()));
        op.setPrefWidth(80);
        TableColumn<Bookmarks.Bookmark, String> note = new TableColumn<>("note");
        note.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().note()));
        note.setPrefWidth(400);
        table.getColumns().setAll(java.util.List.of(op, note));
        TableChrome.standard(table);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("no bookmarks: Ctrl+B bookmarks the cursor's op"));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) doc.goTo(b.op());
        });
        table.setOnKeyPressed(e -> {
            var b = table.getSelectionModel().getSelectedItem();
            if (b != null && (e.getCode() == javafx.scene.input.KeyCode.DELETE || e.getCode() == javafx.scene.input.KeyCode.BACK_SPACE)) {
                bookmarks.remove(b.op());
                e.consume();
            }
        });
        root.setTop(header);
        root.setCenter(table);
    }

    BorderPane node() {
        return root;
    }
}
