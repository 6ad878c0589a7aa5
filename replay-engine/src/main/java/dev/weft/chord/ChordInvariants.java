package dev.weft.chord;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The four Chord correctness invariants of invariants-and-checkers.md §5.3, evaluated on a snapshot in
 * the specified order. m is the identifier size in bits (the ring has 2^m positions).
 */
public final class ChordInvariants {

    public static final String AT_LEAST_ONE_RING = "AtLeastOneRing";
    public static final String AT_MOST_ONE_RING = "AtMostOneRing";
    public static final String ORDERED_RING = "OrderedRing";
    public static final String CONNECTED_APPENDAGES = "ConnectedAppendages";

    /** The invariant names in evaluation order. */
    public static final List<String> NAMES = List.of(AT_LEAST_ONE_RING, AT_MOST_ONE_RING, ORDERED_RING, CONNECTED_APPENDAGES);

    private ChordInvariants() {
    }

    public static List<ChordViolation> check(ChordSnapshot s, long m) {
        List<ChordViolation> out = new ArrayList<>();
        List<Integer> members = s.ringMembers();
        if (members.isEmpty()) {
            out.add(new ChordViolation(AT_LEAST_ONE_RING, "no ring member: the best-successor graph has no cycle"));
            return out;
        }
        Set<Integer> memberSet = new HashSet<>(members); // lookups only, never iterated
        int first = members.get(0);
        int cycle = s.cycleOf(first).size();
        if (cycle != members.size()) {
            out.add(new ChordViolation(AT_MOST_ONE_RING,
                    "ring split: " + members.size() + " ring members but the cycle through " + first + " has " + cycle));
        }
        for (int n1 : members) {
            int n2 = s.bestSuccOf(n1);
            if (!memberSet.contains(n2)) continue;
            for (int n3 : members) {
                if (n3 != n1 && n3 != n2 && between(n1, n3, n2, m)) {
                    out.add(new ChordViolation(ORDERED_RING, "ring member " + n3 + " lies between adjacent " + n1 + " -> " + n2));
                }
            }
        }
        int liveCount = s.live().size();
        for (ChordReport a : s.live()) {
            if (memberSet.contains(a.ident())) continue;
            int cur = s.bestSucc(a);
            int steps = 0;
            boolean reached = false;
            while (cur != -1 && steps <= liveCount) {
                if (memberSet.contains(cur)) {
                    reached = true;
                    break;
                }
                cur = s.bestSuccOf(cur);
                steps++;
            }
            if (!reached) {
                out.add(new ChordViolation(CONNECTED_APPENDAGES,
                        "appendage member " + a.ident() + " cannot reach the ring via best successors"));
            }
        }
        return out;
    }

    /**
     * b strictly inside the ring interval (a, c) on a ring of 2^m positions. As in the reference the
     * size is a signed 64-bit shift (so m is taken mod 64 and m = 63 gives a negative modulus) and
     * values are reduced with Rust's rem_euclid.
     */
    public static boolean between(long a, long b, long c, long m) {
        long n = 1L << (int) (m & 63);
        long ra = remEuclid(a, n), rb = remEuclid(b, n), rc = remEuclid(c, n);
        return ra < rc ? (ra < rb && rb < rc) : (ra < rb || rb < rc);
    }

    static long remEuclid(long x, long n) {
        long r = x % n;
        if (r < 0) r = n < 0 ? r - n : r + n;
        return r;
    }
}
