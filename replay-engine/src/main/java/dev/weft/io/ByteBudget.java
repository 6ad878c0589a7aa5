package dev.weft.io;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bound on the bytes several writers may produce together (e.g. every reproducer of one fuzz run). A writer
 * wraps its stream with {@link #charge(OutputStream)}; the write that would pass the bound throws
 * {@link Exceeded} instead, so a file written through an {@link AtomicFile} is then discarded whole and the
 * disk never holds more than the bound. Bytes of a discarded file are given back with {@link #refund(long)}.
 */
public final class ByteBudget {

    /** Thrown by the write that would pass the bound; the message names the bound. */
    public static final class Exceeded extends IOException {
        private final long limit;

        Exceeded(long limit) {
            super("over the output bound of " + limit + " bytes");
            this.limit = limit;
        }

        public long limit() {
            return limit;
        }
    }

    public static final ByteBudget UNLIMITED = new ByteBudget(Long.MAX_VALUE);

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    public ByteBudget(long limit) {
        if (limit < 0) throw new IllegalArgumentException("negative byte budget " + limit);
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    public long used() {
        return used.get();
    }

    /** Gives back bytes of output that was discarded. */
    public void refund(long bytes) {
        used.addAndGet(-bytes);
    }

    /** A stream that charges every byte to this budget before passing it on; {@link Charged#charged()} counts them. */
    public Charged charge(OutputStream out) {
        return new Charged(out);
    }

    private void take(long n) throws Exceeded {
        while (true) {
            long u = used.get();
            if (n > limit - u) throw new Exceeded(limit);
            if (used.compareAndSet(u, u + n)) return;
        }
    }

    /** The charging stream of {@link #charge(OutputStream)}. */
    public final class Charged extends FilterOutputStream {
        private long charged;

        Charged(OutputStream out) {
            super(out);
        }

        public long charged() {
            return charged;
        }

        @Override
        public void write(int b) throws IOException {
            take(1);
            charged++;
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            take(len);
            charged += len;
            out.write(b, off, len);
        }
    }
}
