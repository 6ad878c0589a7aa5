package dev.weft.app.vm;

import dev.weft.app.source.PlanBeside;
import java.nio.file.Path;
import java.util.List;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The Plan tab (docs/workbench.md): the fault plan beside the recording, one row per deviation from the baseline —
 * kind, channel, sequence number, fate, and the ops where that datagram was sent and delivered — and the send ops as
 * the timeline's plan markers. The plan is read and placed in the background; choosing a row moves the cursor.
 */
public final class PlanViewModel {

    /** One deviation as the table shows it (fate: "dropped" or "after 12.4 µs"); op is where a choice jumps (the send, else the delivery; -1: neither). */
    public record Row(String kind, String channel, long chanSeq, String fate, String sentAt, String deliveredAt, long op) {
    }

    private final DocumentViewModel doc;
    private final Path file;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(this, "summary", "reading the plan…");
    private final ReadOnlyObjectWrapper<int[]> markers = new ReadOnlyObjectWrapper<>(this, "markers", new int[0]);

    private PlanViewModel(DocumentViewModel doc, Path file) {
        this.doc = doc;
        this.file = file;
    }

    /** The plan tab's model when a plan lies beside the recording (else null); it fills itself in the background. */
    public static PlanViewModel load(DocumentViewModel doc, TaskRunner runner) {
        Path file = PlanBeside.fileOf(doc.path());
        if (file == null) return null;
        PlanViewModel vm = new PlanViewModel(doc, file);
        Path log = doc.path();
        runner.background(() -> {
            PlanBeside.Placed placed;
            String problem = null;
            try {
                placed = PlanBeside.load(file, log);
            } catch (PlanBeside.Problem e) {
                placed = null;
                problem = e.getMessage();
            }
            PlanBeside.Placed done = placed;
            String why = problem;
            runner.ui(() -> vm.show(done, why));
        });
        return vm;
    }

    private void show(PlanBeside.Placed placed, String problem) {
        if (placed == null) {
            summary.set("✗ " + problem);
            return;
        }
        List<Row> shown = placed.deviations().stream().map(PlanViewModel::rowOf).toList();
        rows.setAll(shown);
        markers.set(shown.stream().mapToLong(Row::op).filter(op -> op >= 0).mapToInt(op -> (int) op).sorted().distinct().toArray());
        summary.set(summaryOf(placed));
    }

    static Row rowOf(PlanBeside.Deviation d) {
        String fate = d.dropped() ? "dropped"
                : "after " + Durations.ns(d.latencyNs());
        return new Row(d.dropped() ? "drop" : "delay", d.src() + " → " + d.dst(), d.chanSeq(), fate,
                d.sendOp() < 0 ? "not sent" : "op " + d.sendOp(),
                d.deliverOp() >= 0 ? "op " + d.deliverOp() : d.dropped() ? "—" : "not delivered",
                d.sendOp() >= 0 ? d.sendOp() : d.deliverOp());
    }

    /** "plan.json: 3 deviations from the baseline (2 drops, 1 delay) · baseline 1 µs, net latency=…". */
    static String summaryOf(PlanBeside.Placed p) {
        long drops = p.deviations().stream().filter(PlanBeside.Deviation::dropped).count();
        long delays = p.deviations().size() - drops;
        int n = p.deviations().size();
        String what = n == 0 ? "no deviations: every datagram at the baseline"
                : n + (n == 1 ? " deviation" : " deviations") + " from the baseline (" + drops + (drops == 1 ? " drop, " : " drops, ")
                + delays + (delays == 1 ? " delay)" : " delays)");
        return p.file().getFileName() + ": " + what + " · baseline " + Durations.ns(p.minLatencyNs()) + ", net " + p.net();
    }

    /** Moves the cursor to the row's op (its send, else its delivery); false when the recording has neither. */
    public boolean choose(Row row) {
        if (row == null || row.op() < 0) return false;
        doc.selectionProperty().set((int) row.op());
        return doc.goTo(row.op());
    }

    public Path file() { return file; }
    public ObservableList<Row> rows() { return rows; }
    public ReadOnlyStringProperty summaryProperty() { return summary.getReadOnlyProperty(); }
    /** The ops of the plan's deviations (sorted, distinct): the timeline's plan markers. */
    public ReadOnlyObjectProperty<int[]> markersProperty() { return markers.getReadOnlyProperty(); }

    /** Nanoseconds in the unit a reader takes in at a glance. */
    static final class Durations {
        private Durations() {
        }

        static String ns(long ns) {
            if (ns < 1_000) return ns + " ns";
            if (ns < 1_000_000) return trim(ns / 1e3) + " µs";
            if (ns < 1_000_000_000) return trim(ns / 1e6) + " ms";
            return trim(ns / 1e9) + " s";
        }

        private static String trim(double v) {
            String s = String.format(java.util.Locale.ROOT, "%.1f", v);
            return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
        }
    }
}
