package dev.weft.app.run;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.WeftLogException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Follows a weft-log while {@code weft run} writes it, for the run panel's counters: reads what was appended since
 * the last poll and counts only complete lines (a line without its newline yet is kept for the next poll, so a
 * half-written record is never miscounted or reported). Not a validator: the finished file is opened, verified and
 * replayed like any other.
 */
public final class LogTail {

    /** The figures so far; the counts are of whole records. */
    public record Counts(long records, long lastOp, long lastVt, long sends, long delivered, long dropped,
            long violations, boolean ended) {
        static final Counts NONE = new Counts(0, -1, 0, 0, 0, 0, 0, false);
    }

    private final Path file;
    private long offset;
    /** The bytes of a line not finished yet (kept as bytes: a read may end inside a UTF-8 character). */
    private final java.io.ByteArrayOutputStream partial = new java.io.ByteArrayOutputStream();
    private long records;
    private long lastOp = -1;
    private long lastVt;
    private long sends;
    private long delivered;
    private long dropped;
    private long violations;
    private boolean ended;

    public LogTail(Path file) {
        this.file = file;
    }

    /** Reads what was appended since the last call; a missing file (not created yet) counts as empty. */
    public Counts poll() throws IOException {
        if (!Files.isRegularFile(file)) return counts();
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long size = f.length();
            if (size < offset) {   // rewritten from the start (a new run to the same path)
                reset();
            }
            f.seek(offset);
            byte[] buf = new byte[1 << 16];
            while (offset < size) {
                int n = f.read(buf, 0, (int) Math.min(buf.length, size - offset));
                if (n <= 0) break;
                offset += n;
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        partial.write(buf, start, i - start);
                        line(partial.toByteArray());
                        partial.reset();
                        start = i + 1;
                    }
                }
                partial.write(buf, start, n - start);
            }
        }
        return counts();
    }

    public Counts counts() {
        return new Counts(records, lastOp, lastVt, sends, delivered, dropped, violations, ended);
    }

    private void reset() {
        offset = 0;
        partial.reset();
        records = sends = delivered = dropped = violations = lastVt = 0;
        lastOp = -1;
        ended = false;
    }

    /**
     * One whole line, read by the engine's own record parser (the log format has one reader): the header and any
     * line that is not a record are skipped, records are counted by their event.
     */
    private void line(byte[] l) {
        LogRecord r;
        try {
            r = LogReader.parseRecordLine(l, 0, l.length, records + 2);
        } catch (WeftLogException notARecord) {
            return;
        }
        records++;
        lastOp = r.op();
        lastVt = r.vt();
        Event e = r.event();
        if (e instanceof Event.Send send) {
            sends++;
            if (send.outcome() instanceof SendOutcome.Dropped) dropped++;
        } else if (e instanceof Event.Recv recv && recv.outcome() instanceof RecvOutcome.Delivered) {
            delivered++;
        } else if (e instanceof Event.Violation) {
            violations++;
        } else if (e instanceof Event.End) {
            ended = true;
        }
    }
}
