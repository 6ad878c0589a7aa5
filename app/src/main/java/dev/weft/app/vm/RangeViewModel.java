package dev.weft.app.vm;

import dev.weft.app.source.ViolationInfo;
import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A selected range of ops (dragged on the timeline's ruler): what is in it (ops, virtual duration, counts per
 * kind, drops, violations), and what to do with it (zoom there, set the op filter to it, export it as CSV or
 * JSON lines). The statistics come from the timeline model's per-op arrays, so the whole of a 1M-record log
 * is summed in a few milliseconds on the UI thread.
 */
public final class RangeViewModel {

    /** What a range holds. counts[k] is the number of marks of MarkKind ordinal k. */
    public record Stats(int from, int to, long ops, long vtFrom, long vtTo, long[] counts, int violations) {
        public long count(MarkKind k) { return counts[k.ordinal()]; }
        public long durationNs() { return vtTo - vtFrom; }
    }

    private final DocumentViewModel doc;
    private final FilterViewModel filter;
    private final ObjectProperty<int[]> range = new SimpleObjectProperty<>(this, "range");
    private final ObjectProperty<Stats> stats = new SimpleObjectProperty<>(this, "stats");
    private final ReadOnlyStringWrapper text = new ReadOnlyStringWrapper(this, "text", "");

    public RangeViewModel(DocumentViewModel doc, FilterViewModel filter) {
        this.doc = doc;
        this.filter = filter;
        range.addListener((o, a, r) -> {
            Stats s = r == null ? null : stats(doc, r[0], r[1]);
            stats.set(s);
            text.set(s == null ? "" : describe(s));
        });
    }

    /** {fromOp, toOp} inclusive, or null. */
    public ObjectProperty<int[]> rangeProperty() { return range; }
    public ObjectProperty<Stats> statsProperty() { return stats; }
    public ReadOnlyStringProperty textProperty() { return text.getReadOnlyProperty(); }

    public void clear() { range.set(null); }

    /** Narrows the op filter to the range. */
    public void filterToRange() {
        int[] r = range.get();
        if (r == null) return;
        filter.opFromProperty().set((long) r[0]);
        filter.opToProperty().set((long) r[1]);
    }

    public static Stats stats(DocumentViewModel doc, int from, int to) {
        TimelineModel m = doc.timeline();
        int n = m.size();
        from = Math.max(0, Math.min(n - 1, from));
        to = Math.max(from, Math.min(n - 1, to));
        long[] counts = new long[MarkKind.values().length];
        for (int op = from; op <= to; op++) counts[m.kind(op).ordinal()]++;
        int v = 0;
        for (ViolationInfo vi : doc.violations()) if (vi.op() >= from && vi.op() <= to) v++;
        return new Stats(from, to, to - from + 1L, m.vt(from), m.vt(to), counts, v);
    }

    /** "ops 120–480: 361 ops · 2.5 ms virtual · 80 sent, 75 delivered, 3 dropped, 0 no receiver · 1 violation". */
    public static String describe(Stats s) {
        long sent = s.count(MarkKind.SEND) + s.count(MarkKind.SEND_DROPPED) + s.count(MarkKind.SEND_NO_RECEIVER);
        return String.format(Locale.ROOT, "ops %d–%d: %,d ops · %s virtual (%,d ns) · %,d sent, %,d delivered, %,d dropped, "
                        + "%,d no receiver, %,d empty recv · %d violation(s)",
                s.from(), s.to(), s.ops(), ns(s.durationNs()), s.durationNs(), sent, s.count(MarkKind.RECV),
                s.count(MarkKind.SEND_DROPPED), s.count(MarkKind.SEND_NO_RECEIVER), s.count(MarkKind.RECV_EMPTY), s.violations());
    }

    static String ns(long ns) {
        if (ns >= 1_000_000_000L) return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
        if (ns >= 1_000_000L) return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
        if (ns >= 1_000L) return String.format(Locale.ROOT, "%.3f µs", ns / 1e3);
        return ns + " ns";
    }

    /** Writes the range as CSV: op, vt_ns, node, kind, event (quoted). Worker thread. */
    public void exportCsv(Path out) throws IOException {
        int[] r = range.get();
        if (r == null) throw new IOException("no range selected");
        export(out, r, true);
    }

    /** Writes the range as JSON lines: the canonical JSON of each record (weft-log-v2.md §7). Worker thread. */
    public void exportJsonLines(Path out) throws IOException {
        int[] r = range.get();
        if (r == null) throw new IOException("no range selected");
        export(out, r, false);
    }

    private void export(Path out, int[] r, boolean csv) throws IOException {
        TimelineModel m = doc.timeline();
        try (dev.weft.io.OutputFile f = dev.weft.io.OutputFile.open(out);
                BufferedWriter w = new BufferedWriter(new java.io.OutputStreamWriter(f.stream(), StandardCharsets.UTF_8))) {
            if (csv) w.write("op,vt_ns,node,kind,event\n");
            for (int from = r[0]; from <= r[1]; from += SearchViewModel.BLOCK) {
                int to = Math.min(r[1] + 1, from + SearchViewModel.BLOCK);
                String[] lines = csv ? doc.source().eventLines(from, to) : null;
                for (int op = from; op < to; op++) {
                    if (csv) {
                        w.write(op + "," + Long.toUnsignedString(m.vt(op)) + "," + quote(m.lanes().get(m.lane(op)).label()) + ","
                                + quote(m.kindLabel(op)) + "," + quote(lines[op - from]) + "\n");
                    } else {
                        w.write(doc.source().canonicalJson(op));
                        w.write('\n');
                    }
                }
            }
            w.flush();
            f.commit();
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
