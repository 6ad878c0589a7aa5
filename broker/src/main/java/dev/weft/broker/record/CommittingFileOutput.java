package dev.weft.broker.record;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A file output whose {@link #flush()} marks a commit point. The log writer flushes after every complete line,
 * so after a failed write (a full disk, a quota) {@link #rollBack()} cuts the file back to the last commit: what
 * stays on disk is whole lines only, which keeps the log a chain-valid prefix instead of ending in half a record.
 */
public class CommittingFileOutput extends OutputStream {
    private final FileChannel channel;
    private long committed;
    private long position;

    public CommittingFileOutput(FileChannel channel) {
        this.channel = channel;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(b, off, len);
        while (bb.hasRemaining()) {
            position += writeSome(bb);
        }
    }

    /** One write to the file; a seam for tests that simulate a device running out of space. */
    protected int writeSome(ByteBuffer bb) throws IOException {
        return channel.write(bb);
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
        channel.truncate(committed);
        channel.position(committed);
        position = committed;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
