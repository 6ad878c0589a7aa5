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
 * datagrams (kind drop or delay: channel, sequence number, fate, and the ops where it was sent and delivered), TCP
 * segments (kind tcp: direction, index in it, lost attempts and latency) and timed events (kind event: what, when,
 * and the first op at or after it) — and the datagrams' send ops and the events' ops as the timeline's plan markers.
 * The plan is read and placed in the background; choosing a row moves the cursor.
 */
public final class PlanViewModel {

    /**
     * One deviation as the table shows it: kind (drop, delay, tcp, event), channel (src → dst, or what an event does),
     * seq (the datagram's chan_seq, the segment's index, "" for an event), fate ("dropped", "after 12.4 µs", "2 lost,
     * then after 3 µs", "at 5 ms"), sentAt and deliveredAt (the ops shown); op is where a choice jumps (the send,
     * else the delivery, or the event's op; -1: none); tip is the whole row in words.
     */
    public record Row(String kind, String channel, String seq, String fate, String sentAt, String deliveredAt, long op,
                      String tip) {
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
        List<Row> shown = new java.util.ArrayList<>(placed.deviations().stream().map(PlanViewModel::rowOf).toList());
        placed.segments().forEach(s -> shown.add(rowOf(s)));
        placed.events().forEach(e -> shown.add(rowOf(e)));
        rows.setAll(shown);
        markers.set(shown.stream().mapToLong(Row::op).filter(op -> op >= 0).mapToInt(op -> (int) op).sorted().distinct().toArray());
        summary.set(summaryOf(placed));
    }

    static Row rowOf(PlanBeside.Deviation d) {
        String fate = d.dropped() ? "dropped"
                : "after " + Durations.ns(d.latencyNs());
        String kind = d.dropped() ? "drop" : "delay";
        String channel = d.src() + " → " + d.dst();
        String seq = Long.toUnsignedString(d.chanSeq());
        String sent = d.sendOp() < 0 ? "not sent" : "op " + d.sendOp();
        String delivered = d.deliverOp() >= 0 ? "op " + d.deliverOp() : d.dropped() ? "—" : "not delivered";
        return new Row(kind, channel, seq, fate, sent, delivered, d.sendOp() >= 0 ? d.sendOp() : d.deliverOp(),
                kind + " " + channel + " #" + seq + ": " + fate + "; sent at " + sent + ", delivered at " + delivered);
    }

    /** A segment's row: not placed on an op (its records show its delivery, not which segment of the plan it was). */
    static Row rowOf(PlanBeside.Segment s) {
        String after = "after " + Durations.ns(s.latencyNs());
        String fate = s.lostAttempts() == 0 ? after
                : s.lostAttempts() + " lost, then " + after;
        String channel = s.from() + " → " + s.to();
        String seq = Long.toUnsignedString(s.index());
        return new Row("tcp", channel, seq, fate, "—", "—", -1,
                "TCP segment " + seq + " of " + channel + (seq.equals("0") ? " (the handshake)" : "") + ": " + fate);
    }

    static Row rowOf(PlanBeside.TimedEvent e) {
        String fate = "at " + Durations.ns(e.timeNs());
        String at = e.op() >= 0 ? "op " + e.op() : "not reached";
        return new Row("event", e.what(), "", fate, at, "—", e.op(),
                "event " + e.what() + " " + fate + (e.op() >= 0 ? "; the first op at or after it: " + at : "; the run ended before it"));
    }

    /** "plan.json: 3 deviations from the baseline (2 drops, 1 delay) · baseline 1 µs, net latency=…" (segments and events when there are any). */
    static String summaryOf(PlanBeside.Placed p) {
        long drops = p.deviations().stream().filter(PlanBeside.Deviation::dropped).count();
        long delays = p.deviations().size() - drops;
        int segments = p.segments().size();
        int events = p.events().size();
        int n = p.deviations().size() + segments + events;
        String what;
        if (n == 0) {
            what = "no deviations: every datagram at the baseline";
        } else {
            StringBuilder kinds = new StringBuilder().append(drops).append(drops == 1 ? " drop, " : " drops, ")
                    .append(delays).append(delays == 1 ? " delay" : " delays");
            if (segments > 0) kinds.append(", ").append(segments).append(segments == 1 ? " TCP segment" : " TCP segments");
            if (events > 0) kinds.append(", ").append(events).append(events == 1 ? " event" : " events");
            what = n + (n == 1 ? " deviation" : " deviations") + " from the baseline (" + kinds + ")";
        }
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
