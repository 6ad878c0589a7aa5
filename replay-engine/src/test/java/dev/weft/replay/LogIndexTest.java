package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.CoreState;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stateAt(N) from checkpoints must equal a from-scratch replay to N; records come back exactly as read. */
class LogIndexTest {

    @TempDir
    Path tmp;

    static Path conformance() {
        return dev.weft.testcorpus.SharedCorpus.conformance();
    }

    /**
     * A plain 2,618-op Chord recording of our own corpus: the tests that need any real log run without the reference
     * corpus.
     */
    static Path ownChord() {
        return dev.weft.testcorpus.OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog");
    }

    @Test
    void stateAtEqualsFromScratchReplayOnAChordLog() throws Exception {
        checkAgainstScratch(ownChord(), 64, 40, 1);
    }

    @Test
    void stateAtEqualsFromScratchReplayOnTheLargeGzipLog() throws Exception {
        checkAgainstScratch(conformance().resolve("large/bigflow-1m-fixed1000-s7.weftlog.gz"),
                LogIndex.DEFAULT_CHECKPOINT_EVERY, 25, 7);
    }

    @Test
    void aWindowedLogIndexesCleanly() throws Exception {
        try (LogIndex index = build(conformance().resolve("raft/raft-window1000-fix0-s1.weftlog"), 128)) {
            assertTrue(index.status().ok(), index.status().toString());
        }
    }

    @Test
    void ourOwnWindowedGzipLogsIndexCleanly() throws Exception {
        for (String log : List.of("raft/raft-window1000-fix1-s1.weftlog.gz", "chord/chord-window1000-fix0-s0.weftlog.gz")) {
            try (LogIndex index = build(dev.weft.testcorpus.OwnCorpus.dir().resolve(log), 128)) {
                assertTrue(index.status().ok(), log + ": " + index.status());
            }
        }
    }

    @Test
    void aChainBreakKeepsTheGoodPrefixAndLocatesTheBadRecord() throws Exception {
        try (LogIndex index = build(conformance().resolve("negative/neg-payload-edit-chainbreak-op999.weftlog"), 128)) {
            assertEquals(IndexStatus.Kind.READ_ERROR, index.status().kind());
            assertEquals(999, index.size());
            assertEquals(999, index.status().firstBadOp());
            assertEquals(1001, index.status().line());
            assertEquals("integrity chain broken at op 999: log truncated or edited", index.status().message());
            assertEquals(998, index.record(998).op());
        }
    }

    @Test
    void aSeedChangeIsADivergenceAtTheFirstDifferentFate() throws Exception {
        try (LogIndex index = build(conformance().resolve("negative/neg-header-seed-changed.weftlog"), 16)) {
            assertEquals(IndexStatus.Kind.DIVERGED, index.status().kind());
            assertEquals(6, index.status().firstBadOp());
        }
    }

