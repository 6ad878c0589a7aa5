package dev.weft.app;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The command line of `weft workbench [FILE] [--follow] [--until N] [--compare B] [--tool T] [--screenshot OUT.png]
 * [--size WxH] [-- RUN-ARGS]` (the leading word "workbench" is optional). Parsing is pure so it is tested without a
 * toolkit.
 *
 * @param tool    a tool window to open at start ({@link #TOOLS}); with --screenshot, that window is what is rendered
 * @param runArgs with --tool run: the {@code weft run} arguments (after {@code --}) the run panel is filled with
 * @param sizeGiven whether --size was on the command line: then it wins over the size remembered from the last run
 */
public record LaunchOptions(Path file, Integer untilOp, Path screenshot, int width, int height, boolean help,
                            Path compare, boolean follow, String tool, java.util.List<String> runArgs, boolean sizeGiven) {

    /** The tool windows --tool can open. */
    public static final java.util.List<String> TOOLS = java.util.List.of("run", "fuzz", "campaign");

    public LaunchOptions {
        runArgs = java.util.List.copyOf(runArgs);
    }

    public LaunchOptions(Path file, Integer untilOp, Path screenshot, int width, int height, boolean help) {
        this(file, untilOp, screenshot, width, height, help, null, false, null, java.util.List.of(), false);
    }

    public static final String USAGE = """
            usage: weft workbench [FILE] [--follow] [--until N] [--compare B] [--screenshot OUT.png] [--size WxH]
                   weft workbench --tool run|fuzz|campaign [FILE] [--screenshot OUT.png] [--size WxH] [-- RUN-ARGS]
              FILE              a .weftlog or .weftlog.gz recording to open
              --follow          FILE is still being written (weft run --record): show it as it grows
              --until N         open at op N (default: the first violation, else op 0)
              --compare B       also open recording B and compare FILE with it (aligned by op)
              --screenshot OUT  render one frame to OUT (PNG) and exit; works without a display
              --size WxH        window size (default 1400x900)
              --tool T          open the run, fuzz or campaign tool window; with --screenshot, render it instead:
                                run: `weft run` RUN-ARGS after `--` fill the form; the run is started and shown ended
                                fuzz: FILE is a fuzz config, run to the end (output in a temporary folder)
                                campaign: FILE is a `weft campaign` output folder""";

    /** A command line that cannot be understood; the message says which argument and why. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    /** Width and height of --size, in pixels. */
    private record Size(int width, int height) {
    }

    /**
     * The picocli model of the options before {@code --} (the words after it are weft run's, kept as given), each
     * value checked when its option is met.
     */
    public static CommandSpec spec() {
        return CommandSpec.create().name("workbench")
                .addOption(CommandArgs.flag("--follow"))
                .addOption(CommandArgs.convertedOption("N", Integer.class, LaunchOptions::parseOp, "--until"))
                .addOption(CommandArgs.valueOption("B", "--compare"))
                .addOption(CommandArgs.convertedOption("T", String.class, LaunchOptions::parseTool, "--tool"))
                .addOption(CommandArgs.valueOption("OUT.png", "--screenshot"))
                .addOption(CommandArgs.convertedOption("WxH", Size.class, LaunchOptions::parseSize, "--size"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("FILE"));
    }

    public static LaunchOptions parse(String... args) throws UsageException {
        int from = args.length > 0 && args[0].equals("workbench") ? 1 : 0;
        int dashes = java.util.Arrays.asList(args).subList(from, args.length).indexOf("--");
        int end = dashes < 0 ? args.length : from + dashes;
        java.util.List<String> runArgs = dashes < 0 ? java.util.List.of()
                : java.util.List.of(args).subList(end + 1, args.length);
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), java.util.Arrays.copyOfRange(args, from, end));
        } catch (ArgsProblem p) {
            throw new UsageException(switch (p.kind()) {
                case MISSING_VALUE -> p.argument() + " needs a value";
                case UNKNOWN_OPTION -> "unknown option " + p.argument();
                case UNEXPECTED_ARGUMENT, BAD_VALUE, OTHER -> p.argument();
            });
        }
        java.util.List<String> files = CommandArgs.operands(parsed);
        if (files.size() > 1) {
            throw new UsageException("only one FILE can be opened, got \"" + files.get(0) + "\" and \"" + files.get(1)
                    + "\"");
        }
        Path file = files.isEmpty() ? null : Path.of(files.get(0));
        Path shot = path(parsed.matchedOptionValue("--screenshot", null));
        Path compare = path(parsed.matchedOptionValue("--compare", null));
        Integer until = parsed.matchedOptionValue("--until", null);
        Size size = parsed.matchedOptionValue("--size", null);
        boolean sizeGiven = size != null;
        int w = sizeGiven ? size.width() : 1400;
        int h = sizeGiven ? size.height() : 900;
        boolean help = parsed.isUsageHelpRequested();
        boolean follow = parsed.hasMatchedOption("--follow");
        String tool = parsed.matchedOptionValue("--tool", null);
        if (tool != null) {
            if (follow || compare != null || until != null) {
                throw new UsageException("--tool " + tool + " cannot be combined with "
                        + (follow ? "--follow" : compare != null ? "--compare" : "--until"));
            }
            if (tool.equals("run") && file != null) {
                throw new UsageException("--tool run takes no FILE: give the weft run arguments after --, e.g. "
                        + "-- --nodes 2 -- ./pingpong");
            }
            if (!tool.equals("run") && !runArgs.isEmpty()) {
                throw new UsageException("arguments after -- are weft run's, for --tool run only");
            }
            if (shot != null && !help && (tool.equals("run") ? runArgs.isEmpty() : file == null)) {
                throw new UsageException("--tool " + tool + " --screenshot needs "
                        + switch (tool) {
                            case "run" -> "the run to show: weft run arguments after --";
                            case "fuzz" -> "a fuzz config FILE to run";
                            default -> "a campaign output folder FILE";
                        });
            }
            return new LaunchOptions(file, null, shot, w, h, help, null, false, tool, runArgs, sizeGiven);
        }
        if (!runArgs.isEmpty()) throw new UsageException("arguments after -- are weft run's, for --tool run only");
        if (shot != null && file == null && !help) throw new UsageException("--screenshot needs a FILE to open");
        if (compare != null && file == null && !help) throw new UsageException("--compare needs a FILE to compare it with");
        if (follow && file == null && !help) throw new UsageException("--follow needs the FILE that is being written");
        if (follow && (compare != null || shot != null)) {
            throw new UsageException("--follow cannot be combined with " + (compare != null ? "--compare" : "--screenshot"));
        }
        return new LaunchOptions(file, until, shot, w, h, help, compare, follow, null, java.util.List.of(), sizeGiven);
    }

    private static Path path(String name) {
        return name == null ? null : Path.of(name);
    }

    private static String parseTool(String v) {
        if (!TOOLS.contains(v)) {
            throw new CommandArgs.BadValue("--tool wants one of run, fuzz, campaign, not \"" + v + "\"");
        }
        return v;
    }

    private static Size parseSize(String v) {
        int x = v.indexOf('x');
        int w;
        int h;
        try {
            if (x <= 0) {
                throw new NumberFormatException();
            }
            w = Integer.parseInt(v.substring(0, x));
            h = Integer.parseInt(v.substring(x + 1));
        } catch (NumberFormatException e) {
            throw new CommandArgs.BadValue("--size wants WIDTHxHEIGHT in pixels, e.g. 1400x900, not \"" + v + "\"");
        }
        if (w < 320 || h < 240 || w > 8192 || h > 8192) {
            throw new CommandArgs.BadValue("--size " + v + " is out of range (320x240 .. 8192x8192)");
        }
        return new Size(w, h);
    }

    private static Integer parseOp(String v) {
        if (!v.matches("[0-9]{1,10}") || Long.parseLong(v) > Integer.MAX_VALUE) {
            throw new CommandArgs.BadValue("--until wants an op number (0, 1, 2, ...), not \"" + v + "\"");
        }
        return Integer.parseInt(v);
    }
}
