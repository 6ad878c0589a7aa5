package dev.weft.app.run;

import dev.weft.launcher.run.RunOptions;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import dev.weft.text.ShellWords;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the run panel's form says, as text the user typed: turned into {@code weft run} arguments, checked field
 * by field (each error is meant for the line under its field), and shown as the equivalent shell command.
 *
 * @param program   the program to start on every node (path or bare name)
 * @param arguments its arguments, split on blanks (quotes group words)
 * @param nodes     node count
 * @param net       the net spec (may be empty: a reliable network)
 * @param seed      the seed (decimal or 0x hex, as {@code weft run --seed})
 * @param strategy  random or rr
 * @param windowNs  the window in ns; empty or 0 for none
 * @param watchdog  seconds without a network operation before the run is stopped; empty or 0 for none
 * @param record    where the recording goes (empty: no recording)
 * @param env       extra variables, {@code NAME=value} words
 * @param stats     {@code --stats}
 * @param trace     {@code --trace} (the shim's own trace on stderr)
 * @param network   a simulated network ({@code --net}, nodes, recording, watchdog, window); without one, a single
 *                  process runs under the shim with no broker and no recording
 * @param scenario  a scenario file (empty: none); with a network it replaces program, arguments, nodes, net and seed
 *                  — the scenario lists its nodes, network and seed itself ({@code weft run [--window NS] SCENARIO.json})
 */
public record RunRequest(String program, String arguments, String nodes, String net, String seed, String strategy,
        String windowNs, String watchdog, String record, String env, boolean stats, boolean trace, boolean network,
        String scenario) {

    /** A run without a scenario file. */
    public RunRequest(String program, String arguments, String nodes, String net, String seed, String strategy,
            String windowNs, String watchdog, String record, String env, boolean stats, boolean trace, boolean network) {
        this(program, arguments, nodes, net, seed, strategy, windowNs, watchdog, record, env, stats, trace, network, "");
    }

    /** A networked run (the usual case), without the shim's trace. */
    public RunRequest(String program, String arguments, String nodes, String net, String seed, String strategy,
            String windowNs, String watchdog, String record, String env, boolean stats) {
        this(program, arguments, nodes, net, seed, strategy, windowNs, watchdog, record, env, stats, false, true);
    }

    /**
     * The form for {@code weft run} arguments (as {@code weft workbench --tool run -- ARGS} gives them): the options
     * the form has, then {@code --} and the program with its arguments; leading {@code NAME=value} words are the
     * extra variables. Anything the form has no field for is refused, naming it.
     */
    public static RunRequest fromArgs(List<String> args) {
        List<String> env = new ArrayList<>();
        String nodes = "1", net = null, seed = "0", strategy = "random", window = "", watchdog = "", record = "";
        boolean stats = false, trace = false;
        int i = 0;
        while (i < args.size() && args.get(i).matches("[A-Za-z_][A-Za-z0-9_]*=.*")) env.add(ShellWords.quote(args.get(i++)));
        String scenario = "";
        for (; i < args.size() && !args.get(i).equals("--"); i++) {
            String a = args.get(i);
            if (i == args.size() - 1 && a.endsWith(".json") && !a.startsWith("-")) {
                scenario = a;   // weft run [OPTIONS] SCENARIO.json: the scenario gives nodes, network and seed
                break;
            }
            switch (a) {
                case "--stats" -> stats = true;
                case "--trace" -> trace = true;
                case "--seed", "--strategy", "--net", "--nodes", "--window", "--watchdog", "--record" -> {
                    if (i + 1 >= args.size()) throw new IllegalArgumentException(a + " needs a value");
                    String v = args.get(++i);
                    switch (a) {
                        case "--seed" -> seed = v;
                        case "--strategy" -> strategy = v;
                        case "--net" -> net = v;
                        case "--nodes" -> nodes = v;
                        case "--window" -> window = v;
                        case "--watchdog" -> watchdog = v;
                        default -> record = v;
                    }
                }
                default -> throw new IllegalArgumentException("the run panel has no field for \"" + a
                        + "\" (it takes NAME=value words, --seed, --strategy, --net, --nodes, --window, --watchdog,"
                        + " --record, --stats, --trace, then -- PROGRAM ARGS or a SCENARIO.json)");
            }
        }
        if (!scenario.isEmpty()) {
            return new RunRequest("", "", nodes, net == null ? "" : net, seed, strategy, window, watchdog, record,
                    String.join(" ", env), stats, trace, true, scenario);
        }
        if (i + 1 >= args.size()) throw new IllegalArgumentException("no program: end the weft run arguments with -- PROGRAM [ARGS]");
        String program = args.get(i + 1);
        String arguments = String.join(" ", args.subList(i + 2, args.size()).stream().map(ShellWords::quote).toList());
        return new RunRequest(program, arguments, nodes, net == null ? "" : net, seed, strategy, window, watchdog, record,
                String.join(" ", env), stats, trace, net != null);
    }

    /** The form fields an error can be shown under. */
    public enum Field { PROGRAM, NODES, NET, SEED, WINDOW, WATCHDOG, RECORD, ENV, SCENARIO, COMMAND }

    /** A networked run whose nodes, network and seed come from {@link #scenario}. */
    public boolean usesScenario() {
        return network && !scenario.isBlank();
    }

    /** The weft run arguments (after {@code run}), without checking them. */
    public List<String> args() {
        List<String> a = new ArrayList<>(usesScenario() ? List.of("--strategy", strategy)
                : List.of("--seed", seed.strip(), "--strategy", strategy));
        if (network) {
            if (!usesScenario()) a.addAll(List.of("--net", net.strip(), "--nodes", nodes.strip()));
            if (!record.isBlank()) a.addAll(List.of("--record", record.strip()));
            if (!blankOrZero(watchdog)) a.addAll(List.of("--watchdog", watchdog.strip()));
            if (!blankOrZero(windowNs)) a.addAll(List.of("--window", windowNs.strip()));
        }
        if (stats) a.add("--stats");
        if (trace) a.add("--trace");
        if (usesScenario()) {
            a.add(scenario.strip());   // the scenario alone, as weft run takes it: no -- and no program
            return a;
        }
        a.add("--");
        a.add(program.strip());
        a.addAll(words(arguments));
        return a;
    }

    /**
     * Every problem of the form, one per field (sorted by field), checked with the launcher's own parser so the
     * panel refuses exactly what {@code weft run} would refuse. Empty when the run can start.
     */
    public Map<Field, String> problems() {
        Map<Field, String> p = new TreeMap<>();
        if (usesScenario()) {
            scenarioProblem(p);
        } else if (program.isBlank()) {
            p.put(Field.PROGRAM, "a program to run on every node");
        }
        if (network && !usesScenario()) {
            try {
                NetSpec.parse(net.strip());
            } catch (NetSpecException e) {
                p.put(Field.NET, e.getMessage());
            }
            number(p, Field.NODES, nodes, false);
        }
        if (network) {
            number(p, Field.WATCHDOG, watchdog, true);
            number(p, Field.WINDOW, windowNs, true);
        }
        if (seed.isBlank() && !usesScenario()) p.put(Field.SEED, "a seed, e.g. 0 or 0x2a");
        try {
            environment();
        } catch (IllegalArgumentException e) {
            p.put(Field.ENV, e.getMessage());
        }
        if (p.isEmpty()) {
            try {
                RunOptions.parse(args().toArray(String[]::new));
            } catch (RunOptions.UsageException e) {
                p.put(fieldOf(e.getMessage()), e.getMessage());
            } catch (IllegalArgumentException e) {
                p.put(Field.COMMAND, e.getMessage());
            }
        }
        return p;
    }

    /** The scenario file must load with the engine's own loader (the message names what is wrong, and where). */
    private void scenarioProblem(Map<Field, String> p) {
        String f = scenario.strip();
        if (!f.endsWith(".json")) {
            p.put(Field.SCENARIO, "a scenario is a .json file (weft run takes it by its name)");
            return;
        }
        try {
            dev.weft.scenario.Scenarios.load(java.nio.file.Path.of(f));
        } catch (java.nio.file.NoSuchFileException e) {
            p.put(Field.SCENARIO, f + ": no such file");
        } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
            p.put(Field.SCENARIO, f + ": cannot read it (" + e.getMessage() + ")");
        } catch (dev.weft.scenario.ScenarioException e) {
            p.put(Field.SCENARIO, f + ": " + e.getMessage());
        }
    }

    /** The extra variables, in the order typed; WEFT_* and LD_PRELOAD are weft run's own and refused. */
    public Map<String, String> environment() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String w : words(env)) {
            int eq = w.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("\"" + w + "\": expected NAME=value");
            String name = w.substring(0, eq);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("\"" + name + "\": not a variable name");
            }
            if (name.startsWith("WEFT_") || name.equals("LD_PRELOAD")) {
                throw new IllegalArgumentException(name + " is set by weft run itself");
            }
            m.put(name, w.substring(eq + 1));
        }
        return m;
    }

    /** The same run as a shell command line, to copy (the variables in front, as a shell would take them). */
    public String commandLine() {
        StringBuilder sb = new StringBuilder();
        try {
            environment().forEach((k, v) -> sb.append(k).append('=').append(ShellWords.quote(v)).append(' '));
        } catch (IllegalArgumentException e) {
            // shown under the field; the command line leaves the variables out
        }
        sb.append("weft run");
        try {
            for (String a : args()) sb.append(' ').append(ShellWords.quote(a));
        } catch (IllegalArgumentException e) {
            sb.append(" …");   // an unclosed quote: the error is shown under the field
        }
        return sb.toString();
    }

    private static Field fieldOf(String message) {
        if (message.startsWith("--seed")) return Field.SEED;
        if (message.startsWith("--net")) return Field.NET;
        if (message.startsWith("--nodes")) return Field.NODES;
        if (message.startsWith("--window")) return Field.WINDOW;
        if (message.startsWith("--watchdog")) return Field.WATCHDOG;
        if (message.startsWith("--record")) return Field.RECORD;
        if (message.startsWith("no program")) return Field.PROGRAM;
        if (message.startsWith("scenario")) return Field.SCENARIO;
        return Field.COMMAND;
    }

    private static void number(Map<Field, String> p, Field f, String v, boolean blankOk) {
        String s = v.strip();
        if (s.isEmpty() && blankOk) return;
        if (!s.matches("[0-9]{1,18}")) p.put(f, "\"" + s + "\": expected a whole number");
        else if (f == Field.NODES && (Long.parseLong(s) < 1 || Long.parseLong(s) > dev.weft.launcher.run.RunLimits.MAX_NODES)) p.put(f, "1 to " + dev.weft.launcher.run.RunLimits.MAX_NODES + " nodes");
    }

    private static boolean blankOrZero(String v) {
        return v.isBlank() || v.strip().matches("0+");
    }

    /** Splits on blanks; single or double quotes group words (no escapes inside single quotes, as in sh). */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else cur.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) out.add(cur.toString());
                cur.setLength(0);
                inWord = false;
            } else {
                cur.append(c);
                inWord = true;
            }
        }
        if (quote != 0) throw new IllegalArgumentException("unclosed " + quote);
        if (inWord) out.add(cur.toString());
        return out;
    }

    /**
     * Why the program cannot be started, or null: a path names no file or one that is not executable; a bare name is
     * on no directory of {@code path} (the PATH weft run is started with). Kept apart from {@link #problems()}, which
     * only judges the form's syntax, since this looks at the file system.
     */
    public static String programNotFound(String program, String path) {
        String p = program.strip();
        if (p.isEmpty()) return null;
        if (p.contains("/")) {
            java.nio.file.Path file = java.nio.file.Path.of(p);
            if (!java.nio.file.Files.exists(file)) return "no such file: " + p;
            if (!java.nio.file.Files.isRegularFile(file) || !java.nio.file.Files.isExecutable(file)) return "not an executable file: " + p;
            return null;
        }
        for (String dir : (path == null ? "" : path).split(":", -1)) {
            java.nio.file.Path file = java.nio.file.Path.of(dir.isEmpty() ? "." : dir).resolve(p);
            if (java.nio.file.Files.isRegularFile(file) && java.nio.file.Files.isExecutable(file)) return null;
        }
        return "\"" + p + "\" is not on PATH: give its path (Browse…)";
    }

    /**
     * The recording path for a new seed: a name that carries the old seed ("run-s3.weftlog", "run_s3.weftlog.gz",
     * "s3.weftlog") carries the new one; any other name is kept as it is.
     */
    public static String recordForSeed(String record, String oldSeed, String newSeed) {
        String o = oldSeed == null ? "" : oldSeed.strip(), n = newSeed == null ? "" : newSeed.strip();
        if (o.isEmpty() || n.isEmpty() || o.equals(n) || record == null) return record;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(^|.*[/\\-_.])s" + java.util.regex.Pattern.quote(o)
                + "(\\.weftlog(\\.gz)?)$").matcher(record);
        return m.matches() ? m.group(1) + "s" + n + m.group(2) : record;
    }
}
