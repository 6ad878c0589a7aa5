package dev.weft.app.vm;

import dev.weft.diff.Alignment;
import dev.weft.diff.DiffInputException;
import dev.weft.diff.DiffResult;
import dev.weft.diff.DiffText;
import dev.weft.diff.EffectDivergence;
import dev.weft.diff.RecordDivergence;
import dev.weft.diff.ScheduleDifference;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

/**
 * Two open recordings side by side, aligned by op (or by virtual time): where they first part ways (computed in the background by the
 * engine's {@link dev.weft.diff.RecordingDiff}, the same comparison as {@code weft diff}), both cursors stepped
 * together, and for A's cursor the op on B holding the same event (the "link" the view draws).
 */
public final class CompareViewModel {

    /** How far from B's cursor a matching event is looked for (records on both sides are read for it). */
    static final int LINK_WINDOW = 64;

    private final DocumentViewModel a;
    private final DocumentViewModel b;
    private final TaskRunner runner;
    // What the comparison found: set here only, read-only to the views.
    private final ReadOnlyObjectWrapper<DiffResult> result = new ReadOnlyObjectWrapper<>(this, "result");
    private final ReadOnlyStringWrapper report = new ReadOnlyStringWrapper(this, "report", "comparing…");
    private final ReadOnlyIntegerWrapper divergenceOpA = new ReadOnlyIntegerWrapper(this, "divergenceOpA", -1);
    private final ReadOnlyIntegerWrapper divergenceOpB = new ReadOnlyIntegerWrapper(this, "divergenceOpB", -1);
    private final ReadOnlyIntegerWrapper effectOpA = new ReadOnlyIntegerWrapper(this, "effectOpA", -1);
    private final ReadOnlyIntegerWrapper effectOpB = new ReadOnlyIntegerWrapper(this, "effectOpB", -1);
    private final ReadOnlyIntegerWrapper linkedOpB = new ReadOnlyIntegerWrapper(this, "linkedOpB", -1);
    private final ReadOnlyBooleanWrapper done = new ReadOnlyBooleanWrapper(this, "done", false);
    private final ObjectProperty<Alignment> alignment = new SimpleObjectProperty<>(this, "alignment", Alignment.OP);
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper(this, "headline", "comparing…");
    private final ReadOnlyStringWrapper scheduleNote = new ReadOnlyStringWrapper(this, "scheduleNote", "");
    /** B's cursor follows A's: to the op on B holding A's cursor event when there is one near, else to A's op. */
    private final javafx.beans.property.BooleanProperty linkCursors = new javafx.beans.property.SimpleBooleanProperty(this, "linkCursors", true);
    private int linkRequest;

    public CompareViewModel(DocumentViewModel a, DocumentViewModel b, TaskRunner runner) {
        this.a = a;
        this.b = b;
        this.runner = runner;
        a.cursorProperty().addListener((o, x, y) -> {
            boolean follow = linkCursors.get();
            if (follow) b.goTo(Math.min(y.intValue(), b.size() - 1));
            relink(follow);
        });
        b.cursorProperty().addListener((o, x, y) -> relink(false));
    }

