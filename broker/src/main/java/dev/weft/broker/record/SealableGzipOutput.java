package dev.weft.broker.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * One gzip member (RFC 1952) written line by line: every {@link #flush()} sync-flushes the deflater and commits
 * the file. Readers reject a member without its trailer as a whole, so a plain truncation would lose the entire
 * recording; after a failed write {@link #seal()} instead cuts the file back to the last sync point and appends
 * a final empty block plus the trailer (CRC and size of exactly the committed lines), leaving a complete,
 * readable member that holds the chain-valid prefix.
 */
public final class SealableGzipOutput extends OutputStream {
    private static final byte[] HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff};
    /** A final deflate block with no data (fixed Huffman, end-of-block code only), byte-aligned after a sync flush. */
    private static final byte[] FINAL_EMPTY_BLOCK = {0x03, 0x00};

    private final CommittingFileOutput file;
    private final Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final CRC32 crc = new CRC32();
    private final byte[] out = new byte[64 * 1024];
    private long committedCrc;
    private long committedSize;
    private boolean headerWritten;

    public SealableGzipOutput(CommittingFileOutput file) {
        this.file = file;
    }

    @Override
    public void write(int b) {
        pending.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        pending.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        if (!headerWritten) {
            file.write(HEADER);
            headerWritten = true;
        }
        byte[] data = pending.toByteArray();
        pending.reset();
        deflater.setInput(data);
        int n;
        do {
            n = deflater.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
            file.write(out, 0, n);
        } while (n == out.length);
        file.flush();
        crc.update(data);
        committedCrc = crc.getValue();
        committedSize += data.length;
    }

    /** After a failed write: roll the file back to the last sync point and end the member there. */
    public void seal() throws IOException {
        file.rollBack();
        if (!headerWritten) {
            return; // nothing committed: leave an empty file
        }
        file.write(FINAL_EMPTY_BLOCK);
        trailer();
        file.flush();
    }

    /**
     * Normal end: finish the deflate stream, write the trailer and close the file. On a failure the file stays
     * open so that the caller can still {@link #seal()} it.
     */
    @Override
    public void close() throws IOException {
        flush();
        deflater.finish();
        while (!deflater.finished()) {
            int n = deflater.deflate(out);
            file.write(out, 0, n);
        }
        trailer();
        file.flush();
        deflater.end();
        file.close();
    }

    /** Closes the file without writing anything more (after a failure that {@link #seal()} could not repair). */
    public void abandon() throws IOException {
        deflater.end();
        file.close();
    }

    private void trailer() throws IOException {
        byte[] t = new byte[8];
        for (int i = 0; i < 4; i++) {
            t[i] = (byte) (committedCrc >>> (8 * i));
            t[4 + i] = (byte) (committedSize >>> (8 * i));
        }
        file.write(t);
    }
}
