package dev.weft.log;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes taken from a file, for progress: of a gzip file the decompressed offset says nothing about how
 * far through the file the reader is, the compressed bytes read do. One thread reads (the inflating helper), any
 * thread may ask.
 */
final class CountingInputStream extends FilterInputStream {

    private volatile long count;

    CountingInputStream(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count++; // one writer: the volatile only publishes
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            count += n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(n);
        count += skipped;
        return skipped;
    }

    long count() {
        return count;
    }
}
