package dev.weft.app.view;

import javafx.scene.control.Alert;
import javafx.stage.Window;

/** Help ▸ About (versions) and Help ▸ Documentation (where the docs are). */
final class About {

    private About() { }

    /** "Weft Workbench 0.1.0-SNAPSHOT · Java 17.0.x · JavaFX 21.0.x". */
    static String versions() {
        String weft = About.class.getPackage() == null || About.class.getPackage().getImplementationVersion() == null
                ? "0.1.0-SNAPSHOT" : About.class.getPackage().getImplementationVersion();
        return "Weft Workbench " + weft + " · weft-log v2 · Java " + System.getProperty("java.version")
                + " · JavaFX " + System.getProperty("javafx.runtime.version", "?");
    }

    static void show(Window owner) {
        Alert a = new Alert(Alert.AlertType.INFORMATION, versions());
        a.initOwner(owner);
        a.setTitle("About Weft Workbench");
        a.setHeaderText("Weft Workbench: a debugger for deterministic network recordings");
        a.show();
    }

    static void docs(Window owner) {
        Alert a = new Alert(Alert.AlertType.INFORMATION,
                "The workbench guide is docs/workbench.md in the Weft source tree; the command line is in README.md "
                        + "(weft --help lists every command). Press ? for the keys.");
        a.initOwner(owner);
        a.setTitle("Documentation");
        a.setHeaderText("Documentation");
        a.show();
    }
}
