package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.core.Core;
import dev.weft.net.FateSource;

/**
 * What both sequencers share: one ordering lock, the {@link RecordingCore} every operation is applied to under it,
 * the statistics it counts, the recorder it writes to, and the real time of the last request (for idle detection).
 * Subclasses decide the order in which operations reach the core; everything here is the same for both.
 */
abstract class LockedRecordingSequencer implements OpSequencer {

    /** Held while an operation is ordered and applied: the order of applications is the recording's linearization. */
    protected final Object lock = new Object();
    protected final RecordingCore ops;
    protected final Core core;
    protected final BrokerStats stats;
    protected final Recorder recorder;
    /** Set once, under the lock, by {@link #finish()}: the recording is complete. */
    protected boolean finished;
    private volatile long lastOpNanos = System.nanoTime();

    LockedRecordingSequencer(FateSource fault, Recorder recorder) {
        this.ops = new RecordingCore(fault, recorder);
        this.core = ops.core();
        this.stats = ops.stats();
        this.recorder = recorder;
    }

    @Override
    public final long lastOpNanos() {
        return lastOpNanos;
    }

    /** Notes that a request arrived now (real time: only for idle detection, never recorded). */
    protected final void touch() {
        lastOpNanos = System.nanoTime();
    }

    @Override
    public final void addServiceTime(long ns) {
        synchronized (lock) {
            stats.service.add(ns);
        }
    }

    @Override
    public final void countProtocolError() {
        synchronized (lock) {
            stats.protocolErrors++;
        }
    }

    @Override
    public final void drainRecording() {
        recorder.drain();
    }

    @Override
    public final long vt() {
        synchronized (lock) {
            return core.vt();
        }
    }

    /** Completes the recording once (later calls do nothing), then waits until the recorder has written it. */
    @Override
    public final void finish() {
        synchronized (lock) {
            if (finished) {
                return;
            }
            finished = true;
            completeRecordingLocked();
        }
        recorder.drain();
    }

    /** Under the lock, once: applies or closes what is still open and records the end of the log. */
    protected abstract void completeRecordingLocked();
}
