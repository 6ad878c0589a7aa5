package dev.weft.log;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bytes of a file that another process may still be appending to. At the current end of the file a read
 * waits (polling) instead of reporting the end, so a half-written last line is never taken for a complete one;
 * the end is reported only once the reader says the recording has ended ({@link #recordingEnded}) or the writer
 * is declared gone ({@link #writerGone}). A file that becomes shorter than what was read has been truncated or
 * replaced: that is an I/O error, never silently mixed data.
 */
final class TailingInputStream extends InputStream {

    private final FileChannel channel;
    private final long pollMillis;
    private final long idleLimitMillis;
    private long position;
    private volatile boolean ended;
    private volatile boolean writerGone;
    private volatile boolean truncated;
    private volatile boolean closed;

    /** {@code idleLimitMillis} &lt;= 0: wait for ever; else the writer counts as gone after that long without growth. */
    TailingInputStream(Path path, long pollMillis, long idleLimitMillis) throws IOException {
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
        this.pollMillis = Math.max(1, pollMillis);
        this.idleLimitMillis = idleLimitMillis;
    }

    /** The reader has seen the {@code end} record: the next read at the end of the file is the end of the stream. */
    void recordingEnded() {
        ended = true;
    }

    /** The writer will append nothing more: read what is there, then report the end of the stream. */
    void writerGone() {
        writerGone = true;
    }

    boolean wasTruncated() {
        return truncated;
    }

    boolean writerDeclaredGone() {
        return writerGone;
    }

    private final byte[] oneByte = new byte[1];

    @Override
    public int read() throws IOException {
        return read(oneByte, 0, 1) < 0 ? -1 : oneByte[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        long waited = 0;
        for (;;) {
            if (closed) {
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(b, off, len), position);
            if (n > 0) {
                position += n;
                return n;
            }
            if (channel.size() < position) {
                truncated = true;
                throw new IOException("the log became shorter while it was followed (truncated or replaced)");
            }
            if (ended || writerGone) {
                return -1;
            }
            if (idleLimitMillis > 0 && waited >= idleLimitMillis) {
                writerGone = true;
                continue; // one more read: the writer may have appended just now
            }
            try {
                Thread.sleep(pollMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while following the log");
            }
            waited += pollMillis;
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        channel.close();
    }
}
