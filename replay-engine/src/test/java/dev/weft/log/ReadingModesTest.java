package dev.weft.log;

import dev.weft.testcorpus.SharedCorpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The helper threads (chain hashed ahead of the parser, parsing in the background) never change what is
 * read: same records, same reader state after each, same first error at the same place, including when
 * the hash-ahead assumption (canonical lines) breaks in the middle of a log.
 */
class ReadingModesTest {

    private static final boolean[][] MODES = {{false, false}, {false, true}, {true, false}, {true, true}};

    private static Path writeRandomLog(Path dir, String name, long seed, int records) throws Exception {
        RandomEvents gen = new RandomEvents(seed);
        Path log = dir.resolve(name);
        try (LogWriter w = LogWriter.create(log, seed, "latency=fixed:1", 0, LogMeta.EMPTY)) {
            for (int i = 0; i < records; i++) {
                w.append(gen.u64(), gen.event());
            }
        }
        return log;
    }

    /** Reads the log in every mode and checks they agree record by record; returns the outcome text. */
    private static String readInAllModes(Path log) throws Exception {
        String outcome = null;
        List<LogRecord> reference = null;
        for (boolean[] mode : MODES) {
            List<LogRecord> got = new ArrayList<>();
            List<String> states = new ArrayList<>();
            String end;
            LogReader opened;
            try {
                opened = LogReader.open(log, mode[0], mode[1]);
            } catch (WeftLogException e) {
                opened = null;
                end = "on open: " + e.kind() + " " + e.getMessage();
                if (outcome == null) {
                    outcome = end;
                    reference = got;
                } else {
                    assertEquals(outcome, end);
                }
                continue;
            }
            try (LogReader r = opened) {
                try {
                    LogRecord rec;
                    while ((rec = r.next()) != null) {
                        got.add(rec);
                        states.add(r.recordsRead() + " " + r.lastRecordOffset() + " " + r.streamDigest() + " "
                                + r.chain() + " " + r.sawEnd());
                    }
                    end = "ok " + r.recordsRead() + " " + Fnv1a.hex16(r.streamDigest());
                } catch (WeftLogException e) {
                    end = e.kind() + " line " + e.line() + " op " + e.op() + ": " + e.getMessage() + " after " + r.recordsRead();
                    assertEquals(e, assertThrows(WeftLogException.class, r::next));
                }
            }
            if (outcome == null) {
                outcome = end;
                reference = got;
            } else {
                assertEquals(outcome, end, "mode background=" + mode[0] + " hashAhead=" + mode[1]);
                assertEquals(reference, got);
            }
            assertEquals(got.size(), states.size());
        }
        return outcome;
    }

    @Test
    void allModesAgreeOnALargeRandomLog(@TempDir Path dir) throws Exception {
        // Random violation texts with escapes make some lines non-canonical to the parser: the hash-ahead
        // assumption breaks early and the reader must fall back cleanly.
        Path log = writeRandomLog(dir, "random.weftlog", 21, 20000);
        assertEquals("ok 20000", readInAllModes(log).substring(0, 8));
    }

    @Test
    void allModesAgreeOnTheCorpusLogs() throws Exception {
        for (Path log : SharedCorpus.allLogs()) {
            if (!SharedCorpus.relative(log).startsWith("large/")) {
                readInAllModes(log);
            }
        }
    }

    @Test
    void nonCanonicalLineInTheMiddleThenABrokenChain(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("plain.weftlog");
        try (LogWriter w = LogWriter.create(log, 1, "", 0, LogMeta.EMPTY)) {
            for (int i = 0; i < 30000; i++) {
                w.append(i, new Event.Send(1, VAddr.ofNode(0, 1), VAddr.ofNode(1, 1), i, i, "00ff",
                        new SendOutcome.Enqueued(2, i + 5, i)));
            }
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        // Line of op 20000 gets whitespace after '{': same canon (chain still valid), but the line
        // still ends like a canonical one, so only the parser can tell the hash-ahead was wrong.
        lines.set(20001, "{ " + lines.get(20001).substring(1));
        Files.write(log, lines);
        assertEquals("ok 30000", readInAllModes(log).substring(0, 8));
        // Now also break the chain further on: every mode must find it at the same op.
        lines.set(25001, lines.get(25001).replaceFirst("\"chain\":\"[0-9a-f]", "\"chain\":\"g"));
        Files.write(log, lines);
        String outcome = readInAllModes(log);
        assertEquals("CHAIN_BROKEN line 25002 op 25000: integrity chain broken at op 25000: log truncated or edited after 25000",
                outcome);
        // And a malformed line far in, after many blocks of hashing ahead.
        lines.set(25001, "{\"op\":25000,");
        Files.write(log, lines);
        assertEquals("MALFORMED line 25002 op -1", readInAllModes(log).substring(0, 26));
    }

    @Test
    void blankLinesAndCrlfWithHashAhead(@TempDir Path dir) throws Exception {
        Path log = writeRandomLog(dir, "crlf.weftlog", 5, 3000);
        String text = Files.readString(log).replace("\n", "\r\n\n");
        Files.writeString(log, text);
        assertEquals("ok 3000", readInAllModes(log).substring(0, 7));
    }
}
