package dev.weft.app.run;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
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
                        line(partial.toString(StandardCharsets.UTF_8));
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

    /** One whole line: the header has no "op"; records are counted by kind from their fixed key order. */
    private void line(String l) {
        long op = number(l, "{\"op\":");
        if (op < 0) return;
        records++;
        lastOp = op;
        long vt = number(l, ",\"vt\":");
        if (vt >= 0) lastVt = vt;
        if (l.contains("\"k\":\"send\"")) {
            sends++;
            if (l.contains("\"kind\":\"dropped\"") || l.contains("\"kind\":\"drop")) dropped++;
        } else if (l.contains("\"k\":\"recv\"") && l.contains("\"kind\":\"delivered\"")) {
            delivered++;
        } else if (l.contains("\"k\":\"violation\"")) {
            violations++;
        } else if (l.contains("\"k\":\"end\"")) {
            ended = true;
        }
    }

    private static long number(String l, String key) {
        int at = l.indexOf(key);
        if (at < 0 || (key.startsWith("{") && at != 0)) return -1;
        int i = at + key.length();
        long v = 0;
        int digits = 0;
        while (i < l.length() && Character.isDigit(l.charAt(i)) && digits < 19) {
            v = v * 10 + (l.charAt(i++) - '0');
            digits++;
        }
        return digits == 0 ? -1 : v;
    }
}
