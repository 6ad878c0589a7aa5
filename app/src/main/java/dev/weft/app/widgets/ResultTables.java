package dev.weft.app.widgets;

import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.MouseButton;

/** The tool panels' sortable result tables: one row per result, a column per value of it. */
public final class ResultTables {

    private ResultTables() {
    }

    /**
     * Names the table (tests and styles find it by id), lets its columns share the width, and says what "empty" means.
     * Call {@link TableChrome#standard} once its columns are in.
     */
    public static void prepare(TableView<?> table, String id, String placeholder) {
        table.setId(id);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY);
        table.setPlaceholder(new Label(placeholder));
    }

    /**
     * A column showing {@code value} of each row, sorted by it: {@code width} wide when there is room, never narrower
     * than {@code minWidth} (so a short column keeps its header and value readable when space is shared).
     */
    public static <S, T> TableColumn<S, T> column(String name, double width, double minWidth, Function<S, T> value) {
        TableColumn<S, T> c = new TableColumn<>(name);
        c.setPrefWidth(width);
        c.setMinWidth(minWidth);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(value.apply(d.getValue())));
        return c;
    }

    /** A row that hands its result to {@code open} on a double-click (the panels open the result's recording). */
    public static <S> TableRow<S> rowOpeningOnDoubleClick(Consumer<S> open) {
        TableRow<S> row = new TableRow<>();
        row.setOnMouseClicked(e -> {
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2 && !row.isEmpty()) open.accept(row.getItem());
        });
        return row;
    }

    /** A wrapping label describing the table's selected row with {@code describe} (empty while none is selected). */
    public static <S> Label selectionDetails(TableView<S> table, String id, Function<S, String> describe) {
        Label details = new Label();
        details.setId(id);
        details.setWrapText(true);
        details.textProperty().bind(Bindings.createStringBinding(() -> {
            S selected = table.getSelectionModel().getSelectedItem();
            return selected == null ? "" : describe.apply(selected);
        }, table.getSelectionModel().selectedItemProperty()));
        return details;
    }
}
