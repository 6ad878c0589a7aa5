package dev.weft.app;

import java.nio.file.Path;

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

    public static LaunchOptions parse(String... args) throws UsageException {
        Path file = null, shot = null, compare = null;
        Integer until = null;
        int w = 1400, h = 900;
        boolean sizeGiven = false;
        boolean help = false, follow = false;
        String tool = null;
        java.util.List<String> runArgs = java.util.List.of();
        int i = 0;
        if (args.length > 0 && args[0].equals("workbench")) i = 1;
        for (; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--")) {
                runArgs = java.util.List.of(args).subList(i + 1, args.length);
                break;
            }
            switch (a) {
                case "-h", "--help" -> help = true;
                case "--follow" -> follow = true;
                case "--until" -> until = parseOp(value(args, ++i, a));
                case "--screenshot" -> shot = Path.of(value(args, ++i, a));
                case "--compare" -> compare = Path.of(value(args, ++i, a));
                case "--tool" -> tool = parseTool(value(args, ++i, a));
                case "--size" -> {
                    String v = value(args, ++i, a);
                    int x = v.indexOf('x');
                    try {
                        if (x <= 0) throw new NumberFormatException();
                        w = Integer.parseInt(v.substring(0, x));
                        h = Integer.parseInt(v.substring(x + 1));
                    } catch (NumberFormatException e) {
                        throw new UsageException("--size wants WIDTHxHEIGHT in pixels, e.g. 1400x900, not \"" + v + "\"");
                    }
                    if (w < 320 || h < 240 || w > 8192 || h > 8192) {
                        throw new UsageException("--size " + v + " is out of range (320x240 .. 8192x8192)");
                    }
                    sizeGiven = true;
                }
                default -> {
                    if (a.startsWith("--until=")) until = parseOp(a.substring(8));
                    else if (a.startsWith("--screenshot=")) shot = Path.of(a.substring(13));
                    else if (a.startsWith("--compare=")) compare = Path.of(a.substring(10));
                    else if (a.startsWith("--tool=")) tool = parseTool(a.substring(7));
                    else if (a.startsWith("-")) throw new UsageException("unknown option " + a);
                    else if (file != null) throw new UsageException("only one FILE can be opened, got \"" + file + "\" and \"" + a + "\"");
                    else file = Path.of(a);
                }
            }
        }
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

    private static String parseTool(String v) throws UsageException {
        if (!TOOLS.contains(v)) throw new UsageException("--tool wants one of run, fuzz, campaign, not \"" + v + "\"");
        return v;
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) throw new UsageException(option + " needs a value");
        return args[i];
    }

    private static Integer parseOp(String v) throws UsageException {
        if (!v.matches("[0-9]{1,10}") || Long.parseLong(v) > Integer.MAX_VALUE) {
            throw new UsageException("--until wants an op number (0, 1, 2, ...), not \"" + v + "\"");
        }
        return Integer.parseInt(v);
    }
}
