package dev.weft.diff;

import java.util.Locale;

/** The text form of a {@link DiffResult}, printed by {@code weft diff} and shown by the workbench's compare view. */
public final class DiffText {

    private DiffText() {
    }

    public static String report(String nameA, String nameB, DiffResult r) {
        StringBuilder sb = new StringBuilder();
        sb.append("A: ").append(nameA).append('\n');
        sb.append("B: ").append(nameB).append('\n');
        if (r.identical()) {
            sb.append("recordings identical: ").append(r.a().ops()).append(" op(s)")
                    .append(r.alignment() == Alignment.VT ? " (aligned by vt)" : "").append('\n');
        } else {
            sb.append(firstRecordLine(r)).append('\n');
            if (r.firstRecord() != null) {
                sb.append("  A: ").append(orMissing(r.firstRecord().a())).append('\n');
                sb.append("  B: ").append(orMissing(r.firstRecord().b())).append('\n');
            }
            sb.append(firstEffectLine(r.firstEffect())).append('\n');
            if (r.firstEffect() != null) {
                sb.append("  A: ").append(delivery(r.firstEffect().a())).append('\n');
                sb.append("  B: ").append(delivery(r.firstEffect().b())).append('\n');
            }
        }
        sb.append(String.format(Locale.ROOT, "%-11s %12s %12s%n", "", "A", "B"));
        row(sb, "ops", r.a().ops(), r.b().ops());
        row(sb, "deliveries", r.a().deliveries(), r.b().deliveries());
        row(sb, "drops", r.a().drops(), r.b().drops());
        row(sb, "violations", r.a().violations(), r.b().violations());
        return sb.toString();
    }

    /** One line naming where the records first differ, e.g. {@code first divergence at op 17 (vt 42000 ns)}. */
    public static String firstRecordLine(DiffResult r) {
        RecordDivergence d = r.firstRecord();
        if (d == null) {
            return "records identical (op by op)";
        }
        if (r.alignment() == Alignment.VT) {
            return "first divergence at vt " + Long.toUnsignedString(d.vt()) + " ns (A op " + op(d.opA())
                    + ", B op " + op(d.opB()) + ")";
        }
        return "first divergence at op " + Long.toUnsignedString(d.opA()) + " (vt " + Long.toUnsignedString(d.vt())
                + " ns)";
    }

    public static String firstEffectLine(EffectDivergence e) {
        if (e == null) {
            return "node-visible effects identical: every node received the same deliveries in the same order";
        }
        return "first node-visible difference: node " + Long.toUnsignedString(e.node()) + ", delivery #"
                + (e.index() + 1);
    }

    public static String delivery(NodeDelivery d) {
        if (d == null) {
            return "(no such delivery)";
        }
        return "op " + Long.toUnsignedString(d.op()) + " vt " + Long.toUnsignedString(d.vt()) + " ns: " + d.text();
    }

    private static String orMissing(String canonical) {
        return canonical == null ? "(recording ended)" : canonical;
    }

    private static String op(long op) {
        return op < 0 ? "-" : Long.toUnsignedString(op);
    }

    private static void row(StringBuilder sb, String name, long a, long b) {
        sb.append(String.format(Locale.ROOT, "%-11s %12d %12d%n", name, a, b));
    }
}
