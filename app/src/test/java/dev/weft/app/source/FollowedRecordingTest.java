package dev.weft.app.source;

import dev.weft.log.RecordingState;
import dev.weft.testsupport.GrowingFile;
import dev.weft.testcorpus.SharedCorpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Following a recording while it is written, below the UI: what each snapshot holds and how following stops. */
class FollowedRecordingTest {

    /** Looked up per test, so the test is skipped, not failed, without the reference corpus. */
    private static Path corpusLog() {
        return SharedCorpus.conformance().resolve("chord/chord-fix0-s2-violation.weftlog");
    }
    private static final Set<String> FIFO_DUP = Set.of("per-channel-fifo", "no-duplicate-delivery");

    @Test
    void aHalfWrittenLogShowsItsCompleteRecordsThenEndsAsAPlainOpen(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        // Hold half-way through a line: that line is not a record yet, and not an error either.
        int hold = GrowingFile.afterLines(log, 1201) + 17;
        Path live = dir.resolve("live.weftlog");
        GrowingFile writer = GrowingFile.start(log, live, 11L, 3000, 2, hold);
        try (FollowedRecording f = FollowedRecording.start(live, 5, () -> { })) {
            assertTrue(writer.awaitHeld(30));
            RecordingSource half = awaitSize(f, 1200);
            assertEquals(1200, half.size(), "every complete record, not the cut-off line");
            assertNull(f.outcome(), "still following");
            assertTrue(half.verification().ok());
            assertEquals(Verification.Status.RECORDING, half.verification().status());
            try (IndexedRecordingSource plain = IndexedRecordingSource.open(corpusLog(), Progress.NONE)) {
                // The snapshot answers as the finished recording does for the ops it has.
                for (int op : new int[] {0, 1, 599, 1199}) {
                    assertEquals(plain.canonicalJson(op), half.canonicalJson(op));
                    assertEquals(plain.stateAt(op), half.stateAt(op), "state after op " + op);
                }
                assertEquals(plain.stateAt(300), half.stateAt(300), "a later query after an earlier one replays again");
                List<ViolationInfo> all = plain.check(FIFO_DUP, Progress.NONE);
                List<ViolationInfo> before = all.stream().filter(v -> v.op() < 1200).toList();
                assertFalse(before.isEmpty(), "the log violates fifo before op 1200");
                assertEquals(before, half.check(FIFO_DUP, Progress.NONE));
                assertEquals(before.stream().filter(v -> v.invariant().equals("per-channel-fifo")).toList(),
                        half.check(Set.of("per-channel-fifo"), Progress.NONE));
                assertEquals(plain.timeline().vt(1199), half.timeline().vt(1199));

                writer.release();
                assertTrue(f.awaitStopped(30_000));
                writer.join(10);
                FollowedRecording.Outcome o = f.outcome();
                assertEquals(RecordingState.ENDED, o.state());
                assertFalse(o.failed());
                RecordingSource done = assertInstanceOf(IndexedRecordingSource.class, o.source());
                assertEquals(plain.size(), done.size());
                assertEquals(plain.verification(), done.verification());
                assertEquals(all, done.check(FIFO_DUP, Progress.NONE));
                assertTrue(o.message().startsWith("live.weftlog: recording ended — " + String.format("%,d", plain.size())
                        + " records · verified, digest " + plain.verification().digest()), o.message());
                done.close();
            }
        }
    }

    @Test
    void aTruncatedFileStopsFollowingWithTheRecordsReadAndTheFileNamed(@TempDir Path dir) throws Exception {
        Path live = dir.resolve("cut.weftlog");
        try (FollowedRecording f = followFirst(500, live)) {
            Files.write(live, Arrays.copyOf(Files.readAllBytes(corpusLog()), 100));   // the recorder started over
            assertTrue(f.awaitStopped(30_000));
            FollowedRecording.Outcome o = f.outcome();
            assertEquals(RecordingState.TRUNCATED, o.state());
            assertTrue(o.failed());
            assertEquals(500, o.source().size(), "what was read stays");
            assertTrue(o.message().startsWith("stopped following " + live + ": "), o.message());
            assertTrue(o.message().contains("truncated or replaced"), o.message());
        }
    }

    @Test
    void aReplacedFileStopsFollowingAndSaysSo(@TempDir Path dir) throws Exception {
        Path live = dir.resolve("moved.weftlog");
        try (FollowedRecording f = followFirst(300, live)) {
            Path other = dir.resolve("other.weftlog");
            Files.copy(corpusLog(), other);
            Files.move(other, live, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            f.checkFile();
            assertTrue(f.awaitStopped(30_000));
            FollowedRecording.Outcome o = f.outcome();
            assertEquals(RecordingState.TRUNCATED, o.state());
            assertEquals("stopped following: " + live + " was replaced by another file — showing the 300 records read before",
                    o.message());
            assertEquals(300, o.source().size());
        }
    }

    @Test
    void stoppingKeepsWhatWasReadWithoutCallingItAnError(@TempDir Path dir) throws Exception {
        Path live = dir.resolve("idle.weftlog");
        try (FollowedRecording f = followFirst(50, live)) {
            f.stop();
            assertTrue(f.awaitStopped(30_000));
            FollowedRecording.Outcome o = f.outcome();
            assertEquals(RecordingState.STILL_RECORDING, o.state());
            assertFalse(o.failed());
            assertEquals(50, o.source().size());
            assertEquals("stopped following idle.weftlog at 50 records (it may still be recording)", o.message());
        }
    }

    @Test
    void aMissingFileIsRefusedByName(@TempDir Path dir) {
        Path none = dir.resolve("none.weftlog");
        RecordingOpener.OpenException e = org.junit.jupiter.api.Assertions.assertThrows(RecordingOpener.OpenException.class,
                () -> FollowedRecording.start(none, 5, () -> { }));
        assertEquals(none + ": no such file", e.getMessage());
    }

    /**
     * Writes the header and the first {@code records} records of the corpus log, plus a few bytes of the next line
     * (a writer caught mid-line), to {@code live}, and follows it until all of them are read.
     */
    private static FollowedRecording followFirst(int records, Path live) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        Files.write(live, Arrays.copyOf(log, GrowingFile.afterLines(log, records + 1) + 5));
        FollowedRecording f = FollowedRecording.start(live, 5, () -> { });
        awaitSize(f, records);
        return f;
    }

    /** Polls snapshots until one has {@code n} records (never more: the writer holds or stops there). */
    private static RecordingSource awaitSize(FollowedRecording f, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            RecordingSource s = f.snapshot();
            if (s != null && s.size() >= n) {
                Thread.sleep(50);   // would a record too many turn up?
                RecordingSource again = f.snapshot();
                assertEquals(n, again.size());
                return again;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no snapshot of " + n + " records within 30 s (have " + f.size() + ")");
    }
}
