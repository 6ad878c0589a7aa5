package dev.weft.app.vm;

import dev.weft.app.source.FakeRecordingSource;
import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.timeline.MarkKind;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** State panel, filters, search, inspector and summary view models, all without a toolkit. */
class PanelsViewModelTest {

    private final FakeRecordingSource src = FakeRecordingSource.generated(5, 3, 800);
    private final TaskRunner direct = TaskRunner.direct();
    private final DocumentViewModel doc = new DocumentViewModel(src, direct);

    private int firstOp(java.util.function.Predicate<Event> p) {
        for (int op = 0; op < src.size(); op++) if (p.test(src.record(op).event())) return op;
        throw new AssertionError("no such event");
    }

    @Test
    void statePanelMarksWhatThisOpAddedAndRemoved() {
        StateViewModel state = new StateViewModel(doc, direct);
        int enq = firstOp(e -> e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued);
        doc.goTo(enq);
        long tie = ((SendOutcome.Enqueued) ((Event.Send) src.record(enq).event()).outcome()).tie();
        assertTrue(state.rows().stream().anyMatch(r -> r.section().equals("pending") && r.key().endsWith("tie " + tie)
                && r.change() == StateViewModel.Change.ADDED));
        int recv = firstOp(e -> e instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered);
        doc.goTo(recv);
        long rtie = ((RecvOutcome.Delivered) ((Event.Recv) src.record(recv).event()).outcome()).tie();
        assertTrue(state.rows().stream().anyMatch(r -> r.key().endsWith("tie " + rtie) && r.change() == StateViewModel.Change.REMOVED));
        assertEquals(src.record(recv).vt(), state.stateProperty().get().vt());
        long added = state.rows().stream().filter(r -> r.change() == StateViewModel.Change.ADDED).count();
        assertEquals(0, added, "a receive adds nothing");
    }

    @Test
    void steppingForwardFetchesOneStatePerStep() {
        StateViewModel state = new StateViewModel(doc, direct);
        doc.goTo(100);
        int before = src.stateCalls;
        for (int i = 0; i < 10; i++) doc.step(1);
        assertEquals(10, src.stateCalls - before, "one replay per step, the previous state is reused");
        assertEquals(110, state.stateProperty().get().op());
        doc.goTo(300);
        assertEquals(300, state.stateProperty().get().op());
    }

    @Test
    void filtersHideNodesKindsRangesAndPayloads() {
        FilterViewModel f = new FilterViewModel(doc, direct);
        assertEquals(800, f.visibleOps().size());
        f.setLaneHidden(1, true);
        for (int op : f.visibleOps()) assertTrue(src.timeline().lane(op) != 1);
        int shown = f.visibleOps().size();
        int lane1 = 0;
        for (int op = 0; op < 800; op++) if (src.timeline().lane(op) == 1) lane1++;
        assertEquals(800 - lane1, shown);
        f.setKindHidden(MarkKind.RECV_EMPTY, true);
        for (int op : f.visibleOps()) assertTrue(src.timeline().kind(op) != MarkKind.RECV_EMPTY);
        f.opFromProperty().set(100L);
        f.opToProperty().set(199L);
        for (int op : f.visibleOps()) assertTrue(op >= 100 && op <= 199);
        f.clear();
        assertEquals(800, f.visibleOps().size());
        f.payloadTextProperty().set("rpt 1 2");
        assertTrue(f.visibleOps().size() > 0);
        for (int op : f.visibleOps()) assertTrue(src.record(op).event() instanceof Event.Send);
        assertEquals(f.visibleOps().rowOf(f.visibleOps().op(3)), 3);
    }

    @Test
    void searchFindsNextAndPreviousAndWraps() {
        FilterViewModel f = new FilterViewModel(doc, direct);
        SearchViewModel s = new SearchViewModel(doc, f, direct);
        s.queryProperty().set("no_receiver");
        s.next();
        int first = doc.cursor();
        assertTrue(src.eventLine(first).contains("no_receiver"));
        s.next();
        int second = doc.cursor();
        assertTrue(second > first);
        s.previous();
        assertEquals(first, doc.cursor());
        s.previous();
        assertTrue(doc.cursor() > second, "wraps around to the last match");
        s.queryProperty().set("nothing like this");
        s.next();
        assertEquals("no event matches \"nothing like this\"", doc.messageProperty().get());
    }

