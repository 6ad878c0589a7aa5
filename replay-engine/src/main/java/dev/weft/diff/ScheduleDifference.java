package dev.weft.diff;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says what kind of difference a record divergence is when no node saw it (it comes before the first node-visible
 * difference): the nodes started in another order, a poll found nothing on one side, or the same node-visible events
 * were interleaved differently. Read from the two canonical records' event kinds.
 */
public final class ScheduleDifference {

    private static final Pattern KIND = Pattern.compile("\"e\":\\{\"k\":\"([a-z_]+)\"");
    private static final Pattern EMPTY = Pattern.compile("\"outcome\":\\{\"kind\":\"empty\"");

    private ScheduleDifference() {
    }

    /** Whether the record divergence comes before anything a node saw differently (or there is no such thing). */
    public static boolean scheduleOnly(DiffResult r) {
        RecordDivergence d = r.firstRecord();
        if (d == null) return false;
        EffectDivergence e = r.firstEffect();
        if (e == null) return true;
        long effectA = e.a() != null ? e.a().op() : Long.MAX_VALUE;
        long effectB = e.b() != null ? e.b().op() : Long.MAX_VALUE;
        return (d.opA() < 0 || d.opA() < effectA) && (d.opB() < 0 || d.opB() < effectB);
    }

    /** "node start order (connect / hello / bind)", "polling (a receive found nothing on one side)", or "interleaving …". */
    public static String kind(RecordDivergence d) {
        String a = kindOf(d.a()), b = kindOf(d.b());
        if (startup(a) || startup(b)) return "node start order (connect, hello and bind in another order)";
        if (emptyRecv(d.a()) || emptyRecv(d.b())) return "polling (a receive found nothing on one side)";
        if (a.equals("end") || b.equals("end") || a.isEmpty() || b.isEmpty()) return "where the run stopped";
        return "interleaving (the nodes' events in another order)";
    }

    private static boolean startup(String k) {
        return k.equals("connect") || k.equals("hello") || k.equals("bind");
    }

    private static boolean emptyRecv(String canonical) {
        return canonical != null && kindOf(canonical).equals("recv") && EMPTY.matcher(canonical).find();
    }

    private static String kindOf(String canonical) {
        if (canonical == null) return "";
        Matcher m = KIND.matcher(canonical);
        return m.find() ? m.group(1) : "";
    }
}
