package dev.weft.app.widgets;

import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Text;
import javafx.util.Callback;

/**
 * What every table of the workbench offers: columns that can be resized and chosen (the header's menu button lists
 * them with a tick each), and the whole text of any cell or label that is cut short, as its tooltip.
 */
public final class TableChrome {

    private TableChrome() {
    }

    /** Resizable, choosable columns and tooltips for cut cells; call once the columns are added. */
    public static <S> void standard(TableView<S> table) {
        table.setTableMenuButtonVisible(true);
        for (TableColumn<S, ?> c : table.getColumns()) showCutText(c);
    }

    /** The same for a tree-table (the Findings list): resizable, choosable columns and tooltips for cut cells. */
    public static <S> void standard(TreeTableView<S> table) {
        table.setTableMenuButtonVisible(true);
        for (TreeTableColumn<S, ?> c : table.getColumns()) showCutText(c);
    }

    private static <S, T> void showCutText(TreeTableColumn<S, T> column) {
        column.setResizable(true);
        Callback<TreeTableColumn<S, T>, TreeTableCell<S, T>> made = column.getCellFactory();
        column.setCellFactory(c -> {
            TreeTableCell<S, T> cell = made.call(c);
            tooltipWhenCut(cell);
            return cell;
        });
        for (TreeTableColumn<S, ?> sub : column.getColumns()) showCutText(sub);
    }

    private static <S, T> void showCutText(TableColumn<S, T> column) {
        column.setResizable(true);
        Callback<TableColumn<S, T>, TableCell<S, T>> made = column.getCellFactory();
        column.setCellFactory(c -> {
            TableCell<S, T> cell = made.call(c);
            tooltipWhenCut(cell);
            return cell;
        });
        for (TableColumn<S, ?> sub : column.getColumns()) showCutText(sub);
    }

    /**
     * Gives l a tooltip with its whole text while that text does not fit (decided when the pointer arrives, so
     * nothing is measured for rows nobody looks at).
     */
    public static void tooltipWhenCut(Labeled l) {
        Tooltip tip = new Tooltip();
        tip.setWrapText(true);
        tip.setMaxWidth(640);
        l.hoverProperty().addListener((o, was, now) -> {
            if (!now) return;
            boolean cut = isCut(l);
            if (cut) {
                tip.setText(l.getText());
                if (l.getTooltip() != tip) l.setTooltip(tip);
            } else if (l.getTooltip() == tip) {
                l.setTooltip(null);
            }
        });
    }

    /** Whether l shows less than its whole text: the text, measured in l's font, needs more room than l has. */
    public static boolean isCut(Labeled l) {
        String text = l.getText();
        if (text == null || text.isEmpty()) return false;
        double room = l.getWidth() - l.snappedLeftInset() - l.snappedRightInset();
        if (l.getGraphic() != null) room -= l.getGraphic().prefWidth(-1) + l.getGraphicTextGap();
        Text probe = new Text(text);
        probe.setFont(l.getFont());
        if (!l.isWrapText()) return text.indexOf('\n') >= 0 || probe.getLayoutBounds().getWidth() > room + 0.5;
        probe.setWrappingWidth(Math.max(1, room));
        return probe.getLayoutBounds().getHeight() > l.getHeight() - l.snappedTopInset() - l.snappedBottomInset() + 0.5;
    }
}
