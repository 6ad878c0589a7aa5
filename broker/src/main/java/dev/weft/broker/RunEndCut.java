package dev.weft.broker;

import java.util.Collection;
import java.util.TreeSet;

/**
 * The windowed sequencer's bookkeeping for a run that ends once some nodes have exited ({@code --end-when-exited},
 * docs/broker.md "Runs that end"): which nodes are listed, which of them have exited, and — once all have — the key
 * after which nothing is applied or recorded. Not thread-safe: the sequencer calls it under its lock.
 */
final class RunEndCut {
    private final TreeSet<Long> listed = new TreeSet<>();
    private final TreeSet<Long> exited = new TreeSet<>();
    private WindowedSequencer.Key cut;
    private long endVt;

    void listen(Collection<Long> nodeIds) {
        listed.addAll(nodeIds);
    }

    boolean listed(long node) {
        return listed.contains(node);
    }

    /** A listed node whose process has not exited yet: it can still act at its clock. */
    boolean held(long node) {
        return listed.contains(node) && !exited.contains(node);
    }

    /** Notes an exit; true if it was the last listed node to exit (the cut is due now). */
    boolean exited(long node) {
        if (!listed.contains(node) || !exited.add(node)) {
            return false;
        }
        return cut == null && exited.containsAll(listed);
    }

    void cutAt(WindowedSequencer.Key key, long vt) {
        cut = key;
        endVt = vt;
    }

    boolean isCut() {
        return cut != null;
    }

    long endVt() {
        return endVt;
    }

    /** True if k lies after the run's end (never when the run has no end yet). */
    boolean after(WindowedSequencer.Key k) {
        return cut != null && k.compareTo(cut) > 0;
    }
}
