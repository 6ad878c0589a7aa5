package dev.weft.findings;

import dev.weft.check.Invariants;
import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What sort of thing a finding is, in ranking order: the verdicts about the program (its protocol, its streams, whether
 * it could go on at all) before the network's own invariants, which a real network breaks every day (fifo, dup).
 * Each registered protocol has one kind, first, in {@link Protocols#all()}' order (by name); the generic kinds follow in the order
 * declared here. That order is the ranking order of kinds within a tier and the order the findings list groups them in.
 * There is exactly one instance of each kind, so kinds compare with {@code ==}.
 */
public final class FindingKind implements Comparable<FindingKind> {

    public static final FindingKind STREAM = new FindingKind("stream integrity", "stream", true, false);
    public static final FindingKind DEADLOCK = new FindingKind("deadlock", "deadlock", true, false);
    public static final FindingKind HISTORY = new FindingKind("history", "history", true, false);
    /** A violation record whose invariant this version does not know: kept among the verdicts, never hidden. */
    public static final FindingKind OTHER = new FindingKind("other recorded", "other", true, false);
    public static final FindingKind FIFO = new FindingKind("per-channel FIFO", "fifo", false, false);
    public static final FindingKind DUPLICATE = new FindingKind("duplicate delivery", "dup", false, false);

    private static final List<FindingKind> GENERIC = List.of(STREAM, DEADLOCK, HISTORY, OTHER, FIFO, DUPLICATE);
    /** Every kind in ranking order: one per registered protocol, then the generic ones. */
    private static final List<FindingKind> ALL = all();

    private final String label;
    private final String word;
    private final boolean verdict;
    private final boolean holdsAtEnd;
    private int rank;

    private FindingKind(String label, String word, boolean verdict, boolean holdsAtEnd) {
        this.label = label;
        this.word = word;
        this.verdict = verdict;
        this.holdsAtEnd = holdsAtEnd;
    }

    private static List<FindingKind> all() {
        List<FindingKind> out = new ArrayList<>();
        for (Protocol p : Protocols.all()) out.add(new FindingKind(p.findingsLabel(), p.name(), true, p.judgesEnd()));
        out.addAll(GENERIC);
        for (int i = 0; i < out.size(); i++) out.get(i).rank = i;
        return List.copyOf(out);
    }

    /** Every kind, in ranking order. */
    public static List<FindingKind> values() { return ALL; }

    /** The kind of a protocol's findings. */
    public static FindingKind of(Protocol p) {
        return ALL.get(Protocols.all().indexOf(p));
    }

    /** How the findings list and the legend name the kind ("per-channel FIFO"). */
    public String label() { return label; }

    /** The kind in scripts' terms: `weft explain --json` prints it (a protocol's name, "fifo", …). */
    public String word() { return word; }

    /** A verdict about the program (protocol, stream, deadlock, history) rather than a network invariant. */
    public boolean verdict() { return verdict; }

    /** Whether its findings judge the end of the run ({@link Protocol#judgesEnd()}) rather than one op. */
    public boolean holdsAtEnd() { return holdsAtEnd; }

    @Override
    public int compareTo(FindingKind o) {
        return Integer.compare(rank, o.rank);
    }

    @Override
    public String toString() {
        return word;
    }

    /** The kind of a finding of this invariant name (checker names, violation record names, --check names). */
    public static FindingKind of(String invariant) {
        Protocol owner = Protocols.owning(invariant);
        if (owner != null) return of(owner);
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
