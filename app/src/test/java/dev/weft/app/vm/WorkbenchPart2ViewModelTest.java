package dev.weft.app.vm;

import dev.weft.testcorpus.SharedCorpus;
import dev.weft.app.source.FakeRecordingSource;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.LoadPhases;
import dev.weft.app.source.Progress;
import dev.weft.app.source.ViolationInfo;
import dev.weft.timeline.MarkKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** View models added with the protocol invariants, ranges, bookmarks and phased progress; toolkit-free. */
class WorkbenchPart2ViewModelTest {

    @Test
    void rangeStatsCountWhatIsInTheRange() {
        FakeRecordingSource src = FakeRecordingSource.generated(5, 4, 3000);
        DocumentViewModel doc = new DocumentViewModel(src, TaskRunner.direct());
        doc.runChecks(false);
        RangeViewModel.Stats s = RangeViewModel.stats(doc, 100, 899);
        assertEquals(800, s.ops());
        long sends = 0, delivered = 0;
        for (int op = 100; op <= 899; op++) {
            MarkKind k = src.timeline().kind(op);
            if (k == MarkKind.SEND) sends++;
            if (k == MarkKind.RECV) delivered++;
        }
        assertEquals(sends, s.count(MarkKind.SEND));
        assertEquals(delivered, s.count(MarkKind.RECV));
        assertEquals(src.record(899).vt() - src.record(100).vt(), s.durationNs());
        assertEquals(doc.violations().stream().filter(v -> v.op() >= 100 && v.op() <= 899).count(), s.violations());
        assertTrue(RangeViewModel.describe(s).startsWith("ops 100–899: 800 ops · "), RangeViewModel.describe(s));
    }

    /** The range of ops 10 to 19 of src, as the workbench's range selection makes it. */
    private static RangeViewModel opsTenToNineteen(FakeRecordingSource src) {
        DocumentViewModel doc = new DocumentViewModel(src, TaskRunner.direct());
        RangeViewModel range = new RangeViewModel(doc, new FilterViewModel(doc, TaskRunner.direct()));
        range.rangeProperty().set(new int[] {10, 19});
        return range;
    }

