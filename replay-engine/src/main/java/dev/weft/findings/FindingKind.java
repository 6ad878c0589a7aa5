package dev.weft.findings;

import dev.weft.check.Invariants;
import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.chord.ChordInvariants;
import dev.weft.export.ProtocolViolations;

import java.util.Locale;

/**
 * What sort of thing a finding is, in ranking order: the verdicts about the program (its protocol, its streams, whether
 * it could go on at all) before the network's own invariants, which a real network breaks every day (fifo, dup).
 * The declaration order is the ranking order of kinds within a tier, and the order the findings list groups them in.
 */
public enum FindingKind {
    CHORD("Chord ring", "chord", true),
    RAFT("Raft", "raft", true),
    STREAM("stream integrity", "stream", true),
    DEADLOCK("deadlock", "deadlock", true),
    HISTORY("history", "history", true),
    /** A violation record whose invariant this version does not know: kept among the verdicts, never hidden. */
    OTHER("other recorded", "other", true),
    FIFO("per-channel FIFO", "fifo", false),
    DUPLICATE("duplicate delivery", "dup", false);

    private final String label;
    private final String word;
    private final boolean verdict;

    FindingKind(String label, String word, boolean verdict) {
        this.label = label;
        this.word = word;
        this.verdict = verdict;
    }

    /** How the findings list and the legend name the kind ("Chord ring"). */
    public String label() { return label; }

    /** The kind in scripts' terms: `weft explain --json` prints it ("chord", "fifo", …). */
    public String word() { return word; }

    /** A verdict about the program (protocol, stream, deadlock, history) rather than a network invariant. */
    public boolean verdict() { return verdict; }

    /** The kind of a finding of this invariant name (checker names, violation record names, --check names). */
    public static FindingKind of(String invariant) {
        if (ChordInvariants.NAMES.contains(invariant)) return CHORD;
        if (ProtocolViolations.ELECTION_SAFETY.equals(invariant)) return RAFT;
        String canonical = Invariants.canonicalName(invariant);
        if (PerChannelFifo.NAME.equals(canonical)) return FIFO;
        if (NoDuplicateDelivery.NAME.equals(canonical)) return DUPLICATE;
        String n = invariant.toLowerCase(Locale.ROOT);
        if (n.contains("deadlock")) return DEADLOCK;
        if (n.contains("stream")) return STREAM;
        if (n.contains("history") || n.contains("lineariz")) return HISTORY;
        return OTHER;
    }
}
