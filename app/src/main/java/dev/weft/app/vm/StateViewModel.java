package dev.weft.app.vm;

import dev.weft.app.source.StateSnapshot;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The state panel: the broker state after the cursor op, as display rows, each marked with how this op
 * changed it (added, removed, changed). States are fetched in the background; while the cursor moves fast
 * only the newest request is published.
 */
public final class StateViewModel {

    public enum Change { SAME, ADDED, REMOVED, CHANGED }

    /** One row of the panel. section: "pending", "binding", "channel", "listener", "tcp" (see {@link TcpStateRows}). */
    public record Row(String section, String key, String detail, Change change) { }

    private final DocumentViewModel doc;
    private final TaskRunner runner;
    private final ObjectProperty<StateSnapshot> state = new SimpleObjectProperty<>(this, "state");
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private volatile int requested = -1;
    private volatile StateSnapshot[] lastFetched = new StateSnapshot[2];   // {state at op, state at op - 1}

    public StateViewModel(DocumentViewModel doc, TaskRunner runner) {
        this.doc = doc;
        this.runner = runner;
        doc.cursorProperty().addListener((o, a, b) -> refresh());
        refresh();
    }

    public ObjectProperty<StateSnapshot> stateProperty() { return state; }
    public ObservableList<Row> rows() { return rows; }

    private void refresh() {
        int op = doc.cursor();
        if (op < 0 || op >= doc.size()) {
            state.set(null);
            rows.clear();
            return;
        }
        requested = op;
        runner.background(() -> {
            if (requested != op) return;     // superseded before it started
            // Stepping forward reuses the last state as "before", so each step replays once, not twice.
            StateSnapshot[] last = lastFetched;
            StateSnapshot now = last[0] != null && last[0].op() == op ? last[0] : doc.source().stateAt(op);
            StateSnapshot before = op == 0 ? StateSnapshot.empty(-1)
                    : last[0] != null && last[0].op() == op - 1 ? last[0]
                    : last[1] != null && last[1].op() == op - 1 ? last[1] : doc.source().stateAt(op - 1);
            lastFetched = new StateSnapshot[] {now, before};
            List<Row> r = diff(before, now);
            runner.ui(() -> {
                if (requested != op) return;
                state.set(now);
                rows.setAll(r);
            });
        });
    }

    /** Rows of `now`, with what changed since `before`; removed entries are listed after the others. */
    static List<Row> diff(StateSnapshot before, StateSnapshot now) {
        List<Row> out = new java.util.ArrayList<>();
        Set<Long> tiesBefore = new HashSet<>();
        for (var p : before.pending()) tiesBefore.add(p.tie());
        Set<Long> tiesNow = new HashSet<>();
        for (var p : now.pending()) {
            tiesNow.add(p.tie());
            out.add(pendingRow(p, tiesBefore.contains(p.tie()) ? Change.SAME : Change.ADDED));
        }
        for (var p : before.pending()) if (!tiesNow.contains(p.tie())) out.add(pendingRow(p, Change.REMOVED));
        Set<String> bindBefore = new HashSet<>();
        for (var b : before.bindings()) bindBefore.add(b.addr().text() + "=" + b.conn());
        Set<String> bindNow = new HashSet<>();
        for (var b : now.bindings()) {
            bindNow.add(b.addr().text() + "=" + b.conn());
            out.add(new Row("binding", b.addr().text(), "conn " + Long.toUnsignedString(b.conn()),
                    bindBefore.contains(b.addr().text() + "=" + b.conn()) ? Change.SAME : Change.ADDED));
        }
        for (var b : before.bindings()) {
            if (!bindNow.contains(b.addr().text() + "=" + b.conn())) {
                out.add(new Row("binding", b.addr().text(), "conn " + Long.toUnsignedString(b.conn()), Change.REMOVED));
            }
        }
        java.util.Map<String, Long> seqBefore = new java.util.HashMap<>();
        for (var c : before.channels()) seqBefore.put(channelKey(c), c.next());
        for (var c : now.channels()) {
            Long old = seqBefore.get(channelKey(c));
            Change ch = old == null ? Change.ADDED : old == c.next() ? Change.SAME : Change.CHANGED;
            out.add(new Row("channel", channelKey(c), "next seq " + Long.toUnsignedString(c.next()), ch));
        }
        out.addAll(TcpStateRows.diff(before.tcp(), now.tcp()));
        return out;
    }

    private static String channelKey(StateSnapshot.ChannelSeq c) {
        return c.src().text() + " → " + c.dst().text();
    }

    private static Row pendingRow(StateSnapshot.Pending p, Change change) {
        String key = "conn " + Long.toUnsignedString(p.conn()) + "  tie " + Long.toUnsignedString(p.tie());
        String detail = p.src().text() + " → " + p.dst().text() + "  deliv " + Long.toUnsignedString(p.delivNs())
                + " ns  " + PayloadText.preview(p.payloadHex(), 24);
        return new Row("pending", key, detail, change);
    }
}