    /** Issue 28 item 1 (the shared output rule): an export never replaces a directory or what a link names. */
    @Test
    void aRangeExportRefusesADirectoryAndKeepsALink(@TempDir Path dir) throws Exception {
        FakeRecordingSource src = FakeRecordingSource.generated(5, 3, 500);
        RangeViewModel range = opsTenToNineteen(src);
        Path sub = Files.createDirectory(dir.resolve("sub.csv"));
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> range.exportCsv(sub));
        assertEquals(sub + ": Is a directory (os error 21)", e.getMessage());
        assertTrue(Files.isDirectory(sub));
        Path real = Files.writeString(dir.resolve("real.csv"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), real);
        range.exportCsv(link);
        assertTrue(Files.isSymbolicLink(link));
        assertTrue(Files.readString(real).startsWith("op,vt_ns,node,kind,event\n"));
    }

    @Test
    void aRangeExportsAsCsvAndJsonLines(@TempDir Path dir) throws Exception {
        FakeRecordingSource src = FakeRecordingSource.generated(5, 3, 500);
        RangeViewModel range = opsTenToNineteen(src);
        range.exportCsv(dir.resolve("r.csv"));
        range.exportJsonLines(dir.resolve("r.jsonl"));
        List<String> csv = Files.readAllLines(dir.resolve("r.csv"));
        assertEquals("op,vt_ns,node,kind,event", csv.get(0));
        assertEquals(11, csv.size());
        assertTrue(csv.get(1).startsWith("10," + src.record(10).vt() + ","), csv.get(1));
        List<String> jsonl = Files.readAllLines(dir.resolve("r.jsonl"));
        assertEquals(10, jsonl.size());
        assertEquals(src.canonicalJson(19), jsonl.get(9));
    }

    @Test
    void bookmarksLiveInASidecarAndSurviveReopening(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.weftlog");
        Files.writeString(log, "not read here");
        Bookmarks b = new Bookmarks(log);
        b.put(40, "leader elected");
        b.put(7, "first\tsend\nhere");
        assertEquals(List.of(7, 40), b.items().stream().map(Bookmarks.Bookmark::op).toList());
        assertEquals("7\tfirst send here\n40\tleader elected\n", Files.readString(dir.resolve("run.weftlog.bookmarks")));
        assertEquals("not read here", Files.readString(log));
        Bookmarks again = new Bookmarks(log);
        assertEquals(b.items(), again.items());
        again.remove(7);
        again.remove(40);
        assertFalse(Files.exists(dir.resolve("run.weftlog.bookmarks")), "no empty sidecar left behind");
    }

    @Test
    void loadPhasesNameThePhaseAndEstimateTheTimeLeft() {
        String s = LoadPhases.describe(LoadPhases.Phase.READING, 0.5, 500_000, 2_000_000_000L);
        assertTrue(s.startsWith("reading · verifying · indexing — 500,000 records · 46%"), s);
        assertTrue(s.endsWith("about 2 s left"), s);
        assertEquals(-1, LoadPhases.overall(LoadPhases.Phase.READING, -1));
        assertEquals(1.0, LoadPhases.overall(LoadPhases.Phase.CHECKS, 1.0), 1e-9);
        assertTrue(LoadPhases.describe(LoadPhases.Phase.CHECKS, 0, 10, 1).startsWith("checks — 10 records · 92%"));
    }

    @Test
    void openingAGzipLogMovesTheBarThroughNamedPhases(@TempDir Path dir) throws Exception {
        // 22k records, gzipped: the reader cannot say how far it is; the trailer's size estimate can.
        Path log = dir.resolve("long.weftlog.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(log))) {
            Files.copy(SharedCorpus.conformance().resolve("chord/chord-long450-fix0-s1.weftlog"), out);
        }
        List<Double> fractions = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        Progress p = new Progress() {
            @Override public void update(double fraction, String message) {
                fractions.add(fraction);
                messages.add(message);
            }
            @Override public boolean cancelled() { return false; }
        };
        try (var src = IndexedRecordingSource.open(log, p)) {
            assertTrue(src.size() > 0);
        }
        assertTrue(messages.stream().anyMatch(m -> m.startsWith("reading · verifying · indexing")), messages.toString());
        assertTrue(messages.get(messages.size() - 1).startsWith("checks"), messages.toString());
        assertTrue(fractions.stream().allMatch(f -> f >= 0 && f <= 1), "a determinate bar, gzip too: " + fractions);
        assertTrue(fractions.stream().anyMatch(f -> f > 0.05 && f < 0.92), "it moves during reading: " + fractions);
    }

    @Test
    void protocolViolationsReadInPlainWords() {
        assertTrue(ViolationText.plainEnglish(new ViolationInfo("ConnectedAppendages", 933, 0,
                "appendage member 22 cannot reach the ring via best successors")).startsWith("Chord node 22 is alive but cut off"));
        assertTrue(ViolationText.plainEnglish(new ViolationInfo("ElectionSafety", 243, 0,
                "term 1: leaders [2, 1] (second leader at op 243)")).startsWith("Two leaders in term 1: node 2 was elected first, then node 1 at op 243"));
        assertTrue(ViolationText.plainEnglish(new ViolationInfo("OrderedRing", 5, 0,
                "ring member 9 lies between adjacent 1 -> 20")).contains("member 9 lies between 1 and its successor 20"));
    }

    @Test
    void theReplayCommandChecksOnlyWhatReplayCanCheck() {
        assertEquals("weft replay x.weftlog --until 5 --check fifo",
                ReproCommand.replay(Path.of("x.weftlog"), 5, List.of("per-channel-fifo", "ConnectedAppendages")));
        assertEquals("weft replay x.weftlog --until 5", ReproCommand.replay(Path.of("x.weftlog"), 5, List.of("ElectionSafety")));
    }
}
