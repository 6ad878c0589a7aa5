package dev.weft.app.vm;

import dev.weft.app.source.FakeRecordingSource;
import dev.weft.app.source.Progress;
import dev.weft.app.source.RecordingSource;
import dev.weft.app.source.StateSnapshot;
import dev.weft.app.source.Verification;
import dev.weft.app.source.ViolationInfo;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import dev.weft.timeline.TimelineModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The team rule "the UI thread never blocks on I/O or replay", checked without a toolkit: the test thread
 * plays the UI thread, and the source fails the test if a record, line, JSON or state is read from it.
 * Background work is queued and run on a separate thread only when the test says so, so requests can be
 * superseded before they run.
 */
class OffUiThreadTest {

    private final Thread uiThread = Thread.currentThread();
    private final FakeRecordingSource fake = FakeRecordingSource.generated(21, 3, 3000);
    private final GuardedSource src = new GuardedSource(fake, uiThread);
    private final ManualRunner runner = new ManualRunner();
    private final DocumentViewModel doc = new DocumentViewModel(src, runner);

    @AfterEach
    void stopWorker() {
        runner.worker.shutdownNow();
    }

    // ---- inspector --------------------------------------------------------------------------------

    @Test
    void inspectorShowsAPlaceholderThenTheRecordReadInTheBackground() {
        InspectorViewModel i = new InspectorViewModel(doc, runner);
        runner.drain();
        doc.goTo(1234);
        assertEquals("op 1234 · " + InspectorViewModel.LOADING, i.titleProperty().get(), "placeholder while reading");
        assertEquals(0, src.reads.get(1234), "nothing read yet, and nothing on the UI thread");
        runner.drain();
        assertEquals("op 1234 · vt " + Long.toUnsignedString(fake.record(1234).vt()) + " ns · " + fake.eventLine(1234),
                i.titleProperty().get());
        assertEquals(fake.canonicalJson(1234), i.jsonProperty().get());
        assertTrue(src.reads.get(1234) > 0);
    }

    @Test
    void inspectorDropsSupersededSelections() {
        InspectorViewModel i = new InspectorViewModel(doc, runner);
        runner.drain();
        for (int op = 100; op <= 110; op++) doc.goTo(op);   // the user holds the arrow key
        runner.drain();
        for (int op = 100; op < 110; op++) assertEquals(0, src.reads.get(op), "op " + op + " was superseded before it ran");
        assertTrue(i.titleProperty().get().startsWith("op 110 · vt "), i.titleProperty().get());

        // A result that arrives after the selection moved on is not published.
        doc.goTo(200);
        runner.runBackground();      // read of 200 done, its publication queued
        doc.goTo(300);
        runner.runUi();              // publication of 200 runs: must not show 200
        assertEquals("op 300 · " + InspectorViewModel.LOADING, i.titleProperty().get());
        runner.drain();
        assertTrue(i.titleProperty().get().startsWith("op 300 · vt "), i.titleProperty().get());
        assertEquals(fake.canonicalJson(300), i.jsonProperty().get());
    }

    @Test
    void everyPanelStepsWithoutReadingOnTheUiThread() {
        InspectorViewModel i = new InspectorViewModel(doc, runner);
        StateViewModel state = new StateViewModel(doc, runner);
        FilterViewModel filter = new FilterViewModel(doc, runner);
        SearchViewModel search = new SearchViewModel(doc, filter, runner);
        for (int k = 0; k < 50; k++) doc.step(7);
        filter.payloadTextProperty().set("RPT");
        search.queryProperty().set("recv");
        search.next();
        runner.drain();
        int op = doc.cursor();
        assertTrue(i.titleProperty().get().startsWith("op " + op + " · vt "), i.titleProperty().get());
        assertEquals(op, state.stateProperty().get().op());
    }

    // ---- event lines ------------------------------------------------------------------------------

    @Test
    void missingLinesAreNullUntilTheirBlockArrivesThenTheWholeBlockIsCached() {
        EventLines lines = doc.eventLines();
        long rev = lines.revisionProperty().get();
        for (int op = 300; op < 340; op++) assertNull(lines.lineOrRequest(op), "not read on the UI thread");
        assertEquals(1, runner.background.size(), "one block read for rows of one block");
        runner.drain();
        assertEquals(rev + 1, lines.revisionProperty().get(), "the table is told to redraw");
        int block = 300 / EventLines.BLOCK;
        for (int op = block * EventLines.BLOCK; op < (block + 1) * EventLines.BLOCK; op++) {
            assertEquals(fake.eventLine(op), lines.lineOrRequest(op));
        }
        assertTrue(runner.background.isEmpty(), "cached lines need no read");
        // The last block is short: a log's size need not be a multiple of the block.
        assertNull(lines.lineOrRequest(fake.size() - 1));
        runner.drain();
        assertEquals(fake.eventLine(fake.size() - 1), lines.lineOrRequest(fake.size() - 1));
        assertNull(lines.lineOrRequest(fake.size()), "past the end: nothing to show");
        assertNull(lines.lineOrRequest(-1));
    }

