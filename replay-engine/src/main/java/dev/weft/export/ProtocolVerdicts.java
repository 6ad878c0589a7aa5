package dev.weft.export;

import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordTimeline;
import dev.weft.log.LogRecord;
import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftReport;

import java.util.List;

/**
 * Runs the Chord and Raft checkers side by side over a recording read once, in file order, and answers the verdict of
 * the one its state reports fit (a Chord report carries identifiers where Raft has role 0..2 and votedFor &ge; -1),
 * placed on ops by {@link ProtocolViolations}. A recording without reports has no protocol verdict.
 */
public final class ProtocolVerdicts {

    /** The case study's identifier bits (chord-check's default, what `weft check chord LOG 6` uses). */
    public static final int CHORD_BITS = 6;

    private final ChordTimeline.Builder chord = new ChordTimeline.Builder(CHORD_BITS);
    private final ChordCheck chordCheck = new ChordCheck(CHORD_BITS);
    private final RaftCheck raft = new RaftCheck();
    private boolean raftShaped = true;
    private long reports;

    public void accept(LogRecord r) {
        chord.accept(r);
        chordCheck.accept(r);
        raft.accept(r);
        RaftReport rr = RaftReport.fromSend(r);
        if (rr != null) {
            reports++;
            if (rr.role() < 0 || rr.role() > 2 || rr.term() < 0 || rr.votedFor() < -1) raftShaped = false;
        }
    }

    /** The protocol checker's violations placed on ops, by op; empty without reports or without a violation. */
    public List<ProtocolViolations.Placed> placed() {
        if (reports == 0) return List.of();
        return raftShaped ? ProtocolViolations.raft(raft.result()) : ProtocolViolations.chord(chord.build(), chordCheck.result());
    }
}
