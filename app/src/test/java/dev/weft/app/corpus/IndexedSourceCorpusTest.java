package dev.weft.app.corpus;

import dev.weft.testcorpus.SharedCorpus;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.Progress;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.source.StateSnapshot;
import dev.weft.app.source.Verification;
import dev.weft.app.source.ViolationInfo;
import dev.weft.log.Event;
import dev.weft.timeline.MarkKind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every corpus log (but the 1M-record one, which the benchmark opens) through the workbench's source:
 * good logs open complete with the reference's digest and violation count, and the timeline model agrees
 * with the records; bad logs either open up to the problem with the spec's error text, or are refused
 * with that text when nothing can be shown.
 */
class IndexedSourceCorpusTest {

    @TestFactory
    Stream<DynamicTest> everyCorpusLog() {
        return SharedCorpus.index().stream().filter(e -> !e.category().equals("large"))
                .map(e -> DynamicTest.dynamicTest(e.log(), () -> check(e)));
    }

    private static void check(SharedCorpus.Entry e) throws Exception {
        String expectedError = expectedError(e);
        IndexedRecordingSource src;
        try {
            src = IndexedRecordingSource.open(e.path(), Progress.NONE);
        } catch (RecordingOpener.OpenException ex) {
            assertEquals(1, e.replayExit(), "only a failing log may be refused: " + ex.getMessage());
            assertEquals(e.path() + ": " + expectedError, ex.getMessage());
            return;
        }
        try (src) {
            Verification v = src.verification();
            if (e.category().endsWith("-windowed")) {
                assertTrue(v.ok(), "windowed recordings must replay identical (the reference's failure is not ours): " + v);
            } else if (e.replayExit() == 0) {
                assertTrue(v.ok(), v.toString());
                assertEquals(Integer.parseInt(e.ops()), src.size());
                assertEquals(e.digest(), v.digest());
                List<ViolationInfo> found = src.check(Set.of("per-channel-fifo", "no-duplicate-delivery"), Progress.NONE);
                assertEquals(e.checkViolations(), found.size());
                List<ViolationInfo> fifoOnly = src.check(Set.of("fifo"), Progress.NONE);
                assertEquals(found.stream().filter(x -> x.invariant().equals("per-channel-fifo")).toList(), fifoOnly,
                        "re-checking with fewer invariants finds the same fifo violations");
            } else if (!e.divergedAt().isEmpty()) {
                assertEquals(Verification.Status.DIVERGED, v.status());
                assertEquals(Long.parseLong(e.divergedAt()), v.badOp());
            } else {
                assertFalse(v.ok(), "a failing log must not verify");
                if (expectedError.startsWith("I/O error: ")) {
                    // The decoder's own words are informative only (weft-log-v2.md §9); the class is contract.
                    assertTrue(v.message().startsWith("I/O error: "), v.message());
                } else {
                    assertTrue(v.message().contains(expectedError), "error text: expected " + expectedError + " got " + v.message());
                }
                if (v.status() == Verification.Status.READ_ERROR) assertEquals(src.size(), v.badOp(), "shown up to the first bad op");
                else assertEquals(0, v.badOp(), "replay could not start");
            }
            // The timeline model is the records' picture.
            assertEquals(src.size(), src.timeline().size());
            for (int op = 0; op < src.size(); op += Math.max(1, src.size() / 200)) {
                assertEquals(src.record(op).vt(), src.timeline().vt(op));
                assertEquals(MarkKind.of(src.record(op).event()), src.timeline().kind(op));
            }
            if (src.size() > 0 && v.status() != Verification.Status.DIVERGED) {
                StateSnapshot last = src.stateAt(src.size() - 1);
                Event end = src.record(src.size() - 1).event();
                if (end instanceof Event.End en && v.ok()) assertEquals(en.sent(), last.sent());
            }
        }
    }

    /** The error text of the reference's `weft replay` without its tool and path prefix, or "" for none. */
    private static String expectedError(SharedCorpus.Entry e) {
        if (e.replayExit() == 0) return "";
        String stderr = e.sidecar().path("replay").path("stderr").asText("");
        String first = stderr.lines().findFirst().orElse("");
        String prefix = "weft replay: " + e.log() + ": ";
        if (first.startsWith(prefix)) return first.substring(prefix.length());
        if (first.startsWith("weft replay: ")) return first.substring("weft replay: ".length());
        if (stderr.isEmpty()) fail("no stderr in the sidecar of " + e.log());
        return first;
    }
}
