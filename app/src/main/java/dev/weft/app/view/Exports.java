package dev.weft.app.view;

import dev.weft.timeline.PngWriter;
import dev.weft.export.PerfettoTrace;
import javafx.stage.FileChooser;
import javafx.stage.Window;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** File ▸ Export: the view as PNG, the selected range as CSV / JSON lines, the recording as a Perfetto trace. */
final class Exports {

    private Exports() { }

    static void png(Window owner, DocumentPane p) {
        Path out = ask(owner, p, "Export the view as PNG", "view.png", "PNG image", "*.png");
        if (out == null) return;
        try {
            PngWriter.write(p.node().getScene().getRoot().snapshot(null, null), out);
            p.document().messageProperty().set("wrote " + out);
        } catch (Exception e) {
            p.document().messageProperty().set("cannot write " + out + ": " + e.getMessage());
        }
    }

    static void range(Window owner, DocumentPane p, boolean csv) {
        if (p.range().rangeProperty().get() == null) {
            p.document().messageProperty().set("select a range first: drag along the timeline's ruler");
            return;
        }
        Path out = ask(owner, p, "Export the selected range", csv ? "range.csv" : "range.jsonl",
                csv ? "CSV" : "JSON lines", csv ? "*.csv" : "*.jsonl");
        if (out == null) return;
        background(p, "range", out, () -> {
            if (csv) p.range().exportCsv(out);
            else p.range().exportJsonLines(out);
        });
    }

    static void perfetto(Window owner, DocumentPane p) {
        Path out = ask(owner, p, "Export as a Perfetto trace", p.document().path().getFileName() + ".json", "Trace Event JSON", "*.json");
        if (out == null) return;
        Path log = p.document().path();
        background(p, "Perfetto trace", out, () -> {
            try (dev.weft.io.OutputFile o = dev.weft.io.OutputFile.open(out)) {
                PerfettoTrace.write(log, o.stream());
                o.commit();
            }
        });
    }

    interface Job {
        void run() throws Exception;
    }

    private static void background(DocumentPane p, String what, Path out, Job job) {
        p.document().messageProperty().set("writing " + what + " to " + out + "…");
        Thread t = new Thread(() -> {
            String result;
            try {
                job.run();
                result = "wrote " + out;
            } catch (Exception e) {
                result = "cannot write " + out + ": " + (e instanceof java.io.IOException io
                        ? dev.weft.text.OsErrorText.of(io) : e.getMessage());
            }
            String r = result;
            javafx.application.Platform.runLater(() -> p.document().messageProperty().set(r));
        }, "weft-export");
        t.setDaemon(true);
        t.start();
    }

    private static Path ask(Window owner, DocumentPane p, String title, String name, String kind, String glob) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title);
        fc.setInitialFileName(name);
        Path dir = p.document().path().toAbsolutePath().getParent();
        if (dir != null && Files.isDirectory(dir)) fc.setInitialDirectory(dir.toFile());
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter(kind, glob));
        File f = fc.showSaveDialog(owner);
        return f == null ? null : f.toPath();
    }
}