    public DocumentViewModel a() { return a; }
    public DocumentViewModel b() { return b; }
    public ReadOnlyObjectProperty<DiffResult> resultProperty() { return result.getReadOnlyProperty(); }
    /** The {@code weft diff} text of the comparison. */
    public ReadOnlyStringProperty reportProperty() { return report.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty divergenceOpAProperty() { return divergenceOpA.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty divergenceOpBProperty() { return divergenceOpB.getReadOnlyProperty(); }
    /** Ops of the first delivery a node saw differently, on each side (-1 when none). */
    public ReadOnlyIntegerProperty effectOpAProperty() { return effectOpA.getReadOnlyProperty(); }
    public ReadOnlyIntegerProperty effectOpBProperty() { return effectOpB.getReadOnlyProperty(); }
    /** The op on B holding the same event as A's cursor op, or -1 when none is near B's cursor. */
    public ReadOnlyIntegerProperty linkedOpBProperty() { return linkedOpB.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty doneProperty() { return done.getReadOnlyProperty(); }
    /** The answer in one line: the first node-visible difference (node, its k-th delivery or send, the op on each side). */
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }
    /** The record divergence before it, when no node saw it ("schedule only: node start order; …"), or "". */
    public ReadOnlyStringProperty scheduleNoteProperty() { return scheduleNote.getReadOnlyProperty(); }
    public javafx.beans.property.BooleanProperty linkCursorsProperty() { return linkCursors; }
    /** By op (record k against record k) or by virtual time (the events of each vt as a set); set before start. */
    public ObjectProperty<Alignment> alignmentProperty() { return alignment; }

    /** Compares again aligned the other way (by vt after by op, and back). */
    public void toggleAlignment() {
        alignment.set(alignment.get() == Alignment.OP ? Alignment.VT : Alignment.OP);
        start(null);
    }

    public String title() {
        return a.path().getFileName() + " ⇄ " + b.path().getFileName();
    }

    /** Compares in the background; then both cursors go to the first divergence. whenDone (may be null) runs after. */
    public void start(Runnable whenDone) {
        Alignment how = alignment.get();
        done.set(false);
        report.set("comparing…");
        runner.background(() -> {
            DiffResult r;
            String text;
            try {
                r = dev.weft.diff.RecordingDiff.compare(a.path(), b.path(), how);
                text = DiffText.report(a.path().toString(), b.path().toString(), r);
            } catch (DiffInputException e) {
                r = null;
                text = "cannot compare: " + e.getMessage();
            }
            DiffResult published = r;
            String publishedText = text;
            runner.ui(() -> {
                result.set(published);
                report.set(publishedText);
                if (published != null) {
                    RecordDivergence d = published.firstRecord();
                    divergenceOpA.set(d == null ? -1 : clampOp(d.opA(), a));
                    divergenceOpB.set(d == null ? -1 : clampOp(d.opB(), b));
                    EffectDivergence e = published.firstEffect();
                    effectOpA.set(e == null || e.a() == null ? -1 : clampOp(e.a().op(), a));
                    effectOpB.set(e == null || e.b() == null ? -1 : clampOp(e.b().op(), b));
                    headline.set(headlineOf(published));
                    scheduleNote.set(ScheduleDifference.scheduleOnly(published) ? DiffText.scheduleOnlyLine(published) : "");
                    goToDivergence();
                } else {
                    headline.set(publishedText);
                    scheduleNote.set("");
                }
                done.set(true);
                if (whenDone != null) whenDone.run();
            });
        });
    }

    private static int clampOp(long op, DocumentViewModel d) {
        return (int) Math.max(0, Math.min(op, d.size() - 1L));
    }

    /** "node 2, delivery #1 — A op 39: received … · B op 85: sent …", or why there is none. */
    static String headlineOf(DiffResult r) {
        if (r.identical()) return "identical: " + r.a().ops() + " op(s)";
        EffectDivergence e = r.firstEffect();
        if (e == null) return "every node received and sent the same datagrams in the same order: the recordings differ in schedule only";
        return DiffText.firstEffectLine(e) + "  —  A " + DiffText.delivery(e.a()) + "   ·   B " + DiffText.delivery(e.b());
    }

    /**
     * Both cursors to the first node-visible difference, each to its own op there (op 0 when the recordings are
     * identical); without one, to the first record divergence.
     */
    public void goToDivergence() {
        boolean effect = effectOpA.get() >= 0 || effectOpB.get() >= 0;
        int opA = effect ? effectOpA.get() : divergenceOpA.get();
        int opB = effect ? effectOpB.get() : divergenceOpB.get();
        boolean linked = linkCursors.get();
        linkCursors.set(false);   // each side to its own op, not to A's
        try {
            a.goTo(Math.max(0, opA >= 0 ? opA : opB));
            b.goTo(Math.max(0, opB >= 0 ? opB : opA));
        } finally {
            linkCursors.set(linked);
        }
    }

    /** Steps both cursors together by delta ops (each clamped to its own recording); linked, B follows A's step. */
    public void stepBoth(int delta) {
        a.step(delta);
        if (!linkCursors.get()) b.step(delta);
    }

    /** Finds, in the background, the op near B's cursor whose event is A's cursor event (the op number aside). */
    private void relink(boolean moveB) {
        int request = ++linkRequest;
        int opA = a.cursor();
        int around = b.cursor();
        int sizeB = b.size();
        runner.background(() -> {
            String want = withoutOp(a.canonicalJson(opA));
            int found = -1;
            for (int d = 0; d <= LINK_WINDOW && found < 0 && want != null; d++) {
                for (int op : new int[] {around + d, around - d}) {
                    if (op >= 0 && op < sizeB && want.equals(withoutOp(b.canonicalJson(op)))) {
                        found = op;
                        break;
                    }
                }
            }
            int link = found;
            runner.ui(() -> {
                if (request != linkRequest) return;
                linkedOpB.set(link);
                // Linked: B's cursor goes to the op holding A's event (it was put at A's op number meanwhile).
                if (moveB && link >= 0 && link != b.cursor() && a.cursor() == opA) b.goTo(link);
            });
        });
    }

    /** A canonical record without its leading {@code "op":N,} member: the same event at another op number. */
    static String withoutOp(String canonical) {
        if (canonical == null || !canonical.startsWith("{\"op\":")) return canonical;
        int comma = canonical.indexOf(',');
        return comma < 0 ? canonical : "{" + canonical.substring(comma + 1);
    }
}
