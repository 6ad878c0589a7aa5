package dev.weft.app.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run panel's counters follow a log as it grows and never count a record whose line is not finished. */
class LogTailTest {

    @Test
    void countsOnlyWholeLinesOfAGrowingLog(@TempDir Path dir) throws Exception {
        Path sample = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(sample.resolve("examples/recordings/sample.weftlog"))) sample = sample.getParent();
        byte[] all = Files.readAllBytes(sample.resolve("examples/recordings/sample.weftlog"));
        Path log = dir.resolve("growing.weftlog");
        LogTail tail = new LogTail(log);
        assertEquals(0, tail.poll().records(), "not created yet");
        long lines = 0;
        int written = 0;
        // Append in uneven slices that cut lines anywhere (inside numbers, inside UTF-8 text, before a newline).
        for (int step = 1; written < all.length; step = step * 7 % 263 + 1) {
            int n = Math.min(step, all.length - written);
            Files.write(log, java.util.Arrays.copyOfRange(all, written, written + n), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            written += n;
            for (int i = written - n; i < written; i++) if (all[i] == '\n') lines++;
            LogTail.Counts c = tail.poll();
            assertEquals(Math.max(0, lines - 1), c.records(), "records after " + written + " bytes (the header is no record)");
            if (c.records() > 0) assertEquals(c.records() - 1, c.lastOp(), "ops are numbered from 0");
            assertFalse(c.ended() && written < all.length, "the end record is the last line");
        }
        LogTail.Counts end = tail.poll();
        assertTrue(end.ended());
        String text = new String(all, StandardCharsets.UTF_8);
        assertEquals(text.split("\"k\":\"send\"", -1).length - 1, end.sends());
        assertEquals(new LogTail(log).poll(), end, "read at once or slice by slice: the same counts");
    }

    /** Records are read by the engine's record parser, as the spec has them: members in any order, white space. */
    @Test
    void readsRecordsAsTheLogFormatAllowsThemNotByTheirUsualKeyOrder(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("reordered.weftlog");
        Files.writeString(log, "{\"format\":\"weft-log\",\"version\":2,\"seed\":1,\"net\":\"reliable\"}\n"
                + "{ \"vt\": 7, \"op\": 0, \"e\": {\"conn\": 0, \"k\": \"connect\"}, \"chain\": \"6726ac40bcdc8aa6\"}\n"
                + "{\"e\":{\"k\":\"violation\",\"invariant\":\"fifo\",\"message\":\"out of order\"},\"op\":1,\"vt\":9,"
                + "\"chain\":\"0000000000000000\"}\n", StandardCharsets.UTF_8);
        LogTail.Counts c = new LogTail(log).poll();
        assertEquals(2, c.records());
        assertEquals(1, c.lastOp());
        assertEquals(9, c.lastVt());
        assertEquals(1, c.violations());
    }
}