    @Test
    void theCacheStaysBoundedAndReadsAgainWhatItEvicted() {
        EventLines lines = new EventLines(src, runner, 3);
        for (int block = 0; block < 10; block++) {
            lines.lineOrRequest(block * EventLines.BLOCK);
            runner.drain();
            assertTrue(lines.cachedBlocks() <= 3, "at most 3 blocks held, had " + lines.cachedBlocks());
        }
        assertEquals(fake.eventLine(9 * EventLines.BLOCK), lines.lineOrRequest(9 * EventLines.BLOCK));
        assertNull(lines.lineOrRequest(0), "evicted, asked for again");
        runner.drain();
        assertEquals(fake.eventLine(0), lines.lineOrRequest(0));
        assertEquals(2, src.reads.get(0), "block 0 was read twice: once, then again after eviction");
    }

    @Test
    void requestsLeftBehindByFastScrollingAreDropped() {
        EventLines lines = doc.eventLines();
        long rev = lines.revisionProperty().get();
        int blocks = 11;
        for (int block = 0; block < blocks; block++) lines.lineOrRequest(block * EventLines.BLOCK);
        lines.lineOrRequest(5);   // block 0 still on screen: asked for again, so it stays wanted
        runner.drain();
        assertEquals(rev + blocks, lines.revisionProperty().get(), "read or dropped, every request ends with a redraw");
        int keptFrom = blocks - EventLines.KEEP_LATEST;
        assertEquals(fake.eventLine(5), lines.lineOrRequest(5), "renewed request read");
        for (int block = 1; block < blocks; block++) {
            int op = block * EventLines.BLOCK;
            if (block <= keptFrom) {
                assertEquals(0, src.reads.get(op), "block " + block + " fell behind and was not read");
                assertNull(lines.lineOrRequest(op));
            } else {
                assertEquals(fake.eventLine(op), lines.lineOrRequest(op), "recent block " + block + " read");
            }
        }
        runner.drain();
        assertEquals(fake.eventLine(EventLines.BLOCK), lines.lineOrRequest(EventLines.BLOCK), "asked again: read now");
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** Queues both kinds of work; background work runs on a worker thread, UI work on the test thread. */
    private static final class ManualRunner implements TaskRunner {
        final ArrayDeque<Runnable> background = new ArrayDeque<>();
        final ArrayDeque<Runnable> ui = new ArrayDeque<>();
        final ExecutorService worker = Executors.newSingleThreadExecutor();

        @Override public void background(Runnable work) { synchronized (this) { background.add(work); } }
        @Override public void ui(Runnable update) { synchronized (this) { ui.add(update); } }

        /** Runs the queued background work (on the worker, in order) until none is left. */
        void runBackground() {
            while (true) {
                Runnable next;
                synchronized (this) { next = background.poll(); }
                if (next == null) return;
                try {
                    worker.submit(next).get();
                } catch (Exception e) {
                    throw new AssertionError("background work failed", e);
                }
            }
        }

        void runUi() {
            while (true) {
                Runnable next;
                synchronized (this) { next = ui.poll(); }
                if (next == null) return;
                next.run();
            }
        }

        void drain() {
            while (true) {
                runBackground();
                boolean idle;
                synchronized (this) { idle = ui.isEmpty() && background.isEmpty(); }
                if (idle) return;
                runUi();
            }
        }
    }

    /** A source that fails when records, lines, JSON or states are read on the UI thread; counts record reads. */
    private static final class GuardedSource implements RecordingSource {
        final FakeRecordingSource inner;
        final Thread uiThread;
        final AtomicIntegerArray reads;

        GuardedSource(FakeRecordingSource inner, Thread uiThread) {
            this.inner = inner;
            this.uiThread = uiThread;
            this.reads = new AtomicIntegerArray(inner.size());
        }

        private void offUi(String what, int op) {
            if (Thread.currentThread() == uiThread) throw new AssertionError(what + "(" + op + ") called on the UI thread");
            reads.incrementAndGet(op);
        }

        @Override public Path path() { return inner.path(); }
        @Override public LogHeader header() { return inner.header(); }
        @Override public int size() { return inner.size(); }
        @Override public TimelineModel timeline() { return inner.timeline(); }
        @Override public Verification verification() { return inner.verification(); }
        @Override public List<String> availableInvariants() { return inner.availableInvariants(); }
        @Override public LogRecord record(int op) { offUi("record", op); return inner.record(op); }
        @Override public StateSnapshot stateAt(int op) { offUi("stateAt", op); return inner.stateAt(op); }
        @Override public String canonicalJson(int op) { offUi("canonicalJson", op); return inner.canonicalJson(op); }
        @Override public String eventLine(int op) { offUi("eventLine", op); return inner.eventLine(op); }

        @Override
        public List<ViolationInfo> check(Set<String> invariants, Progress progress) {
            if (Thread.currentThread() == uiThread) throw new AssertionError("check called on the UI thread");
            return inner.check(invariants, progress);
        }
    }
}
