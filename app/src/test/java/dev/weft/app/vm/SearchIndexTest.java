package dev.weft.app.vm;

import dev.weft.app.source.FakeRecordingSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The search index answers exactly what matching every record would, and the status line follows the query. */
class SearchIndexTest {

    private final FakeRecordingSource src = FakeRecordingSource.generated(11, 4, 3000);
    private static final String[] QUERIES = {"send", "recv", "rpt", "5250", "conn 2 ", "→", "tie 1", "dropped",
            "empty", "no such text", "RPT 1".toLowerCase(Locale.ROOT), "0 "};

    private int[] naive(String lower) {
        return IntStream.range(0, src.size())
                .filter(op -> EventText.matches(src.eventLine(op), src.record(op), lower)).toArray();
    }

    @Test
    void findsWhatMatchingEveryRecordFinds() throws Exception {
        // Small chunks (many boundaries) and a payload cap that sends most payloads down the read-at-query-time path.
        for (int[] shape : new int[][] {{1 << 20, 64}, {700, 64}, {1 << 20, 2}, {333, 1}}) {
            SearchIndex index = SearchIndex.build(src, shape[0], shape[1], f -> { }, () -> false);
            for (String q : QUERIES) {
                assertArrayEquals(naive(q), index.find(q, f -> { }, () -> false), q + " with chunks " + shape[0]
                        + " and payloads up to " + shape[1]);
            }
        }
    }

    @Test
    void aLineTooLongToCopyIsMatchedAgainstItsRecord() throws Exception {
        java.util.List<dev.weft.log.LogRecord> recs = new java.util.ArrayList<>(FakeRecordingSource.generate(3, 2, 200));
        String longMessage = "x".repeat(SearchIndex.MAX_LINE_BYTES) + " the needle at its end";
        dev.weft.log.LogRecord last = recs.get(recs.size() - 1);
        recs.add(new dev.weft.log.LogRecord(recs.size(), last.vt(), new dev.weft.log.Event.Violation("inv", longMessage), 0, 0));
        recs.add(new dev.weft.log.LogRecord(recs.size(), last.vt(), new dev.weft.log.Event.Violation("inv", "short needle"), 0, 0));
        FakeRecordingSource withLong = new FakeRecordingSource(java.nio.file.Path.of("long.weftlog"), recs,
                dev.weft.app.source.Verification.verified("0123456789abcdef")) {
            @Override public String eventLine(int op) {   // the fake's own lines leave a violation's message out
                return record(op).event() instanceof dev.weft.log.Event.Violation v ? v.message() : super.eventLine(op);
            }
        };
        SearchIndex index = SearchIndex.build(withLong, f -> { }, () -> false);
        assertArrayEquals(new int[] {recs.size() - 2, recs.size() - 1}, index.find("needle", f -> { }, () -> false));
        assertArrayEquals(new int[] {recs.size() - 2}, index.find("the needle at", f -> { }, () -> false));
    }

    @Test
    void aMatchNeverSpansTwoOps() throws Exception {
        SearchIndex index = SearchIndex.build(src, f -> { }, () -> false);
        // Each line ends one op and the next begins: "connected" then "conn" can only match across a boundary.
        String joined = src.eventLine(0).toLowerCase(Locale.ROOT).substring(src.eventLine(0).length() - 3)
                + src.eventLine(1).toLowerCase(Locale.ROOT).substring(0, 3);
        assertArrayEquals(naive(joined), index.find(joined, f -> { }, () -> false));
    }

    @Test
    void aNewQueryNeverShowsTheLastAnswerAndTheIndexingShowsProgress() {
        Deferred runner = new Deferred();
        DocumentViewModel doc = new DocumentViewModel(src, runner);
        SearchViewModel search = new SearchViewModel(doc, new FilterViewModel(doc, TaskRunner.direct()), runner);
        search.queryProperty().set("send");
        search.next();
        assertTrue(search.statusProperty().get().startsWith("indexing for search… "), search.statusProperty().get());
        runner.drain();
        int sends = naive("send").length;
        assertTrue(search.statusProperty().get().endsWith(sends + " matches"), search.statusProperty().get());
        assertEquals(sends, search.matchesProperty().get().length);

        search.queryProperty().set("recv");   // typed, not searched yet
        assertEquals("", search.statusProperty().get(), "the count for \"send\" is gone");
        assertEquals(0, search.matchesProperty().get().length);
        search.next();
        assertEquals("searching…", search.statusProperty().get(), "the index is built: straight to the scan");
        runner.drain();
        int recvs = naive("recv").length;
        assertTrue(search.statusProperty().get().endsWith(recvs + " matches"), search.statusProperty().get());
        assertTrue(Arrays.stream(search.matchesProperty().get()).allMatch(op -> src.eventLine(op).contains("recv")));
    }

    /** Queues all work; drain runs it in order on the test thread. */
    private static final class Deferred implements TaskRunner {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        @Override public void background(Runnable work) { queue.add(work); }
        @Override public void ui(Runnable update) { queue.add(update); }

        void drain() {
            for (Runnable r; (r = queue.poll()) != null; ) r.run();
        }
    }
}
