package dev.weft.app.source;

import dev.weft.check.Invariant;
import dev.weft.check.Invariants;
import dev.weft.log.LogRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongFunction;

/**
 * Runs a chosen subset of the replay invariants (fifo, dup) over a recording's records, in the registration order
 * the spec's monitor has, for a source whose indexing pass ran a different set. Recorded events equal replayed ones
 * up to the last replayable op, so offering the recorded events gives the replay's verdict.
 */
final class InvariantScan {

    private InvariantScan() { }

    /** The canonical names among {@code names} that are replay invariants of {@code offered} (others are skipped). */
    static Set<String> replayInvariants(Set<String> names, List<String> offered) {
        Set<String> wanted = new TreeSet<>();
        for (String n : names) {
            String canonical = Invariants.canonicalName(n);
            if (canonical != null && offered.contains(canonical)) wanted.add(canonical);
        }
        return wanted;
    }

    /** Offers ops 0 .. n-1 to fresh instances of the wanted invariants (taken in {@code order}'s order). */
    static List<ViolationInfo> run(Set<String> wanted, List<String> order, long n, LongFunction<LogRecord> record,
                                   Progress progress) throws InterruptedException {
        List<String> ordered = new ArrayList<>();
        for (String name : order) if (wanted.contains(name)) ordered.add(name);
        List<Invariant> invariants = Invariants.instantiate(ordered);
        List<ViolationInfo> out = new ArrayList<>();
        for (long op = 0; op < n; op++) {
            if ((op & 4095) == 0) {
                progress.checkCancelled();
                progress.update((double) op / Math.max(1, n), "checking op " + op);
            }
            LogRecord r = record.apply(op);
            if (!r.event().isBrokerOperation()) continue;
            for (Invariant i : invariants) {
                String msg = i.offer(r.op(), r.vt(), r.event());
                if (msg != null) out.add(new ViolationInfo(i.name(), r.op(), r.vt(), msg));
            }
        }
        return out;
    }
}
