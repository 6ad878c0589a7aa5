package dev.weft.log;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Runs a {@link RecordStream} on its own thread, handing verified records to the consumer in batches
 * through a small bounded queue, so reading (I/O, inflating, parsing, hashing) overlaps with whatever
 * the consumer does per record. The sequence of records, and the first error at its exact position, is
 * the same as when reading on the caller's thread: only the timing differs.
 */
final class BackgroundRecords {

    private static final int BATCH = 1024;
    private static final int QUEUED_BATCHES = 4;

    /** A run of consecutive records with the reader state after each, then possibly the end or an error. */
    static final class Batch extends HandOff {
        final LogRecord[] records = new LogRecord[BATCH];
        final long[] offsets = new long[BATCH];
        final long[] digests = new long[BATCH];
        int size;
    }

    private final RecordStream stream;
    private final BlockingQueue<Batch> queue = new ArrayBlockingQueue<>(QUEUED_BATCHES);
    private final Thread thread;
    private volatile boolean closed;

    BackgroundRecords(RecordStream stream) {
        this.stream = stream;
        this.thread = HelperThreads.startDaemon(this::produce, "weft-log-reader");
    }

    private void produce() {
        try {
            boolean done = false;
            while (!done && !closed) {
                Batch b = new Batch();
                try {
                    while (b.size < BATCH) {
                        LogRecord r = stream.read();
                        if (r == null) {
                            b.last = true;
                            break;
                        }
                        b.records[b.size] = r;
                        b.offsets[b.size] = stream.lastRecordOffset();
                        b.digests[b.size] = stream.digest();
                        b.size++;
                    }
                } catch (WeftLogException e) {
                    b.failWith(e);
                } catch (RuntimeException e) {
                    b.failWith(WeftLogException.io("reader failed: " + e, 0, e));
                }
                done = b.last;
                queue.put(b);
            }
        } catch (InterruptedException e) {
            // closed by the consumer
        }
    }

    /** The next batch, waiting for the reading thread. */
    Batch take() throws WeftLogException {
        return HelperThreads.take(queue);
    }

    /** Stops the reading thread (it may be blocked on a full queue) and waits for it to finish. */
    void close() {
        closed = true;
        HelperThreads.stopAndJoin(thread, queue);
    }
}
