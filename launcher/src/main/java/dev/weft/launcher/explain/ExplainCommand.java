package dev.weft.launcher.explain;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.findings.FindingRanking;
import dev.weft.findings.FindingWords;
import dev.weft.findings.RecordingFindings;
import dev.weft.launcher.cli.ToolUsage;
import dev.weft.log.CanonicalJson;
import dev.weft.log.WeftLogException;
import dev.weft.replay.ReplayException;
import dev.weft.text.RustText;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft explain <LOG> [--json]}: everything a recording shows, most severe first, one line each with its op, in
 * the workbench's ranking and words (docs/workbench.md "Findings"). For terminals and CI logs. Exit 0 clean,
 * 2 findings, 1 error (unreadable log, a replay that diverges, bad usage).
 */
public final class ExplainCommand {

    public static final int CLEAN = 0;
    public static final int ERROR = 1;
    public static final int FINDINGS = 2;

    public static final String USAGE = String.join("\n",
            "Usage: weft explain <LOG> [--json]",
            "",
            "Prints what the recording shows, most severe first, one finding per line with its op: the",
            "protocol checker's verdict (Chord or Raft, from the nodes' RPT state reports), violation records",
            "(deadlock, stream integrity, ...) and the findings of the client history beside the recording",
            "(NAME.history.jsonl beside NAME.weftlog, judged as the workbench judges it), then fifo/dup",
            "violations found on replay; each tier by op.",
            "A clean recording says so. The workbench opens on the first finding listed here.",
            "",
            "  --json    one JSON object: log, records, counts per kind, and the ranked findings",
            "            (rank, kind, invariant, op, vt, origin, message, words)",
            "",
            "Exit codes: 0 clean, 2 findings, 1 error.",
            "");

    private static final ToolUsage TOOL = new ToolUsage("explain", USAGE);

    private ExplainCommand() {
    }

    /** The picocli model of {@code weft explain}: the recording, {@code --json}, {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("explain")
                .addOption(CommandArgs.flag("--json"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<LOG>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ToolUsage.Parsed given = TOOL.parse(spec(), args, out, err, ArgsProblem::sentence);
        if (given.answered()) {
            return given.exit();
        }
        ParseResult parsed = given.args();
        boolean json = parsed.hasMatchedOption("--json");
        List<String> logs = CommandArgs.operands(parsed);
        if (logs.size() > 1) {
            return TOOL.mistake(err, "unexpected argument " + RustText.debugQuote(logs.get(1)));
        }
        if (logs.isEmpty()) {
            return TOOL.mistake(err, "a recording is needed");
        }
        String log = logs.get(0);
        if (!Files.isRegularFile(Path.of(log))) {
            err.print("weft explain: " + log + ": no such file\n");
            return ERROR;
        }
        RecordingFindings found;
        try {
            found = RecordingFindings.read(Path.of(log));
        } catch (WeftLogException e) {
            err.print("weft explain: " + log + ": " + e.getMessage() + "\n");
            return ERROR;
        } catch (ReplayException e) {
            err.print("weft explain: " + log + ": replay failed at op " + e.op() + ": " + e.getMessage() + "\n");
            return ERROR;
        }
        if (found.divergence() != null) {
            err.print("weft explain: " + log + ": replay diverged at op " + found.divergence().op() + " (recorded "
                    + found.divergence().recorded() + ", replay produced " + found.divergence().replayed()
                    + "); findings need a recording that replays (weft replay " + log + ")\n");
            return ERROR;
        }
        if (found.historyProblem() != null) {
            // the recording's own findings are still worth printing; the history's problem is one line beside them
            err.print("weft explain: history not judged: " + found.historyProblem() + "\n");
        }
        out.print(json ? json(log, found) : text(log, found));
        return found.findings().isEmpty() ? CLEAN : FINDINGS;
    }

    /** The plain-words report: a headline, then one line per finding. */
    static String text(String log, RecordingFindings found) {
        List<Finding> all = found.findings();
        StringBuilder s = new StringBuilder();
        if (all.isEmpty()) {
            s.append(log).append(": clean: no protocol violation, no violation record, no fifo/dup violation on replay (")
                    .append(found.records()).append(" records)\n");
            return s.toString();
        }
        s.append(log).append(": ").append(all.size()).append(all.size() == 1 ? " finding" : " findings").append(" in ")
                .append(found.records()).append(" records, most severe first (").append(FindingRanking.countsText(all)).append(")\n");
        int rank = 1;
        for (Finding f : all) {
            s.append(String.format("%4d. op %-7d %s · %s: %s%n", rank++, f.op(), f.kind().label(), f.invariant(), FindingWords.plain(f)));
        }
        return s.toString();
    }

    /** One object; findings one per line so a person can read it too. */
    static String json(String log, RecordingFindings found) {
        List<Finding> all = found.findings();
        StringBuilder s = new StringBuilder("{\"log\":");
        CanonicalJson.appendString(s, log);
        s.append(",\"records\":").append(found.records()).append(",\"clean\":").append(all.isEmpty()).append(",\"counts\":{");
        boolean first = true;
        for (Map.Entry<FindingKind, Integer> e : FindingRanking.counts(all).entrySet()) {
            if (!first) s.append(',');
            first = false;
            CanonicalJson.appendString(s, e.getKey().word());
            s.append(':').append(e.getValue());
        }
        s.append("},\"findings\":[");
        int rank = 1;
        for (Finding f : all) {
            s.append(rank == 1 ? "\n" : ",\n").append("{\"rank\":").append(rank++).append(",\"kind\":");
            CanonicalJson.appendString(s, f.kind().word());
            s.append(",\"invariant\":");
            CanonicalJson.appendString(s, f.invariant());
            s.append(",\"op\":").append(f.op()).append(",\"vt\":").append(Long.toUnsignedString(f.vt())).append(",\"origin\":");
            CanonicalJson.appendString(s, f.origin().word());
            s.append(",\"message\":");
            CanonicalJson.appendString(s, f.message());
            s.append(",\"words\":");
            CanonicalJson.appendString(s, FindingWords.plain(f));
            s.append('}');
        }
        s.append(all.isEmpty() ? "]}\n" : "\n]}\n");
        return s.toString();
    }
}