    @Test
    void inspectorShowsJsonHexAndDecodedReport() {
        InspectorViewModel i = new InspectorViewModel(doc, direct);
        int send = firstOp(e -> e instanceof Event.Send);
        doc.goTo(send);
        assertTrue(i.titleProperty().get().startsWith("op " + send + " "));
        assertEquals(src.canonicalJson(send), i.jsonProperty().get());
        assertTrue(i.hexDumpProperty().get().startsWith("0000  52 50 54 20"), i.hexDumpProperty().get());
        assertTrue(i.hexDumpProperty().get().contains("|RPT 1 2 1 3 4 5 |"));
        // "RPT 1 2 1 3 4 5" has role 4, which no Raft node sends: the recording reads as Chord, and only as Chord.
        assertEquals("Chord report: ident 1, date 2, alive true, succ 3, succ2 4, pred 5", i.decodedProperty().get());
        doc.goTo(0);
        assertEquals("(no payload)", i.hexDumpProperty().get());
    }

    @Test
    void reportParsingFollowsTheSpecRules() {
        assertNotNull(PayloadText.parseReport(hex("RPT 1 -2 +3 4 5 6 extra")));
        assertNull(PayloadText.parseReport(hex("RPT 1 2 3 4 5")));
        assertNull(PayloadText.parseReport(hex("RPX 1 2 3 4 5 6")));
        assertNull(PayloadText.parseReport(hex("RPT 1 2 3 4 5 99999999999")));
        assertNull(PayloadText.parseReport("abc"));
        assertEquals(-1, PayloadText.parseReport(hex("RPT 0 0 0 0 0 -1")).fields()[5]);
    }

    @Test
    void summaryCountsTraffic() {
        SummaryViewModel s = new SummaryViewModel(doc);
        assertEquals(800, s.ops());
        long sends = 0;
        for (int op = 0; op < 800; op++) if (src.record(op).event() instanceof Event.Send) sends++;
        assertEquals(sends, s.sent());
        assertTrue(s.dropped() > 0 && s.noReceiver() > 0 && s.delivered() > 0);
        assertEquals("CLEAN", s.verdict());
        doc.runChecks(false);
        assertEquals("VIOLATED", s.verdict());
        assertFalse(s.verificationText().isEmpty());
    }

    @Test
    void aDeadlockVerdictInTheLogIsTheRunsVerdictAndItsMarkStaysVisible() {
        FakeRecordingSource dead = FakeRecordingSource.generated(5, 3, 50).withRecordedViolations(List.of(
                new dev.weft.app.source.ViolationInfo("deadlock", 48, 7, "node 0 waits in recv on 127.0.0.1:9000")));
        DocumentViewModel d = new DocumentViewModel(dead, direct);
        SummaryViewModel s = new SummaryViewModel(d);
        assertEquals("DEADLOCK", s.verdict());
        assertEquals("the run ended in a deadlock at op 48: node 0 waits in recv on 127.0.0.1:9000", s.verdictDetail());
        assertEquals(0, d.recordedViolationOpsHidden().length);
        assertEquals("CLEAN", new SummaryViewModel(new DocumentViewModel(FakeRecordingSource.generated(5, 3, 50), direct))
                .verdict());
    }

    /**
     * The Redis lost write (examples/recordings/redis-lost-write): no invariant breaks, but the history beside the
     * recording loses an add. The verdict counts that finding as the Findings list and the violation bar do, and the
     * workbench places it where `weft explain` does (one rule, dev.weft.findings.RecordingHistory).
     */
    @Test
    void aHistoryFindingIsTheRunsVerdict(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath();
        while (!java.nio.file.Files.isDirectory(here.resolve("examples/recordings/redis-lost-write"))) here = here.getParent();
        for (String name : new String[] {"lost-write.weftlog.gz", "lost-write.history.jsonl"}) {
            java.nio.file.Files.copy(here.resolve("examples/recordings/redis-lost-write").resolve(name), dir.resolve(name));
        }
        java.nio.file.Path log = dir.resolve("lost-write.weftlog.gz");
        try (var redis = dev.weft.app.source.IndexedRecordingSource.open(log, dev.weft.app.source.Progress.NONE)) {
            DocumentViewModel d = new DocumentViewModel(redis, direct);
            SummaryViewModel s = new SummaryViewModel(d);
            d.runChecks(false);
            assertTrue(d.violations().isEmpty(), d.violations().toString());
            assertEquals("VIOLATED", s.verdict());
            assertEquals("1 violation(s): history:set ×1", s.verdictDetail());
            List<dev.weft.findings.Finding> explained = dev.weft.findings.RecordingFindings.read(log).findings().stream()
                    .filter(f -> f.invariant().startsWith(DocumentViewModel.HISTORY_PREFIX)).toList();
            assertEquals(explained, d.historyFindings(), "weft explain lists the workbench's history finding");
        }
    }

    private static String hex(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) sb.append(String.format("%02x", b));
        return sb.toString();
    }
}
