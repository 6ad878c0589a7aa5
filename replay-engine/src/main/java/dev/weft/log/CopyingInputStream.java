package dev.weft.log;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Hands every byte read through it to a {@link DecompressedCopy} as well (a tee); the bytes read are unchanged. */
final class CopyingInputStream extends FilterInputStream {

    private final DecompressedCopy copy;

    CopyingInputStream(InputStream in, DecompressedCopy copy) {
        super(in);
        this.copy = copy;
    }

    @Override
    public int read() throws IOException {
        int b = in.read();
        if (b >= 0) {
            copy.write(new byte[] {(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            copy.write(b, off, n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Skipped bytes must still reach the copy: read them instead.
        byte[] scratch = new byte[(int) Math.min(n, 8192)];
        int got = read(scratch, 0, scratch.length);
        return Math.max(got, 0);
    }
}
