package dev.weft.replay;

import dev.weft.log.CanonicalJson;
import dev.weft.log.Event;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;

/**
 * The one replay loop: reads each record (verified by the reader), steps it through the broker core, compares the
 * replayed event with the recorded one and keeps the replay's stream digest. `weft replay` ({@link Replayer}) and
 * the index ({@link LogIndex}, which the workbench and its checks use) both drive it; what they do with each record
 * (violation windows; offsets, checkpoints, the gzip cache, progress) lives in their {@link Listener}s.
 *
 * <p>Stepping stops at a replay error, after {@code until}, and (when asked) at the first divergence; reading goes
 * on to the end of the file either way, since a read error anywhere wins over what replay found (as the reference
 * verifies the whole file before replaying). A read error is thrown from {@link #run}, with this loop's counters
 * left as they were before the bad record. How many records were read is the reader's to say
 * ({@link LogReader#recordsRead()}).
 */
final class ReplayLoop {

    /** Sees every record read, in order. */
    interface Listener {
        /** Before {@code record} (the {@code index}-th read, from 0) is stepped; {@code stepping} as it will be. */
        default void before(LogRecord record, long index, boolean stepping) {
        }

        /** After it: {@code replayed} is null when it was not stepped (or its step failed). */
        void after(LogRecord record, Event replayed);
    }

    private final LogReader reader;
    private final ReplayStepper stepper;
    private final boolean stopAtDivergence;
    private final Long until;

    private boolean stepping;
    private long read;
    private long replayed;
    private long digest = Fnv1a.OFFSET_BASIS;
    private Divergence divergence;
    private LogRecord divergedAt;
    private ReplayException replayProblem;
    private LogRecord replayProblemAt;

    /** {@code stepper} null: the header could not be replayed; records are only read. */
    ReplayLoop(LogReader reader, ReplayStepper stepper, boolean stopAtDivergence, Long until) {
        this.reader = reader;
        this.stepper = stepper;
        this.stopAtDivergence = stopAtDivergence;
        this.until = until;
        this.stepping = stepper != null;
    }

    void run(Listener listener) throws WeftLogException {
        LogRecord r;
        while ((r = reader.next()) != null) {
            if (stepping && until != null && Long.compareUnsigned(r.op(), until) > 0) {
                stepping = false;
            }
            listener.before(r, read, stepping);
            Event event = stepping ? step(r) : null;
            listener.after(r, event);
            read++;
        }
    }

    private Event step(LogRecord r) {
        Event event;
        try {
            event = stepper.step(r);
        } catch (ReplayException e) {
            replayProblem = e;
            replayProblemAt = r;
            stepping = false;
            return null;
        }
        replayed++;
        long vt = stepper.vt();
        boolean same = event.equals(r.event()) && vt == r.vt();
        // While the replay reproduces every record, its digest is the reader's digest of the recording (already
        // folded while reading); only a divergent record needs hashing on its own.
        digest = same ? reader.streamDigest() : CanonicalJson.hashRecord(digest, r.op(), vt, event);
        if (!same) {
            if (divergence == null) {
                divergence = new Divergence(r.op(), CanonicalJson.record(r.op(), r.vt(), r.event()),
                        CanonicalJson.record(r.op(), vt, event));
                divergedAt = r;
            }
            if (stopAtDivergence) {
                stepping = false;
            }
        }
        return event;
    }

    /** Records stepped without a replay error. */
    long replayed() {
        return replayed;
    }

    /** Stream digest over the replayed records. */
    long digest() {
        return digest;
    }

    /** The first divergence and the record it happened at, or null. */
    Stop<Divergence> divergence() {
        return divergence == null ? null : new Stop<>(divergence, divergedAt);
    }

    /** The replay error that stopped stepping and its record, or null. */
    Stop<ReplayException> replayProblem() {
        return replayProblem == null ? null : new Stop<>(replayProblem, replayProblemAt);
    }

    /** What stopped (or marked) the replay, and the record where it happened. */
    record Stop<T>(T what, LogRecord at) {
    }
}
