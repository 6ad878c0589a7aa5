package dev.weft.chord;

import dev.weft.protocol.Episode;
import dev.weft.protocol.PlacedViolation;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.ProtocolResult;
import dev.weft.protocol.ProtocolRun;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Chord behind the protocol seam: any six-integer report may be a Chord one (identifiers fill every field), so it is
 * tried after narrower shapes. Its checker judges the final state and names no op; a violation is placed at the op
 * after which it held without a break to the end of the run: where the ring broke for good.
 */
public final class ChordProtocol implements Protocol {

    public static final String NAME = "chord";
    /** The case study's identifier bits (chord-check's default, what `weft check chord LOG 6` uses). */
    public static final int BITS = 6;

    private static final Pattern CAMPAIGN_CHECKER = Pattern.compile("chord ([1-9][0-9]?)");

    @Override public String name() { return NAME; }
    @Override public int shapeRank() { return 20; }
    @Override public String findingsLabel() { return "Chord ring"; }
    @Override public List<String> invariants() { return ChordInvariants.NAMES; }
    @Override public boolean fits(int[] report) { return true; }
    @Override public boolean judgesEnd() { return true; }

    @Override
    public String plainWords(String invariant, long op, String message) {
        return ChordFindingWords.plain(invariant, op, message);
    }

    @Override
    public String checkCommand(String log) {
        return "weft check chord " + log + " " + BITS;
    }

    @Override
    public List<String> campaignCheck(String checker, String log) {
        var m = CAMPAIGN_CHECKER.matcher(checker);
        return m.matches() ? List.of("check", NAME, log, m.group(1)) : null;
    }

    @Override
    public String campaignCheckerExample() {
        return "\"chord M\"";
    }

    @Override
    public String campaignCheckerHelp() {
        return "\"chord M\" with M in 1..99";
    }

    @Override
    public ProtocolRun newRun() {
        ChordTimeline.Builder timeline = new ChordTimeline.Builder(BITS);
        ChordCheck check = new ChordCheck(BITS);
        return ProtocolRun.of(r -> {
            timeline.accept(r);
            check.accept(r);
        }, () -> {
            ChordTimeline t = timeline.build();
            ChordCheckResult result = check.result();
            return new ProtocolResult(this, result.verdict(), result.exitCode(), placed(t, result), episodes(t), t);
        });
    }

    /** chord-check's violations (none unless its exit code is 2), each at the op since which it held; by op. */
    public static List<PlacedViolation> placed(ChordTimeline timeline, ChordCheckResult result) {
        List<PlacedViolation> out = new ArrayList<>();
        if (result.exitCode() != ChordCheckResult.EXIT_VIOLATION) return out;
        for (ChordViolation v : result.violations()) out.add(new PlacedViolation(v.invariant(), brokenSince(timeline, v), v.detail()));
        out.sort(Comparator.comparingLong(PlacedViolation::op));
        return out;
    }

    /** The first op of the last stretch over which v held without a break (to the end of the run). */
    static long brokenSince(ChordTimeline t, ChordViolation v) {
        List<Long> ops = t.evaluationChangeOps();
        long since = ops.isEmpty() ? 0 : ops.get(ops.size() - 1);
        for (int i = ops.size() - 1; i >= 0; i--) {
            if (!t.violationsAt(ops.get(i)).contains(v)) break;
            since = ops.get(i);
        }
        return since;
    }

    /** Every stretch over which a ring invariant was broken (transient ones too), by start op. */
    static List<Episode> episodes(ChordTimeline t) {
        List<Episode> out = new ArrayList<>();
        Map<String, Long> open = new LinkedHashMap<>();
        for (long op : t.evaluationChangeOps()) {
            Set<String> now = new TreeSet<>();
            for (ChordViolation v : t.violationsAt(op)) now.add(v.invariant());
            for (var it = open.entrySet().iterator(); it.hasNext(); ) {
                var e = it.next();
                if (!now.contains(e.getKey())) {
                    out.add(new Episode(e.getKey(), e.getValue(), op - 1));
                    it.remove();
                }
            }
            for (String n : ChordInvariants.NAMES) if (now.contains(n)) open.putIfAbsent(n, op);
        }
        for (var e : open.entrySet()) out.add(new Episode(e.getKey(), e.getValue(), -1));
        out.sort(Comparator.comparingLong(Episode::fromOp).thenComparing(Episode::invariant));
        return out;
    }
}
