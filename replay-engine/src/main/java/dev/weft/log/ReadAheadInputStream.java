package dev.weft.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads its source on a separate thread into a few large buffers, so that work done by the source
 * (inflating gzip) overlaps with the work of the reader of this stream (parsing, hashing). Bytes, end of
 * stream and errors arrive in exactly the order the source produced them; only the timing differs.
 */
final class ReadAheadInputStream extends InputStream {

    private static final int CHUNK = 1 << 18;
    private static final int CHUNKS = 3;

    /** A filled buffer, or the end of the stream, or the source's failure at this point. */
    private static final class Chunk {
        final byte[] data;
        int length;
        boolean end;
        IOException error;

        Chunk(byte[] data) {
            this.data = data;
        }
    }

    private final InputStream source;
    private final BlockingQueue<Chunk> filled = new ArrayBlockingQueue<>(CHUNKS + 1);
    private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(CHUNKS + 1);
    private final Thread thread;
    private volatile boolean closed;
    private Chunk current;
    private int pos;

    ReadAheadInputStream(InputStream source, String threadName) {
        this.source = source;
        for (int i = 0; i < CHUNKS; i++) {
            free.add(new byte[CHUNK]);
        }
        thread = HelperThreads.startDaemon(this::fillLoop, threadName);
    }

    private void fillLoop() {
        try {
            for (;;) {
                Chunk c = new Chunk(free.take());
                try {
                    while (c.length < c.data.length) {
                        int n = source.read(c.data, c.length, c.data.length - c.length);
                        if (n < 0) {
                            c.end = true;
                            break;
                        }
                        c.length += n;
                    }
                } catch (IOException e) {
                    c.error = e;
                } catch (RuntimeException e) {
                    c.error = new IOException("read failed: " + e, e);
                }
                filled.put(c);
                if (c.end || c.error != null || closed) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** Makes {@link #current} a chunk with unread bytes; false at the end. Throws the source's error in place. */
    private boolean ensureData() throws IOException {
        while (current == null || pos == current.length) {
            if (current != null) {
                if (current.error != null) {
                    throw current.error;
                }
                if (current.end) {
                    return false;
                }
                free.add(current.data);
            }
            try {
                current = filled.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading");
            }
            pos = 0;
        }
        return true;
    }

    @Override
    public int read() throws IOException {
        if (!ensureData()) {
            return -1;
        }
        return current.data[pos++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!ensureData()) {
            return -1;
        }
        int n = Math.min(len, current.length - pos);
        System.arraycopy(current.data, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        HelperThreads.stopAndJoin(thread, filled);
        source.close();
    }
}
