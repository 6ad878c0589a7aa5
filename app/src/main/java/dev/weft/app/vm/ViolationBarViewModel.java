package dev.weft.app.vm;

import dev.weft.app.source.ViolationInfo;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The violation bar under the toolbar: while the cursor sits on a violation it names the invariant, says in
 * plain words what broke, and where it is among all of them ("violation 3 of 103"), with previous / next.
 */
public final class ViolationBarViewModel {

    private final DocumentViewModel doc;
    private final ReadOnlyBooleanWrapper visible = new ReadOnlyBooleanWrapper(this, "visible", false);
    private final ReadOnlyStringWrapper invariant = new ReadOnlyStringWrapper(this, "invariant", "");
    private final ReadOnlyStringWrapper explanation = new ReadOnlyStringWrapper(this, "explanation", "");
    private final ReadOnlyStringWrapper position = new ReadOnlyStringWrapper(this, "position", "");

    public ViolationBarViewModel(DocumentViewModel doc) {
        this.doc = doc;
        doc.violationAtCursorProperty().addListener(o -> update());
        update();
    }

    public ReadOnlyBooleanProperty visibleProperty() { return visible.getReadOnlyProperty(); }
    public ReadOnlyStringProperty invariantProperty() { return invariant.getReadOnlyProperty(); }
    public ReadOnlyStringProperty explanationProperty() { return explanation.getReadOnlyProperty(); }
    public ReadOnlyStringProperty positionProperty() { return position.getReadOnlyProperty(); }

    public void previous() { doc.previousViolation(); }
    public void next() { doc.nextViolation(); }

    private void update() {
        int i = doc.violationAtCursorProperty().get();
        if (i < 0 || i >= doc.violations().size()) {
            visible.set(false);
            return;
        }
        ViolationInfo v = doc.violations().get(i);
        // Several violations may share one op: name them all in the position.
        int last = i;
        while (last + 1 < doc.violations().size() && doc.violations().get(last + 1).op() == v.op()) last++;
        invariant.set(last == i ? v.invariant() : v.invariant() + " +" + (last - i) + " more at this op");
        explanation.set(ViolationText.plainEnglish(v));
        position.set("violation " + (i + 1) + (last > i ? "–" + (last + 1) : "") + " of " + doc.violations().size()
                + " · op " + v.op());
        visible.set(true);
    }
}
