package dev.weft.app.vm;

import dev.weft.app.source.Progress;
import dev.weft.app.source.ProtocolChecks;
import dev.weft.app.source.RecordingSource;
import dev.weft.app.source.Verification;
import dev.weft.app.source.ViolationInfo;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.findings.FindingRanking;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One opened recording: the shared cursor ("the state after op N") and selection every view follows,
 * replay stepping, play/pause, the chosen invariants and their violations. Toolkit-free.
 *
 * <p>Selecting an event moves the cursor to it, and moving the cursor selects the event at the cursor, so
 * the table, timeline, state panel and inspector always talk about the same op.
 */
public final class DocumentViewModel {

    public static final List<String> DEFAULT_INVARIANTS = List.of("per-channel-fifo", "no-duplicate-delivery");

    private final RecordingSource source;
    private final TaskRunner runner;
    private final IntegerProperty cursor = new SimpleIntegerProperty(this, "cursor", 0);
    private final IntegerProperty selection = new SimpleIntegerProperty(this, "selection", -1);
    private final StringProperty message = new SimpleStringProperty(this, "message", "");
    private final ObservableList<ViolationInfo> violations = FXCollections.observableArrayList();
    private final ObservableList<String> selectedInvariants = FXCollections.observableArrayList();
    private final ReadOnlyBooleanWrapper checking = new ReadOnlyBooleanWrapper(this, "checking", false);
    private final BooleanProperty playing = new SimpleBooleanProperty(this, "playing", false);
    private final DoubleProperty speed = new SimpleDoubleProperty(this, "speed", 20);   // ops per second
    private final javafx.beans.property.ReadOnlyIntegerWrapper violationAtCursor =
            new javafx.beans.property.ReadOnlyIntegerWrapper(this, "violationAtCursor", -1);
    /** Everything the checks found, ranked most severe first (the engine's {@link FindingRanking}). */
    private final ObservableList<Finding> findings = FXCollections.observableArrayList();
    private final javafx.beans.property.ReadOnlyIntegerWrapper findingAtCursor =
            new javafx.beans.property.ReadOnlyIntegerWrapper(this, "findingAtCursor", -1);
    /** The rank walked to last (the bar's prev / next), so several findings at one op keep their place. */
    private int walkedFinding = -1;
    /** The shared background-filled cache of event lines (cheap to make: it reads nothing until asked). */
    private final EventLines eventLines;
    /** What search scans: built on its own thread once the recording has loaded (or by the first search). */
    private final SearchIndexLoader searchIndex;
    /** The history beside the recording, checked (loaded once, on first ask); see {@link #history()}. */
    private HistoryLaneViewModel history;
    private boolean historyLoaded;
    /** The history's findings as ranked findings, in the order of {@link HistoryLaneViewModel#findings()}; UI thread. */
    private List<Finding> historyFindings = List.of();
    /** The document this one grew from (a followed recording's previous snapshot), or null. */
    private DocumentViewModel grewFrom;
    private double playCarry;
    private int checkGeneration;

