package dev.weft.broker.record;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;

/**
 * A file output whose {@link #flush()} marks a commit point. The log writer flushes after every complete line,
 * so after a failed write (a full disk, a quota) {@link #rollBack()} cuts the file back to the last commit: what
 * stays on disk is whole lines only, which keeps the log a chain-valid prefix instead of ending in half a record.
 *
 * <p>Writes go through a {@link RandomAccessFile}, not a {@code FileChannel}, on purpose: a channel is
 * interruptible, so a broker thread that happened to carry an interrupt (an executor shut down with
 * {@code shutdownNow}, a connection ended from outside) while writing a batch would close the channel and
 * end the whole recording with {@code ClosedByInterruptException}. Classic file I/O ignores interrupts.
 */
public class CommittingFileOutput extends OutputStream {
    private final RandomAccessFile file;
    private long committed;
    private long position;

    /** Takes ownership of {@code file}, positioned at 0 and empty (the caller truncated it). */
    public CommittingFileOutput(RandomAccessFile file) {
        this.file = file;
    }

    /** Creates (or truncates) the file at {@code path}. */
    public static RandomAccessFile openTruncated(java.nio.file.Path path) throws IOException {
        // created through NIO first: its exceptions (NoSuchFileException, AccessDeniedException, ...) are the ones
        // our error texts understand, where RandomAccessFile only has FileNotFoundException with a composite message
        java.nio.file.Files.newByteChannel(path, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING).close();
        RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw");
        try {
            f.setLength(0);
        } catch (IOException e) {
            f.close();
            throw e;
        }
        return f;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int n = writeSome(b, off, len);
            position += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Writes some of {@code b[off, off+len)} at the current position and says how many bytes; a seam for tests
     * that simulate a device running out of space part-way through.
     */
    protected int writeSome(byte[] b, int off, int len) throws IOException {
        file.write(b, off, len);
        return len;
    }

    /** The file's current length on disk. */
    protected long size() throws IOException {
        return file.length();
    }

    /** Everything written so far is a whole unit (a line): remember the position. */
    @Override
    public void flush() {
        committed = position;
    }

    /** Bytes up to the last commit point. */
    public long committed() {
        return committed;
    }

    /** Cuts the file back to the last commit point (dropping any partly written line). */
    public void rollBack() throws IOException {
        file.setLength(committed);
        file.seek(committed);
        position = committed;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
