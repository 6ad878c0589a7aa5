package dev.weft.log;

import dev.weft.testcorpus.OwnCorpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Following a recording while it is written: a writer thread appends a real log in random pieces (often ending
 * mid-line) with random pauses; the follower must only ever hand out records that were completely written, all of
 * them verified, never an error, and say "ended" once the end record is in.
 */
class FollowTest {

    /** A multi-node Chord recording of our own corpus (always present), plain text so it can be written in pieces. */
    private static Path corpusLog() {
        return OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog");
    }

    private static List<LogRecord> readAll(Path p) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        try (LogReader r = LogReader.open(p)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                out.add(rec);
            }
        }
        return out;
    }

    /** Records among the first {@code n} bytes of the log: complete lines after the header. */
    private static int completeRecords(byte[] log, long n) {
        int lines = 0;
        for (int i = 0; i < n; i++) {
            if (log[i] == '\n') {
                lines++;
            }
        }
        return Math.max(0, lines - 1);
    }

    /** completeRecords(log, n) for every n, computed once. */
    private static int[] completeRecordsByLength(byte[] log) {
        int[] out = new int[log.length + 1];
        int lines = 0;
        for (int i = 0; i < log.length; i++) {
            out[i] = Math.max(0, lines - 1);
            if (log[i] == '\n') {
                lines++;
            }
        }
        out[log.length] = Math.max(0, lines - 1);
        return out;
    }

    @Test
    void followerSeesExactlyTheRecordsWrittenSoFarThenEnded(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        List<LogRecord> expected = readAll(corpusLog());
        int[] complete = completeRecordsByLength(log);
        Path growing = dir.resolve("live.weftlog");
        Files.createFile(growing);
        AtomicLong written = new AtomicLong();
        Thread writer = GrowingLogWriter.of(log, growing, 20261201L, written);
        List<LogRecord> seen = new ArrayList<>();
        try (LogFollower follower = LogFollower.start(growing, 1, 0)) {
            writer.start();
            boolean sawStillRecording = false;
            while (!follower.isDone()) {
                List<LogRecord> batch = follower.drain();
                long now = written.get();
                seen.addAll(batch);
                assertNull(follower.failure(), () -> "error while following: " + follower.failure().getMessage());
                assertTrue(seen.size() <= complete[(int) now],
                        "handed out " + seen.size() + " records with only " + complete[(int) now] + " written");
                if (follower.state() == RecordingState.STILL_RECORDING) {
                    sawStillRecording = true;
                }
                Thread.sleep(1);
            }
            writer.join();
            seen.addAll(follower.drain());
            assertNull(follower.failure());
            assertEquals(RecordingState.ENDED, follower.state());
            assertTrue(sawStillRecording);
        }
        assertEquals(expected.size(), seen.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), seen.get(i), "record " + i);
        }
    }

    @Test
    void aWriterThatStopsMidLineLeavesATruncatedRecording(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        Path growing = dir.resolve("crashed.weftlog");
        int cut = log.length / 2;
        while (log[cut - 1] == '\n') {
            cut++;
        }
        Files.write(growing, java.util.Arrays.copyOf(log, cut));
        try (LogReader r = LogReader.follow(growing, 1, 0)) {
            int n = 0;
            int records = completeRecords(log, cut);
            while (n < records) {
                assertNotNull(r.next());
                n++;
            }
            assertEquals(RecordingState.STILL_RECORDING, r.recordingState());
            r.writerGone(); // the recorder crashed: its half line is all there is
            WeftLogException e = org.junit.jupiter.api.Assertions.assertThrows(WeftLogException.class, r::next);
            assertEquals(WeftLogException.Kind.MALFORMED, e.kind());
            assertEquals(RecordingState.TRUNCATED, r.recordingState());
        }
    }

    @Test
    void aFileThatShrinksWhileFollowedIsTruncatedNotMixed(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        Path growing = dir.resolve("replaced.weftlog");
        Files.write(growing, java.util.Arrays.copyOf(log, 5000));
        try (LogReader r = LogReader.follow(growing, 1, 0)) {
            assertNotNull(r.next());
            Files.write(growing, new byte[0]);
            WeftLogException e = org.junit.jupiter.api.Assertions.assertThrows(WeftLogException.class, () -> {
                while (r.next() != null) {
                    // read on until the shrink is noticed
                }
            });
            // The message names the line the reader was in when the file shrank under it.
            org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().matches(
                    "I/O error: the log became shorter while it was followed \\(truncated or replaced\\) \\(reading line \\d+\\)"),
                    e.getMessage());
            assertEquals(RecordingState.TRUNCATED, r.recordingState());
        }
    }

    @Test
    void aCompleteLogIsEndedAtOnce() throws Exception {
        try (LogReader r = LogReader.follow(corpusLog(), 1, 0)) {
            assertEquals(readAll(corpusLog()).size(), r.verifyAll());
            assertEquals(RecordingState.ENDED, r.recordingState());
        }
    }
}
