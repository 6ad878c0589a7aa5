package dev.weft.launcher.convert;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.export.PerfettoTrace;
import dev.weft.log.WeftLogException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import dev.weft.io.InputFile;
import dev.weft.io.OutputFile;
import dev.weft.text.OsErrorText;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft convert LOG --to perfetto OUT.json}: the recording as Trace Event JSON for the Perfetto UI
 * (ui.perfetto.dev, "Open trace file") or chrome://tracing. Exit 0 written, 1 unreadable log or unwritable
 * output, 2 usage. The output goes through {@link OutputFile}: a new path or a regular file is written beside OUT
 * and moved into place (a failed conversion never leaves half a trace), a FIFO or a character device is written
 * directly, a directory is refused.
 */
public final class ConvertCommand {

    public static final String USAGE = "usage: weft convert <recording.weftlog> --to perfetto <OUT.json>\n";

    private ConvertCommand() {
    }

    /** The picocli model of {@code weft convert}: the recording and the output file, {@code --to}, {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("convert")
                .addOption(CommandArgs.choiceOption(List.of("perfetto"), "--to"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<recording.weftlog> <OUT.json>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            return usage(err, switch (p.kind()) {
                case MISSING_VALUE -> "--to needs a format (perfetto)";
                case UNKNOWN_OPTION -> "unknown option " + p.argument();
                case UNEXPECTED_ARGUMENT -> "unexpected argument \"" + p.argument() + "\"";
                case BAD_VALUE, OTHER -> p.argument();
            });
        }
        if (parsed.isUsageHelpRequested()) {
            out.print(USAGE + "  writes a track per node, a flow from each send to its delivery and the violations as instant events\n");
            return 0;
        }
        String to = parsed.matchedOptionValue("--to", null);
        List<String> operands = CommandArgs.operands(parsed);
        if (operands.size() > 2) return usage(err, "unexpected argument \"" + operands.get(2) + "\"");
        String log = operands.size() > 0 ? operands.get(0) : null;
        String file = operands.size() > 1 ? operands.get(1) : null;
        if (log == null || file == null) return usage(err, "needs a recording and an output file");
        if (to == null) return usage(err, "say which format with --to perfetto");
        if (!to.equals("perfetto")) return usage(err, "unknown format \"" + to + "\" (supported: perfetto)");
        Path in = Path.of(log);
        String unreadable = InputFile.problem(in);
        if (unreadable != null) {
            err.print("weft convert: " + log + ": " + unreadable + "\n");
            return 1;
        }
        try (OutputFile o = OutputFile.open(Path.of(file))) {
            PerfettoTrace.Summary s = PerfettoTrace.write(in, o.stream()); // buffered by OutputFile
            o.commit();
            out.print("wrote " + file + ": " + s.records() + " records on " + s.tracks() + " tracks, " + s.flows() + " flows, "
                    + s.violations() + " violation(s); open it at https://ui.perfetto.dev\n");
            return 0;
        } catch (WeftLogException e) {
            err.print("weft convert: " + log + ": " + e.getMessage() + "\n");
            return 1;
        } catch (IOException e) {
            err.print("weft convert: cannot write " + file + ": " + OsErrorText.of(e) + "\n");
            return 1;
        }
    }

    private static int usage(PrintStream err, String why) {
        err.print("weft convert: " + why + "\n" + USAGE);
        return 2;
    }
}
