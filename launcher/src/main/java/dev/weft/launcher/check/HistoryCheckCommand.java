package dev.weft.launcher.check;

import dev.weft.history.HistoryCheck;
import dev.weft.history.HistoryFormatException;
import dev.weft.history.HistoryModel;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * {@code weft check history FILE --model M}: judges a history file (docs/history.md). Exit 0 OK, 2 violation,
 * 3 undecided, 1 usage or unreadable history (one line naming file and line).
 */
public final class HistoryCheckCommand {

    static final String NAME = "weft check history";

    static final String USAGE_LINE = "usage: weft check history <history.jsonl> --model " + HistoryModel.words() + "\n";

    private HistoryCheckCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        String file = null;
        String modelWord = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--model") && i + 1 < args.length) {
                modelWord = args[++i];
            } else if (a.startsWith("--model=")) {
                modelWord = a.substring("--model=".length());
            } else if (a.startsWith("-") && !a.equals("-")) {
                Recordings.print(err, NAME + ": unknown option " + a + "\n" + USAGE_LINE);
                return 1;
            } else if (file == null) {
                file = a;
            } else {
                Recordings.print(err, NAME + ": one history at a time (also got " + a + ")\n" + USAGE_LINE);
                return 1;
            }
        }
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
