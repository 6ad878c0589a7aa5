package dev.weft.launcher.check;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.history.HistoryCheck;
import dev.weft.history.HistoryFormatException;
import dev.weft.history.HistoryModel;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft check history FILE --model M}: judges a history file (docs/history.md). Exit 0 OK, 2 violation,
 * 3 undecided, 1 usage or unreadable history (one line naming file and line).
 */
public final class HistoryCheckCommand {

    static final String NAME = "weft check history";

    static final String USAGE_LINE = "usage: weft check history <history.jsonl> --model " + HistoryModel.words() + "\n";

    private HistoryCheckCommand() {
    }

    /** The picocli model of {@code weft check history}: the history file and {@code --model}. */
    public static CommandSpec spec() {
        List<String> models = new ArrayList<>();
        for (HistoryModel m : HistoryModel.values()) {
            models.add(m.word());
        }
        return CommandSpec.create().name("history")
                .addOption(CommandArgs.choiceOption(models, "--model"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<history.jsonl>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            // a --model without its word is an unknown option, as before picocli
            Recordings.print(err, NAME + ": " + (p.kind() == ArgsProblem.Kind.OTHER ? p.argument()
                    : "unknown option " + p.argument()) + "\n" + USAGE_LINE);
            return 1;
        }
        List<String> files = CommandArgs.operands(parsed);
        if (files.size() > 1) {
            Recordings.print(err, NAME + ": one history at a time (also got " + files.get(1) + ")\n" + USAGE_LINE);
            return 1;
        }
        String file = files.isEmpty() ? null : files.get(0);
        String modelWord = parsed.matchedOptionValue("--model", null);
        if (file == null || modelWord == null) {
            Recordings.print(err, USAGE_LINE);
            return 1;
        }
        HistoryModel model = HistoryModel.named(modelWord);
        if (model == null) {
            Recordings.print(err, NAME + ": unknown model " + modelWord + " (one of " + HistoryModel.words() + ")\n");
            return 1;
        }
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException e) {
            Recordings.print(err, NAME + ": " + file + ": not a path: " + e.getReason() + "\n");
            return 1;
        }
        HistoryCheck.Verdict v;
        try {
            v = HistoryCheck.check(path, model);
        } catch (HistoryFormatException e) {
            Recordings.print(err, NAME + ": " + e.getMessage() + "\n");
            return 1;
        }
        Recordings.print(out, v.text());
        return v.exitCode();
    }
}
