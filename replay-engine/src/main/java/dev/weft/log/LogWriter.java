package dev.weft.log;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a weft-log v2 exactly as the reference writer does (§2-§4, §8, §11): canonical compact JSON,
 * one line per record, each line flushed as it is written; gzip (one member, sync flush per line,
 * trailer on close) when asked to.
 */
public final class LogWriter implements Closeable, Flushable {

    private final OutputStream out;
    private final CanonBytes canon = new CanonBytes();
    private final LogHeader header;
    private long chain;
    private long count;

    private LogWriter(OutputStream out, long seed, String net, long windowNs, LogMeta meta) throws IOException {
        this.out = out;
        LogMeta m = meta == null ? LogMeta.EMPTY : meta;
        canon.header(seed, net, windowNs, m);
        this.header = new LogHeader(canon.text(), LogHeader.FORMAT, LogHeader.VERSION, seed, net, windowNs, m);
        chain = Fnv1a.update(Fnv1a.OFFSET_BASIS, canon.bytes(), 0, canon.length());
        writeLine(true);
    }

    /** Creates (or truncates) the file; gzip iff the file name ends in {@code .gz}. */
    public static LogWriter create(Path path, long seed, String net, long windowNs, LogMeta meta) throws IOException {
        boolean gzip = path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
        OutputStream os = Files.newOutputStream(path);
        try {
            return create(os, gzip, seed, net, windowNs, meta);
        } catch (IOException | RuntimeException e) {
            os.close();
            throw e;
        }
    }

    public static LogWriter create(OutputStream os, boolean gzip, long seed, String net, long windowNs, LogMeta meta)
            throws IOException {
        OutputStream target = gzip ? new GZIPOutputStream(os, 1 << 16, true) : os;
        return new LogWriter(target, seed, net, windowNs, meta);
    }

    public LogHeader header() {
        return header;
    }

    /** Appends the next record (op = records so far), computes its chain, writes and flushes the line. */
    public LogRecord append(long vt, Event e) throws IOException {
        if (e instanceof Event.Hello h && (h.node() < 0 || h.node() > 0xFFFF_FFFFL)) {
            // readers reject a node outside u32 (§2), so never write one
            throw new IllegalArgumentException("hello node out of u32 range: " + Long.toUnsignedString(h.node()));
        }
        long op = count;
        canon.reset();
        canon.record(op, vt, e);
        chain = Fnv1a.update(chain, canon.bytes(), 0, canon.length());
        canon.chainAndNewline(chain);
        writeLine(false);
        count = op + 1;
        return new LogRecord(op, vt, e, chain, op + 2);
    }

    private void writeLine(boolean addNewline) throws IOException {
        out.write(canon.bytes(), 0, canon.length());
        if (addNewline) {
            out.write('\n');
        }
        out.flush();
    }

    /** Records written so far. */
    public long count() {
        return count;
    }

    /** The integrity chain value through the last written record. */
    public long chain() {
        return chain;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
