package dev.weft.app.widgets;

import java.io.File;
import java.util.Optional;
import javafx.scene.Node;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/** Open, save and folder dialogs shown over the window of a panel (none while the panel is not on screen). */
public final class FileDialogs {

    private FileDialogs() {
    }

    /** A file to open, or empty when the user cancels; {@code filters} narrow what is listed (none: every file). */
    public static Optional<File> open(Node over, String title, FileChooser.ExtensionFilter... filters) {
        return Optional.ofNullable(chooser(title, filters).showOpenDialog(windowOf(over)));
    }

    /** Where to write a file, or empty when the user cancels. */
    public static Optional<File> save(Node over, String title, FileChooser.ExtensionFilter... filters) {
        return Optional.ofNullable(chooser(title, filters).showSaveDialog(windowOf(over)));
    }

    /** A folder, or empty when the user cancels. */
    public static Optional<File> folder(Node over, String title) {
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle(title);
        return Optional.ofNullable(dc.showDialog(windowOf(over)));
    }

    private static FileChooser chooser(String title, FileChooser.ExtensionFilter... filters) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title);
        fc.getExtensionFilters().addAll(filters);
        return fc;
    }

    private static Window windowOf(Node n) {
        return n.getScene() == null ? null : n.getScene().getWindow();
    }
}
