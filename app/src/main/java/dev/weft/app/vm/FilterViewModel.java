package dev.weft.app.vm;

import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableSet;

import java.util.Locale;

/**
 * Filters that hide: by node (lane), event kind and outcome (mark kind), op range, vt range and payload
 * text. The result is the list of ops the event table shows; the timeline hides the same lanes and kinds.
 * Payload matching reads records, so it runs in the background.
 */
public final class FilterViewModel {

    private final DocumentViewModel doc;
    private final TaskRunner runner;
    private final ObservableSet<Integer> hiddenLanes = FXCollections.observableSet();
    private final IntegerProperty hiddenKinds = new SimpleIntegerProperty(this, "hiddenKinds", 0);
    private final ObjectProperty<Long> opFrom = new SimpleObjectProperty<>(this, "opFrom");
    private final ObjectProperty<Long> opTo = new SimpleObjectProperty<>(this, "opTo");
    private final ObjectProperty<Long> vtFrom = new SimpleObjectProperty<>(this, "vtFrom");
    private final ObjectProperty<Long> vtTo = new SimpleObjectProperty<>(this, "vtTo");
    private final StringProperty payloadText = new SimpleStringProperty(this, "payloadText", "");
    private final ReadOnlyObjectWrapper<OpList> visibleOps;
    private final ReadOnlyObjectWrapper<java.util.BitSet> shownOps = new ReadOnlyObjectWrapper<>(this, "shownOps");
    private final javafx.beans.property.ReadOnlyStringWrapper summary = new javafx.beans.property.ReadOnlyStringWrapper(this, "summary", "");
    private int generation;

    public FilterViewModel(DocumentViewModel doc, TaskRunner runner) {
        this.doc = doc;
        this.runner = runner;
        visibleOps = new ReadOnlyObjectWrapper<>(this, "visibleOps", OpList.all(doc.size()));
        hiddenLanes.addListener((javafx.collections.SetChangeListener<Integer>) c -> apply());
        hiddenKinds.addListener(o -> apply());
        for (var p : java.util.List.of(opFrom, opTo, vtFrom, vtTo)) p.addListener(o -> apply());
        payloadText.addListener(o -> apply());
    }

    public ObservableSet<Integer> hiddenLanes() { return hiddenLanes; }
    public IntegerProperty hiddenKindsProperty() { return hiddenKinds; }
    public ObjectProperty<Long> opFromProperty() { return opFrom; }
    public ObjectProperty<Long> opToProperty() { return opTo; }
    public ObjectProperty<Long> vtFromProperty() { return vtFrom; }
    public ObjectProperty<Long> vtToProperty() { return vtTo; }
    public StringProperty payloadTextProperty() { return payloadText; }
    public ReadOnlyObjectProperty<OpList> visibleOpsProperty() { return visibleOps.getReadOnlyProperty(); }
    public OpList visibleOps() { return visibleOps.get(); }

    public void setKindHidden(MarkKind k, boolean hidden) {
        hiddenKinds.set(hidden ? hiddenKinds.get() | k.bit() : hiddenKinds.get() & ~k.bit());
    }

    public void setLaneHidden(int lane, boolean hidden) {
        if (hidden) hiddenLanes.add(lane);
        else hiddenLanes.remove(lane);
    }

    public boolean isActive() {
        return !hiddenLanes.isEmpty() || hiddenKinds.get() != 0 || opFrom.get() != null || opTo.get() != null
                || vtFrom.get() != null || vtTo.get() != null || !payloadText.get().isBlank();
    }

    public void clear() {
        hiddenLanes.clear();
        hiddenKinds.set(0);
        opFrom.set(null);
        opTo.set(null);
        vtFrom.set(null);
        vtTo.set(null);
        payloadText.set("");
    }

    /** The ops the filters leave, as a bit set for the timeline (null when no filter is on). */
    public ReadOnlyObjectProperty<java.util.BitSet> shownOpsProperty() { return shownOps.getReadOnlyProperty(); }

    /** "filters hide 1,204 of 3,772 events" while a filter is on, else "". */
    public javafx.beans.property.ReadOnlyStringProperty summaryProperty() { return summary.getReadOnlyProperty(); }

    private void apply() {
        int gen = ++generation;
        if (!isActive()) {
            visibleOps.set(OpList.all(doc.size()));
            shownOps.set(null);
            summary.set("");
            return;
        }
        boolean[] laneHidden = new boolean[doc.timeline().laneCount()];
        for (int l : hiddenLanes) if (l < laneHidden.length) laneHidden[l] = true;
        int kinds = hiddenKinds.get();
        long oFrom = opFrom.get() == null ? 0 : opFrom.get();
        long oTo = opTo.get() == null ? Long.MAX_VALUE : opTo.get();
        Long vFrom = vtFrom.get(), vTo = vtTo.get();
        String text = payloadText.get().trim().toLowerCase(Locale.ROOT);
        summary.set("filtering…");
        runner.background(() -> {
            if (gen != generation) return;
            TimelineModel m = doc.timeline();
            int n = doc.size();
            int[] out = new int[Math.max(16, n / 8)];
            int count = 0;
            int start = (int) Math.min(n, oFrom);
            int end = (int) Math.min(n, oTo == Long.MAX_VALUE ? n : oTo + 1);
            for (int from = start; from < end; from += SearchViewModel.BLOCK) {
                if (gen != generation) return;
                int to = Math.min(end, from + SearchViewModel.BLOCK);
                // Payload text needs the records: one read per block, and only when that filter is on.
                java.util.List<dev.weft.log.LogRecord> recs = text.isEmpty() ? null : doc.source().records(from, to);
                for (int op = from; op < to; op++) {
                    if (laneHidden[m.lane(op)] || (kinds & m.kind(op).bit()) != 0) continue;
                    long vt = m.vt(op);
                    if (vFrom != null && Long.compareUnsigned(vt, vFrom) < 0) continue;
                    if (vTo != null && Long.compareUnsigned(vt, vTo) > 0) continue;
                    if (recs != null && !EventText.payloadContains(recs.get(op - from).event(), text)) continue;
                    if (count == out.length) out = java.util.Arrays.copyOf(out, count * 2);
                    out[count++] = op;
                }
            }
            OpList result = OpList.of(out, count);
            java.util.BitSet bits = new java.util.BitSet(n);
            for (int i = 0; i < count; i++) bits.set(out[i]);
            String text2 = String.format(Locale.ROOT, "filters hide %,d of %,d events", n - count, n);
            runner.ui(() -> {
                if (gen != generation) return;
                visibleOps.set(result);
                shownOps.set(bits);
                summary.set(text2);
            });
        });
    }

}
