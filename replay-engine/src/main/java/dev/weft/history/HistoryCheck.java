package dev.weft.history;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code weft check history FILE --model M}: reads the history, checks that its operations belong to the model,
 * pairs them and judges them (linearizability, or list-append anomalies), and words the verdict. Exit codes as
 * the other checkers: 0 OK, 2 violation, 3 undecided (a search gave up), and format problems are
 * {@link HistoryFormatException}s (exit 1 in the command).
 */
public final class HistoryCheck {

    public static final int OK = 0;
    public static final int VIOLATION = 2;
    public static final int UNDECIDED = 3;

    /** The report to print, its exit code and the findings (for the workbench and campaigns). */
    public record Verdict(String text, int exitCode, List<Finding> findings) {
    }

    private HistoryCheck() {
    }

    public static Verdict check(Path file, HistoryModel model) throws HistoryFormatException {
        return check(file.toString(), HistoryReader.read(file), model);
    }

    public static Verdict check(String name, List<HistoryEvent> events, HistoryModel model)
            throws HistoryFormatException {
        validate(name, events, model);
        Operations.Paired paired = Operations.pair(name, events);
        List<Finding> findings;
        List<String> undecided = List.of();
        int objects;
        Map<String, Integer> omitted = Map.of();
        if (model == HistoryModel.LIST_APPEND) {
            ListAppendChecker.Result r = ListAppendChecker.check(paired.operations());
            findings = r.findings();
            objects = r.objects();
            omitted = r.omitted();
        } else {
            LinearizabilityChecker.Result r = LinearizabilityChecker.check(paired.operations(), model);
            findings = r.findings();
            undecided = r.undecided();
            objects = r.objects();
        }
        StringBuilder sb = new StringBuilder();
        sb.append("history   : ").append(name).append(" (").append(paired.events()).append(" events: ")
                .append(paired.ok()).append(" ok, ").append(paired.indeterminate()).append(" indeterminate, ")
                .append(paired.failed()).append(" failed)\n");
        sb.append("model     : ").append(model.word()).append(" (").append(objects)
                .append(objects == 1 ? " object" : " objects").append(")\n");
        int exit;
        if (!findings.isEmpty()) {
            exit = VIOLATION;
            sb.append("verdict   : VIOLATION — ").append(summary(findings, model)).append('\n');
        } else if (!undecided.isEmpty()) {
            exit = UNDECIDED;
            sb.append("verdict   : UNDECIDED — the search gave up after ").append(LinearizabilityChecker.MAX_STEPS)
                    .append(" steps on ").append(undecided.size()).append(undecided.size() == 1 ? " object" : " objects")
                    .append('\n');
        } else {
            exit = OK;
            sb.append("verdict   : OK — ").append(model == HistoryModel.LIST_APPEND ? "no anomaly" : "linearizable")
                    .append('\n');
        }
        for (Finding f : findings) {
            sb.append("  \u2717 ").append(f.headline()).append('\n');
            int total = (int) paired.operations().stream().filter(o -> java.util.Objects.equals(o.key(), f.key()))
                    .count();
            if (f.kind().equals("not-linearizable")) {
                sb.append("    smallest inconsistent sub-history found (").append(f.operations().size()).append(" of ")
                        .append(total).append(" operations), in invocation order:\n");
            }
            for (Operation op : f.operations()) {
                sb.append("      ").append(HistoryText.line(op)).append('\n');
            }
            if (!f.note().isEmpty()) {
                sb.append("    note: ").append(f.note()).append('\n');
            }
        }
        for (String key : undecided) {
            sb.append("  ? ").append(HistoryText.object(key)).append(": undecided (search step budget)\n");
        }
        omitted.forEach((kind, n) -> sb.append("  … and ").append(n).append(" more ").append(kind)
                .append(" finding(s) not listed\n"));
        return new Verdict(sb.toString(), exit, findings);
    }

    private static String summary(List<Finding> findings, HistoryModel model) {
        if (model != HistoryModel.LIST_APPEND) {
            return findings.size() + (findings.size() == 1 ? " object" : " objects") + " not linearizable";
        }
        Map<String, Integer> kinds = new java.util.TreeMap<>();
        findings.forEach(f -> kinds.merge(f.kind(), 1, Integer::sum));
        StringBuilder sb = new StringBuilder();
        kinds.forEach((k, n) -> sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(k));
        return sb.toString();
    }

    /** Every operation belongs to the model; single-object models have one key; list values are unique per key. */
    static void validate(String name, List<HistoryEvent> events, HistoryModel model) throws HistoryFormatException {
        HistoryEvent firstKeyed = null;
        Map<String, Integer> appended = new HashMap<>();
        for (HistoryEvent e : events) {
            if (!model.allows(e.f())) {
                throw new HistoryFormatException(name + ":" + e.line() + ": \"" + e.f().word()
                        + "\" is not an operation of the " + model.word() + " model" + hint(e.f()));
            }
            if (!model.keyed() && e.type() == EventType.INVOKE) {
                if (firstKeyed == null) {
                    firstKeyed = e;
                } else if (!java.util.Objects.equals(firstKeyed.key(), e.key())) {
                    throw new HistoryFormatException(name + ":" + e.line() + ": key " + e.key() + ", but the "
                            + model.word() + " model is one object (key " + firstKeyed.key() + " at line "
                            + firstKeyed.line() + "); use --model kv for one register per key");
                }
            }
            if (e.f() == OpFunction.READ && e.type() == EventType.OK
                    && (model == HistoryModel.SET || model == HistoryModel.LIST_APPEND) && !e.value().isArray()) {
                throw new HistoryFormatException(name + ":" + e.line() + ": a " + model.word()
                        + " read returns an array, not " + e.value().text());
            }
            if (model == HistoryModel.LIST_APPEND && e.f() == OpFunction.APPEND && e.type() == EventType.INVOKE) {
                Integer before = appended.put(e.key() + "\u0000" + e.value().text(), e.line());
                if (before != null) {
                    throw new HistoryFormatException(name + ":" + e.line() + ": append " + e.value().text() + " to "
                            + HistoryText.object(e.key()) + " again (line " + before + "): list-append values must"
                            + " be unique per key");
                }
            }
        }
    }

    private static String hint(OpFunction f) {
        return switch (f) {
            case CAS -> " (use --model cas-register or kv)";
            case ADD -> " (use --model set)";
            case APPEND -> " (use --model list-append)";
            default -> "";
        };
    }
}