    @Test
    void aGzipLogIsCachedAsItsDecompressedBytesAndReadsBackLikeThePlainFile() throws Exception {
        // Not in the writers' form: CRLF endings, a blank line, white space between tokens. The cache must hold the
        // decompressed bytes verbatim (offsets are the reader's stream offsets), so every record, its line number,
        // the digest and stateAt come back as from the plain file; closing the index removes the cache.
        Path original = ownChord();
        String text = java.nio.file.Files.readString(original);
        String[] lines = text.split("\n");
        StringBuilder edited = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            String line = i > 0 && i % 7 == 0 ? lines[i].replace(":", ": ") : lines[i];
            edited.append(line).append(i % 3 == 0 ? "\r\n" : "\n");
            if (i == 10) {
                edited.append("\n");
            }
        }
        byte[] plainBytes = edited.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Path plain = tmp.resolve("edited.weftlog");
        java.nio.file.Files.write(plain, plainBytes);
        Path gz = tmp.resolve("edited.weftlog.gz");
        try (var out = new java.util.zip.GZIPOutputStream(java.nio.file.Files.newOutputStream(gz))) {
            out.write(plainBytes);
        }
        Path cacheDir = tmp.resolve("cache");
        try (LogIndex fromPlain = build(plain, 64);
             LogIndex fromGzip = LogIndex.build(gz, List.of("per-channel-fifo", "no-duplicate-delivery"), 64, null,
                     null, () -> false, cacheDir)) {
            assertTrue(fromGzip.status().ok(), fromGzip.status().toString());
            assertEquals(fromPlain.size(), fromGzip.size());
            assertEquals(fromPlain.digest(), fromGzip.digest());
            List<LogRecord> a = fromPlain.records(0, fromPlain.size() - 1);
            List<LogRecord> b = fromGzip.records(0, fromGzip.size() - 1);
            assertEquals(a, b);
            for (int i = 0; i < a.size(); i++) {
                assertEquals(a.get(i).line(), b.get(i).line());
            }
            assertEquals(fromPlain.stateAt(fromPlain.size() - 2), fromGzip.stateAt(fromGzip.size() - 2));
            try (var cached = java.nio.file.Files.list(cacheDir)) {
                List<Path> files = cached.toList();
                assertEquals(1, files.size());
                assertTrue(Arrays.equals(plainBytes, java.nio.file.Files.readAllBytes(files.get(0))));
            }
        }
        try (var cached = java.nio.file.Files.list(cacheDir)) {
            assertEquals(0, cached.count());
        }
    }

    @Test
    void buildingCanBeCancelled() {
        AtomicLong calls = new AtomicLong();
        Path log = conformance().resolve("chord/chord-long450-fix0-s1.weftlog");
        assertThrows(CancellationException.class, () -> LogIndex.build(log, List.of(), 256, null, null,
                () -> calls.incrementAndGet() > 1, tmp));
    }

    @Test
    void recordsPaddedWithHugeWhiteSpaceAreReadBackInBoundedWindows() throws Exception {
        // White space between tokens is outside a record's chain (weft-log-v2.md §7): padding records 1 and the last
        // with more than the read window still verifies, and random access streams those records (folding the
        // white space) instead of reading their byte range whole.
        Path original = ownChord();
        List<String> lines = java.nio.file.Files.readAllLines(original);
        String pad = " ".repeat((int) LogIndex.READ_WINDOW_BYTES + 1);
        List<String> padded = new java.util.ArrayList<>(lines);
        padded.set(2, padded.get(2).replaceFirst("\\{\"op\":", "{" + pad + "\"op\":" + pad));
        int last = padded.size() - 1;
        padded.set(last, padded.get(last).replaceFirst(",", "," + pad));
        Path log = tmp.resolve("padded.weftlog");
        java.nio.file.Files.write(log, padded);
        try (LogIndex plain = build(original, 16); LogIndex index = build(log, 16)) {
            assertTrue(index.status().ok(), index.status().toString());
            assertEquals(plain.size(), index.size());
            assertEquals(plain.digest(), index.digest());
            long n = index.size();
            assertEquals(plain.records(0, n - 1), index.records(0, n - 1));
            assertEquals(plain.record(1), index.record(1));
            assertEquals(plain.record(n - 1), index.record(n - 1));
            assertEquals(plain.stateAt(n - 1), index.stateAt(n - 1));
        }
    }

    @Test
    void aFollowedIndexGrowsAsTheLogIsWrittenAndEqualsTheFinishedOne() throws Exception {
        // A writer appends a real log in random pieces (often mid-line) with pauses; the following index hands each
        // record to its sink as it arrives, never reports a problem, and ends equal to the index of the whole file.
        Path original = ownChord();
        byte[] log = java.nio.file.Files.readAllBytes(original);
        Path growing = tmp.resolve("live.weftlog");
        java.nio.file.Files.createFile(growing);
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        Thread writer = dev.weft.log.GrowingLogWriter.of(log, growing, 7, written);
        List<Long> ops = new java.util.ArrayList<>();
        writer.start();
        try (LogIndex plain = build(original, 16);
             LogIndex followed = LogIndex.follow(growing, List.of("per-channel-fifo", "no-duplicate-delivery"), 16,
                     (r, replayed) -> {
                         // Never ahead of the writer: a record is handed out only once its whole line is in.
                         assertTrue(r.line() <= lineCount(log, written.get()), "record past what was written");
                         ops.add(r.op());
                     }, null, () -> false, tmp, 1, 0)) {
            writer.join();
            assertEquals(dev.weft.log.RecordingState.ENDED, followed.recordingState());
            assertTrue(followed.status().ok(), followed.status().toString());
            assertEquals(plain.size(), followed.size());
            assertEquals(plain.size(), ops.size());
            assertEquals(plain.digest(), followed.digest());
            assertEquals(plain.violations(), followed.violations());
            assertEquals(plain.records(0, plain.size() - 1), followed.records(0, followed.size() - 1));
        }
    }

    /** Complete lines among the first n bytes. */
    private static long lineCount(byte[] log, long n) {
        long lines = 0;
        for (int i = 0; i < n; i++) {
            if (log[i] == '\n') {
                lines++;
            }
        }
        return lines;
    }

    private LogIndex build(Path log, int k) throws Exception {
        return LogIndex.build(log, List.of("per-channel-fifo", "no-duplicate-delivery"), k, null, null, () -> false, tmp);
    }

    /** Replays from op 0 once, snapshotting at sorted random ops, and compares with the index's answers. */
    private void checkAgainstScratch(Path log, int k, int samples, long seed) throws Exception {
        try (LogIndex index = build(log, k)) {
            assertTrue(index.status().ok(), index.status().toString());
            long n = index.size();
            SplittableRandom rnd = new SplittableRandom(seed);
            long[] targets = new long[samples + 3];
            for (int i = 0; i < samples; i++) {
                targets[i] = rnd.nextLong(n);
            }
            targets[samples] = 0;
            targets[samples + 1] = n - 1;
            targets[samples + 2] = Math.min(n - 1, (long) k - 1); // right before a checkpoint boundary
            Arrays.sort(targets);
            try (LogReader reader = LogReader.open(log)) {
                ReplayStepper scratch = ReplayStepper.create(reader.header(), List.of());
                int t = 0;
                LogRecord r;
                while ((r = reader.next()) != null && t < targets.length) {
                    scratch.step(r);
                    while (t < targets.length && targets[t] == r.op()) {
                        CoreState expected = scratch.core().snapshot();
                        assertEquals(expected, index.stateAt(r.op()), "state after op " + r.op());
                        assertEquals(r, index.record(r.op()), "record " + r.op());
                        t++;
                    }
                }
                assertEquals(targets.length, t);
            }
        }
    }
}
