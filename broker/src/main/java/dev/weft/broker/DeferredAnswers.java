package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Answers to held requests, decided under a sequencer's ordering lock and written after it: a node must not see an
 * answer before the record it answers is in the log, and no socket write may happen under the lock.
 *
 * @param <T> one decided answer, with whom it goes to
 */
final class DeferredAnswers<T> {
    private final Object lock;
    private final Recorder recorder;
    private final Consumer<T> write;
    /** Guarded by lock. */
    private List<T> pending = new ArrayList<>();

    /** @param write sends one answer to its waiter (called outside the lock, in the order they were added) */
    DeferredAnswers(Object lock, Recorder recorder, Consumer<T> write) {
        this.lock = lock;
        this.recorder = recorder;
        this.write = write;
    }

    /** Queues an answer; the caller holds the lock. */
    void add(T answer) {
        pending.add(answer);
    }

    /** Whether nothing waits to be written; the caller holds the lock. */
    boolean isEmpty() {
        return pending.isEmpty();
    }

    /** Writes every answer queued so far, once the recorder has drained their records (call without the lock). */
    void flush() {
        List<T> batch;
        synchronized (lock) {
            if (pending.isEmpty()) {
                return;
            }
            batch = pending;
            pending = new ArrayList<>();
        }
        recorder.drain();
        for (T answer : batch) {
            write.accept(answer);
        }
    }
}
