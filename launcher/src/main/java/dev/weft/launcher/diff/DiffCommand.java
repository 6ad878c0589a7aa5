package dev.weft.launcher.diff;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.diff.Alignment;
import dev.weft.diff.DiffInputException;
import dev.weft.diff.DiffResult;
import dev.weft.diff.DiffText;
import dev.weft.diff.RecordingDiff;
import dev.weft.diff.StreamDiff;
import dev.weft.io.InputFile;
import dev.weft.launcher.cli.ToolUsage;
import dev.weft.text.RustText;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft diff <A> <B> [--by op|vt]}: where two recordings first part ways, and their totals side by side — the
 * headless twin of the workbench's compare view. Exit 0 identical, 2 different, 1 error (unreadable log, bad usage).
 */
public final class DiffCommand {

    public static final int IDENTICAL = 0;
    public static final int ERROR = 1;
    public static final int DIFFERENT = 2;

    public static final String USAGE = String.join("\n",
            "Usage: weft diff <A> <B> [--by op|vt]",
            "",
            "Compares two recordings (e.g. two seeds of one program, or a fuzz failure and its shrunk reproducer).",
            "Prints first the first node-visible difference: each node's own sequence of deliveries and sends is",
            "paired k-th with k-th across the two recordings, and the earliest pair that differs (in virtual time)",
            "is named (node, its k-th delivery or send, the op on each side, the payloads decoded). Then the first",
            "divergence: the first op whose canonical record differs (both sides in canonical form, without the",
            "integrity chain), marked \"schedule only\" with its kind (node start order, polling, interleaving)",
            "when no node saw anything differ before it. Then ops, deliveries, drops and fifo/dup violations on",
            "each side.",
            "",
            "  --by op   align record k with record k (default)",
            "  --by vt   align by virtual time: the first vt whose events differ (order within one vt ignored)",
            "",
            "Exit codes: 0 identical, 2 different, 1 error.",
            "");

    private static final ToolUsage TOOL = new ToolUsage("diff", USAGE);

    private DiffCommand() {
    }

    /** The picocli model of {@code weft diff}: the two recordings, {@code --by}, {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("diff")
                .addOption(CommandArgs.choiceOption(List.of("op", "vt"), "--by"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<A> <B>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ToolUsage.Parsed given = TOOL.parse(spec(), args, out, err,
                p -> p.kind() == ArgsProblem.Kind.MISSING_VALUE ? "--by requires op or vt" : p.sentence());
        if (given.answered()) {
            return given.exit();
        }
        ParseResult parsed = given.args();
        Alignment alignment = Alignment.OP;
        String by = parsed.matchedOptionValue("--by", "op");
        if ("vt".equals(by)) {
            alignment = Alignment.VT;
        } else if (!"op".equals(by)) {
            return TOOL.mistake(err, "--by " + RustText.debugQuote(by) + ": expected op or vt");
        }
        List<String> recordings = CommandArgs.operands(parsed); // A, then B
        if (recordings.size() > 2) {
            return TOOL.mistake(err, "unexpected argument " + RustText.debugQuote(recordings.get(2)));
        }
        if (recordings.size() < 2) {
            return TOOL.mistake(err, "two recordings are needed");
        }
        String a = recordings.get(0);
        String b = recordings.get(1);
        for (String f : recordings) {
            String unreadable = InputFile.problem(Path.of(f));
            if (unreadable != null) {
                err.print("weft diff: " + f + ": " + unreadable + "\n");
                return ERROR;
            }
        }
        DiffResult result;
        StreamDiff.Divergence stream;
        try {
            result = RecordingDiff.compare(Path.of(a), Path.of(b), alignment);
            stream = result.identical() ? null : StreamDiff.compare(Path.of(a), Path.of(b));
        } catch (DiffInputException e) {
            err.print("weft diff: " + e.getMessage() + "\n");
            return ERROR;
        }
        out.print(DiffText.report(a, b, result));
        if (stream != null) out.print(stream.text() + "\n");
        return result.identical() ? IDENTICAL : DIFFERENT;
    }
}
