package dev.weft.app.vm;

import dev.weft.findings.Finding;
import dev.weft.findings.FindingWords;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The violation bar under the toolbar: while the cursor sits on a finding it names the invariant, says in plain words
 * what broke, and where it is in the ranking ("violation 1 of 31": the most severe first), with previous / next
 * walking the ranking. The bar keeps its place when the cursor is on no finding (it says so), so nothing under it moves.
 */
public final class ViolationBarViewModel {

    private final DocumentViewModel doc;
    private final ReadOnlyBooleanWrapper visible = new ReadOnlyBooleanWrapper(this, "visible", false);
    private final ReadOnlyStringWrapper invariant = new ReadOnlyStringWrapper(this, "invariant", "");
    private final ReadOnlyStringWrapper explanation = new ReadOnlyStringWrapper(this, "explanation", "");
    private final ReadOnlyStringWrapper position = new ReadOnlyStringWrapper(this, "position", "");
    private final ReadOnlyObjectWrapper<Finding> finding = new ReadOnlyObjectWrapper<>(this, "finding");

    public ViolationBarViewModel(DocumentViewModel doc) {
        this.doc = doc;
        doc.findingAtCursorProperty().addListener(o -> update());
        doc.findings().addListener((javafx.collections.ListChangeListener<Finding>) c -> update());
        update();
    }

    /** Whether the cursor is on a finding (the bar shows it); otherwise the bar shows the count and a way to the top one. */
    public ReadOnlyBooleanProperty visibleProperty() { return visible.getReadOnlyProperty(); }
    public ReadOnlyStringProperty invariantProperty() { return invariant.getReadOnlyProperty(); }
    public ReadOnlyStringProperty explanationProperty() { return explanation.getReadOnlyProperty(); }
    public ReadOnlyStringProperty positionProperty() { return position.getReadOnlyProperty(); }
    /** The finding shown, or null. */
    public ReadOnlyObjectProperty<Finding> findingProperty() { return finding.getReadOnlyProperty(); }

    public void previous() { doc.previousFinding(); }
    public void next() { doc.nextFinding(); }

    private void update() {
        int i = doc.findingAtCursorProperty().get();
        int n = doc.findings().size();
        if (i < 0 || i >= n) {
            visible.set(false);
            finding.set(null);
            invariant.set("");
            explanation.set(n == 0 ? "" : "the cursor is on no finding; next ▶ goes to the most severe of " + n);
            position.set(n == 0 ? "" : n + (n == 1 ? " finding" : " findings"));
            return;
        }
        Finding f = doc.findings().get(i);
        // Several findings may share one op: say so.
        long more = doc.findings().stream().filter(x -> x.op() == f.op()).count() - 1;
        invariant.set(more == 0 ? f.invariant() : f.invariant() + " +" + more + " more at this op");
        explanation.set(FindingWords.plain(f));
        position.set("violation " + (i + 1) + " of " + n + " · op " + f.op());
        finding.set(f);
        visible.set(true);
    }
}
