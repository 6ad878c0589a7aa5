package dev.weft.app.vm;

import dev.weft.app.source.ProtocolChecks;
import dev.weft.app.source.ViolationInfo;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;

/**
 * The Invariants panel's summary: one row per invariant the recording can be checked for (fifo, dup, and its
 * protocol's), with whether it is ticked, its state, first / last op, how many violations, and for a protocol
 * that judges the final state how often it broke on the way (transient breaks the final verdict does not count).
 */
public final class InvariantsViewModel {

    /** One invariant. first / last: -1 when none. */
    public record Row(String name, String state, long first, long last, int count, String note) { }

    private final DocumentViewModel doc;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();

    public InvariantsViewModel(DocumentViewModel doc) {
        this.doc = doc;
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> update());
        doc.selectedInvariants().addListener((javafx.collections.ListChangeListener<String>) c -> update());
        update();
    }

    public ObservableList<Row> rows() { return rows; }

    private void update() {
        List<Row> out = new ArrayList<>();
        ProtocolChecks p = doc.protocol();
        for (String name : doc.availableInvariants()) {
            long first = -1, last = -1;
            int count = 0;
            for (ViolationInfo v : doc.violations()) {
                if (!v.invariant().equals(name)) continue;
                if (first < 0) first = v.op();
                last = v.op();
                count++;
            }
            long episodes = p.episodes().stream().filter(e -> e.invariant().equals(name)).count();
            String note = episodes == 0 ? "" : "broken " + episodes + " time(s) along the run";
            String state;
            if (!doc.selectedInvariants().contains(name)) state = "not checked";
            else if (count > 0) state = p.names().contains(name) ? "VIOLATED (" + p.protocol().name().toLowerCase(java.util.Locale.ROOT) + " check)" : "VIOLATED";
            else if (p.names().contains(name) && p.exitCode() == 3) state = "DISCARD: " + p.verdict();
            else state = p.names().contains(name) && episodes > 0 ? "holds at the end" : "holds";
            out.add(new Row(name, state, first, last, count, note));
        }
        rows.setAll(out);
    }
}