    public DocumentViewModel(RecordingSource source, TaskRunner runner) {
        this.source = source;
        this.runner = runner;
        this.eventLines = new EventLines(source, runner);
        this.searchIndex = new SearchIndexLoader(source, runner);
        cursor.addListener((o, a, b) -> {
            if (selection.get() != b.intValue()) selection.set(b.intValue());
        });
        selection.addListener((o, a, b) -> {
            if (b.intValue() >= 0 && cursor.get() != b.intValue()) cursor.set(b.intValue());
        });
        // Every invariant the recording can be checked for starts ticked: fifo/dup and the protocol's own.
        selectedInvariants.setAll(source.availableInvariants());
        cursor.addListener(o -> updateViolationAtCursor());
        violations.addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> updateViolationAtCursor());
        violations.addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> refreshFindings());
        cursor.addListener(o -> updateFindingAtCursor());
        findings.addListener((javafx.collections.ListChangeListener<Finding>) c -> updateFindingAtCursor());
        selection.set(source.size() == 0 ? -1 : 0);
    }

    public RecordingSource source() { return source; }

    /**
     * The same recording with more records (a followed recording grew): the chosen invariants, the violations found
     * so far and the cursor carry over, so the views built for it pick up where the user was. The caller moves the
     * cursor on when it follows the latest op, and runs the checks.
     */
    public DocumentViewModel grownInto(RecordingSource bigger) {
        DocumentViewModel next = new DocumentViewModel(bigger, runner);
        next.grewFrom = this;
        next.selectedInvariants.setAll(selectedInvariants);
        next.violations.setAll(violations);
        next.speed.set(speed.get());
        int at = Math.min(cursor.get(), Math.max(0, bigger.size() - 1));
        if (bigger.size() > 0) next.cursor.set(at);
        return next;
    }

    /** The document this one grew from, or null; see {@link #grownInto}. */
    public DocumentViewModel grewFrom() { return grewFrom; }

    /** Forgets the document this one grew from (once the views have taken over from it), so it can be collected. */
    public void forgetGrewFrom() { grewFrom = null; }

    /** Closes the recording (the document is being replaced). */
    public void close() {
        searchIndex.close();
        source.close();
    }

    // What the views may ask about the recording (they never reach the source themselves).
    public dev.weft.timeline.TimelineModel timeline() { return source.timeline(); }
    public dev.weft.timeline.ReportLog reports() { return source.reports(); }
    public java.nio.file.Path path() { return source.path(); }
    public List<String> availableInvariants() { return source.availableInvariants(); }
    public ProtocolChecks protocol() { return source.protocol(); }
    /** The canonical JSON of a record (for "copy event JSON"). */
    public String canonicalJson(int op) { return source.canonicalJson(op); }

    /** Index in {@link #violations()} of the violation at the cursor op, or -1. */
    public ReadOnlyIntegerProperty violationAtCursorProperty() { return violationAtCursor.getReadOnlyProperty(); }

    /** Index of the last violation at or before the cursor, or -1 (the list follows the cursor with it). */
    public int violationAtOrBeforeCursor() {
        int found = -1;
        for (int i = 0; i < violations.size() && violations.get(i).op() <= cursor.get(); i++) found = i;
        return found;
    }

    private void updateViolationAtCursor() {
        int at = -1;
        for (int i = 0; i < violations.size(); i++) {
            if (violations.get(i).op() == cursor.get()) {
                at = i;
                break;
            }
        }
        violationAtCursor.set(at);
    }

    /**
     * Ops of violation records written in the log whose invariant is not ticked: the timeline hides them, so
     * unticking an invariant hides its marks as it drops its violations from the verdict.
     */
    public int[] recordedViolationOpsHidden() {
        return source.recordedViolations().stream().filter(v -> !selectedInvariants.contains(v.invariant()))
                .filter(v -> !v.invariant().equals(DEADLOCK)) // the broker's verdict is no invariant one can untick
                .mapToInt(v -> (int) v.op()).sorted().toArray();
    }

    /** The invariant name of the broker's deadlock verdict record (docs/broker.md, "The deadlock verdict"). */
    public static final String DEADLOCK = "deadlock";

    /** The broker's deadlock verdict written into the log (the run ended because nothing could wake any node), or null. */
    public ViolationInfo deadlockVerdict() {
        for (ViolationInfo v : source.recordedViolations()) {
            if (v.invariant().equals(DEADLOCK)) return v;
        }
        return null;
    }

    /** The address a protocol reporter sent its first report from (e.g. "127.0.0.2:9000"), or null. */
    public String addressOfReporter(int id) {
        dev.weft.timeline.ReportLog r = source.reports();
        for (int i = 0; i < r.size(); i++) {
            if (r.field(i, 0) != id || r.op(i) >= source.size()) continue;
            return source.record(r.op(i)).event() instanceof dev.weft.log.Event.Send s ? s.src().text() : null;
        }
        return null;
    }

    /** "node 3" for a report's identifier (its first field): the lane of the node that sent its first report. */
    public String nodeOfReporter(int id) {
        dev.weft.timeline.ReportLog r = source.reports();
        dev.weft.timeline.TimelineModel m = source.timeline();
        for (int i = 0; i < r.size(); i++) {
            if (r.field(i, 0) == id && r.op(i) < m.size()) return m.lanes().get(m.lane(r.op(i))).label();
        }
        return null;
    }

    /** The shared background-filled cache of event lines (table rows, hover text); UI thread only. */
    public EventLines eventLines() { return eventLines; }
    public SearchIndexLoader searchIndex() { return searchIndex; }
    public int size() { return source.size(); }
    public IntegerProperty cursorProperty() { return cursor; }
    public int cursor() { return cursor.get(); }
    public IntegerProperty selectionProperty() { return selection; }
    public StringProperty messageProperty() { return message; }
    public ObservableList<ViolationInfo> violations() { return violations; }
    public ObservableList<String> selectedInvariants() { return selectedInvariants; }
    public ReadOnlyBooleanProperty checkingProperty() { return checking.getReadOnlyProperty(); }
    public BooleanProperty playingProperty() { return playing; }
    public DoubleProperty speedProperty() { return speed; }

    /**
     * Runs the selected invariants in the background; when done, publishes the violations and (if
     * openAtFirst) moves the cursor to the first one. A newer check supersedes an older one.
     */
    public void runChecks(boolean openAtFirst) {
        runChecks(openAtFirst, null);
    }

    /** As {@link #runChecks(boolean)}, then runs whenDone (UI thread) unless a newer check superseded it. */
    public void runChecks(boolean openAtFirst, Runnable whenDone) {
        int generation = ++checkGeneration;
        Set<String> names = new TreeSet<>(selectedInvariants);
        checking.set(true);
        runner.background(() -> {
            List<ViolationInfo> found;
            try {
                found = names.isEmpty() ? List.of() : source.check(names, Progress.NONE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                String why = String.valueOf(e.getMessage());
                runner.ui(() -> message.set("check failed: " + why));
                found = List.of();
            }
            List<ViolationInfo> result = found;
            HistoryLaneViewModel checkedHistory = history();   // read and judged here, off the UI thread, once
            runner.ui(() -> {
                if (generation != checkGeneration) return;
                historyFindings = historyFindingsOf(checkedHistory);
                publishViolations(result);
                refreshFindings();
                checking.set(false);
                if (openAtFirst) {
                    if (!findings.isEmpty()) goToFinding(0);
                    else goTo(0);
                }
                if (whenDone != null) whenDone.run();
            });
        });
    }

    /**
     * Shows a check's result. When it only adds to the list shown (a followed recording grew), the new ones are
     * appended, so a list of them keeps its selection instead of seeing every row replaced.
     */
    private void publishViolations(List<ViolationInfo> result) {
        int n = violations.size();
        if (result.size() >= n && result.subList(0, n).equals(violations)) {
            if (result.size() > n) violations.addAll(result.subList(n, result.size()));
        } else {
            violations.setAll(result);
        }
    }

    /** The op a freshly opened document should show: its most severe finding, otherwise 0. */
    public int initialOp() {
        return findings.isEmpty() ? 0 : (int) findings.get(0).op();
    }

    // ---- findings, ranked -------------------------------------------------------------------------

    /**
     * Violations and the history's findings as findings, ranked: protocol / program verdicts (the history's among them)
     * first, then fifo / dup, each by op.
     */
    static List<Finding> rank(List<ViolationInfo> violations, List<String> protocolNames, List<Finding> history) {
        List<Finding> out = new ArrayList<>(violations.size() + history.size());
        for (ViolationInfo v : violations) {
            Finding.Origin origin = protocolNames.contains(v.invariant()) ? Finding.Origin.CHECKER
                    : FindingKind.of(v.invariant()).verdict() ? Finding.Origin.RECORDED : Finding.Origin.REPLAY;
            out.add(Finding.of(v.invariant(), v.op(), v.vt(), v.message(), origin));
        }
        out.addAll(history);
        return FindingRanking.rank(out);
    }

    private void refreshFindings() {
        findings.setAll(rank(violations, source.protocol().names(), historyFindings));
    }

    /**
     * The client history {@code weft run} wrote beside the recording, checked and placed on the timeline
     * (docs/history.md), or null when there is none. Read once; any thread (the first ask reads the file).
     */
    public synchronized HistoryLaneViewModel history() {
        if (!historyLoaded) {
            history = HistoryLaneViewModel.load(source.path(), source.timeline(), source::record);
            historyLoaded = true;
        }
        return history;
    }

    /**
     * The history's findings as findings of the list: kind history, invariant {@code history:MODEL} (a campaign's
     * checker name), placed at the op {@link HistoryLaneViewModel#logOpOf} gives, the checker's headline as message;
     * the same findings at the same ops as {@code weft explain} lists ({@link dev.weft.findings.RecordingHistory}).
     */
    private List<Finding> historyFindingsOf(HistoryLaneViewModel h) {
        return h == null ? List.of() : h.asFindings(source.timeline());
    }

    /** The history's findings among {@link #findings()}, in the checker's order; UI thread. */
    public List<Finding> historyFindings() { return historyFindings; }

    /** Invariant names of history findings start with this ({@code history:set}), as campaign checkers do. */
    public static final String HISTORY_PREFIX = dev.weft.findings.RecordingHistory.PREFIX;

    /** The index in {@code history().findings()} of the finding of this rank, or -1 when it is no history finding. */
    public int historyFindingOf(int rank) {
        if (rank < 0 || rank >= findings.size()) return -1;
        for (int i = 0; i < historyFindings.size(); i++) {
            if (historyFindings.get(i) == findings.get(rank)) return i;
        }
        return -1;
    }

    /** The rank of the history's finding {@code i} in {@link #findings()}, or -1 (not published yet). */
    public int rankOfHistoryFinding(int i) {
        if (i < 0 || i >= historyFindings.size()) return -1;
        for (int r = 0; r < findings.size(); r++) {
            if (findings.get(r) == historyFindings.get(i)) return r;
        }
        return -1;
    }

    /** The findings, most severe first; "violation k of N" counts in this order. */
    public ObservableList<Finding> findings() { return findings; }

    /** Rank (index in {@link #findings()}) of the finding the cursor is on, or -1. */
    public ReadOnlyIntegerProperty findingAtCursorProperty() { return findingAtCursor.getReadOnlyProperty(); }

    private void updateFindingAtCursor() {
        int at = -1;
        if (walkedFinding >= 0 && walkedFinding < findings.size() && findings.get(walkedFinding).op() == cursor.get()) {
            at = walkedFinding;
        } else {
            for (int i = 0; i < findings.size(); i++) {
                if (findings.get(i).op() == cursor.get()) {
                    at = i;
                    break;
                }
            }
        }
        findingAtCursor.set(at);
    }

    /** Moves the cursor to the finding of this rank. */
    public boolean goToFinding(int rank) {
        if (rank < 0 || rank >= findings.size()) return false;
        walkedFinding = rank;
        boolean moved = goTo(findings.get(rank).op());
        updateFindingAtCursor();
        return moved;
    }

    /** Moves to the most severe finding of this invariant (a campaign hit's class); false, leaving the cursor, if none. */
    public boolean goToFindingOf(String invariant) {
        for (int i = 0; i < findings.size(); i++) {
            if (findings.get(i).invariant().equals(invariant)) return goToFinding(i);
        }
        return false;
    }

    /** The next finding in rank order (the first one when the cursor is on none). */
    public boolean nextFinding() {
        int k = findingAtCursor.get();
        if (findings.isEmpty() || k >= findings.size() - 1) {
            message.set(findings.isEmpty() ? "no findings" : "this is the last finding (" + findings.size() + " of " + findings.size() + ")");
            return false;
        }
        return goToFinding(k + 1);
    }

    /** The previous finding in rank order (the first one when the cursor is on none). */
    public boolean previousFinding() {
        int k = findingAtCursor.get();
        if (findings.isEmpty() || k == 0) {
            message.set(findings.isEmpty() ? "no findings" : "this is the most severe finding (1 of " + findings.size() + ")");
            return false;
        }
        return goToFinding(Math.max(0, k - 1));
    }

    // ---- stepping ---------------------------------------------------------------------------------

    public void step(int delta) {
        if (size() == 0) return;
        long target = (long) cursor.get() + delta;
        cursor.set((int) Math.max(0, Math.min(size() - 1, target)));
        message.set("");
    }

    public void home() { step(-size()); }
    public void end() { step(size()); }

    /** Moves the cursor to op; false (with a message saying why) when op is not in the recording. */
    public boolean goTo(long op) {
        if (op < 0 || op >= size()) {
            message.set(size() == 0 ? "the recording has no records" : "op " + op + " is outside 0.." + (size() - 1));
            return false;
        }
        cursor.set((int) op);
        message.set("");
        return true;
    }

    /** Parses what a person typed in a "go to op" box (digits, optional "op" prefix, '_' or ',' separators). */
    public boolean goTo(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
        if (t.startsWith("op")) t = t.substring(2).trim();
        t = t.replace("_", "").replace(",", "");
        if (t.isEmpty() || !t.chars().allMatch(Character::isDigit) || t.length() > 12) {
            message.set("not an op number: \"" + (text == null ? "" : text.trim()) + "\"");
            return false;
        }
        return goTo(Long.parseLong(t));
    }

    public boolean nextViolation() {
        for (ViolationInfo v : violations) {
            if (v.op() > cursor.get()) return goTo(v.op());
        }
        message.set(violations.isEmpty() ? "no violations" : "no violation after op " + cursor.get());
        return false;
    }

    public boolean previousViolation() {
        for (int i = violations.size() - 1; i >= 0; i--) {
            if (violations.get(i).op() < cursor.get()) return goTo(violations.get(i).op());
        }
        message.set(violations.isEmpty() ? "no violations" : "no violation before op " + cursor.get());
        return false;
    }

    // ---- play -------------------------------------------------------------------------------------

    public void togglePlay() {
        if (!playing.get() && cursor.get() >= size() - 1) cursor.set(0);
        playing.set(!playing.get());
        playCarry = 0;
    }

    /** Advances playback by elapsed seconds at the chosen speed; stops at the end. */
    public void tick(double seconds) {
        if (!playing.get()) return;
        playCarry += seconds * speed.get();
        int whole = (int) Math.floor(playCarry);
        if (whole <= 0) return;
        playCarry -= whole;
        step(whole);
        if (cursor.get() >= size() - 1) playing.set(false);
    }

    // ---- description ------------------------------------------------------------------------------

    public Verification verification() {
        return source.verification();
    }

    /** The command that reproduces what is shown: replay up to the cursor, with the chosen checks. */
    public String reproduceCommand() {
        return ReproCommand.replay(source.path(), cursor.get(), selectedInvariants);
    }
}
