package dev.weft.launcher.campaign;

import dev.weft.history.HistoryModel;
import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.json.Utf8;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import dev.weft.launcher.run.ScenarioNetSpec;
import dev.weft.scenario.Scenario;
import dev.weft.scenario.ScenarioException;
import dev.weft.scenario.Scenarios;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A campaign config (docs/campaigns.md): the target, the cluster, the environment matrix, the checker and the keep
 * policy. Read strictly with the engine's tokenizer: unknown or repeated fields and wrong types are errors located
 * at line and column, like the fuzz config's.
 *
 * @param target        the program and its arguments, run on every node
 * @param nodes         how many nodes {@code weft run --nodes} starts
 * @param net           the net spec
 * @param env           variables set for every run (sorted)
 * @param matrix        variable → values; every combination is a cell (names sorted, values in file order)
 * @param checker       a protocol's checker ({@link Protocol#campaignCheck}), invariants ({@code fifo,dup}, {@code stream}, …) or {@code history:MODEL}; null when {@code checker_command} is set
 * @param checkerCommand an external checker (the recording's path is appended): exit 0 OK, 2 violation, 3 discard
 * @param timeBoundSecs wall-clock bound of one run (then the run is stopped and counted as ERROR)
 * @param watchdogSecs  {@code weft run --watchdog}
 * @param seedStart     first seed (--seeds overrides)
 * @param seedCount     number of seeds (--seeds overrides)
 * @param keepPassPermille how many of a thousand passing runs keep their recording (a seeded choice per run)
 * @param shim          {@code weft run --shim} (null: found as weft run finds it)
 * @param windowNs      {@code weft run --window} (0: plain runs). Windowed runs of one seed are byte-identical, so
 *                      each distinct violation is confirmed by a live re-run ({@link Confirmation})
 * @param scenario      a scenario file run under every seed ({@code weft run --seed N SCENARIO}) instead of a target
 *                      on every node; then target is empty and nodes and net are the scenario's; null otherwise
 */
public record CampaignConfig(List<String> target, int nodes, String net, Map<String, String> env,
        Map<String, List<String>> matrix, String checker, List<String> checkerCommand, long timeBoundSecs,
        long watchdogSecs, long seedStart, long seedCount, int keepPassPermille, String shim, long windowNs,
        String scenario) {

    /** A config problem, with its location when it has one. */
    public static final class ConfigException extends Exception {
        private static final long serialVersionUID = 1L;

        ConfigException(String message) {
            super(message);
        }
    }

    static final List<String> FIELDS = List.of("//", "target", "nodes", "net", "window_ns", "env", "matrix",
            "checker", "checker_command", "time_bound_secs", "watchdog_secs", "seed_start", "seed_count",
            "keep_pass_permille", "shim", "scenario");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._-]+");

    /** Parses and validates {@code document}; relative paths of target and shim resolve against {@code dir}. */
    public static CampaignConfig parse(byte[] document, Path dir) throws ConfigException {
        if (!Utf8.isValid(document)) {
            throw new ConfigException("not valid UTF-8");
        }
        try {
            return read(new JsonTokenizer(document), dir, false);
        } catch (JsonSyntaxError e) {
            throw new ConfigException(e.getMessage());
        }
    }

    /**
     * Reads a campaign folder's campaign.json ({@link #canonicalJson}) back, for resume's peers: merge, verify, compact
     * and campaign shrink. Its paths are absolute. A scenario campaign's file holds, besides {@code scenario}, the
     * {@code nodes} and {@code net} it ran with and an empty {@code target}: they are taken as written, and the
     * scenario file is not read again (a folder is checked against what it recorded, even if the scenario moved).
     */
    public static CampaignConfig parseCanonical(byte[] document) throws ConfigException {
        if (!Utf8.isValid(document)) {
            throw new ConfigException("not valid UTF-8");
        }
        try {
            return read(new JsonTokenizer(document), Path.of("/"), true);
        } catch (JsonSyntaxError e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static CampaignConfig read(JsonTokenizer j, Path dir, boolean canonical)
            throws JsonSyntaxError, ConfigException {
        if (j.nextToken() != JsonToken.START_OBJECT) {
            throw j.errorAtToken("a campaign config is a JSON object");
        }
        List<String> target = null;
        long nodes = 0;
        String net = null;
        Map<String, String> env = new TreeMap<>();
        Map<String, List<String>> matrix = new TreeMap<>();
        String checker = null;
        List<String> checkerCommand = null;
        long timeBound = 120;
        long watchdog = 30;
        long seedStart = 0;
        long seedCount = 10;
        long keepPermille = 0;
        String shim = null;
        long window = 0;
        String scenario = null;
        Set<String> seen = new HashSet<>();
        while (j.nextToken() == JsonToken.FIELD_NAME) {
            String name = j.currentName();
            if (!FIELDS.contains(name)) {
                throw j.errorAtToken("unknown field `" + name + "`, expected one of " + String.join(", ", FIELDS));
            }
            if (!seen.add(name)) {
                throw j.errorAtToken("duplicate field `" + name + "`");
            }
            j.nextToken();
            switch (name) {
                case "//" -> j.skipChildren();
                // (campaign.json gives a scenario campaign an empty target)
                case "target" -> target = canonical ? stringsOrNone(j, "target") : strings(j, "target");
                case "nodes" -> nodes = number(j, "nodes", 1, 64);
                case "net" -> net = string(j, "net");
                case "window_ns" -> window = number(j, "window_ns", 0, Long.MAX_VALUE);
                case "env" -> env = stringMap(j, "env");
                case "matrix" -> matrix = matrix(j);
                case "checker" -> checker = checker(j);
                case "checker_command" -> checkerCommand = strings(j, "checker_command");
                case "time_bound_secs" -> timeBound = number(j, "time_bound_secs", 1, 86_400);
                case "watchdog_secs" -> watchdog = number(j, "watchdog_secs", 0, 86_400);
                case "seed_start" -> seedStart = number(j, "seed_start", 0, Long.MAX_VALUE);
                case "seed_count" -> seedCount = number(j, "seed_count", 1, 100_000_000);
                case "keep_pass_permille" -> keepPermille = number(j, "keep_pass_permille", 0, 1000);
                case "scenario" -> scenario = string(j, "scenario");
                default -> shim = string(j, "shim");
            }
        }
        if (j.currentToken() != JsonToken.END_OBJECT) {
            throw j.errorAtToken("expected a field name");
        }
        // what is missing or inconsistent has no single place in the file: these messages name fields only
        String scenarioPath = null;
        if (scenario != null && canonical) {
            if (target != null && !target.isEmpty()) {
                throw new ConfigException("`scenario` names the programs: `target` is empty in a scenario campaign");
            }
            scenarioPath = scenario;
        } else if (scenario != null) {
            if (target != null || nodes != 0 || net != null) {
                throw new ConfigException("`scenario` names the programs, the nodes and the net: leave out `"
                        + (target != null ? "target" : nodes != 0 ? "nodes" : "net") + "`");
            }
            scenarioPath = resolve(dir, scenario.contains("/") ? scenario : "./" + scenario);
            Scenario s;
            try {
                s = Scenarios.load(Path.of(scenarioPath));
            } catch (IOException e) {
                throw new ConfigException("scenario " + scenarioPath + ": " + OsErrorText.of(e));
            } catch (ScenarioException e) {
                throw new ConfigException("scenario " + scenarioPath + ": " + e.getMessage());
            }
            target = List.of();
            nodes = s.nodes().size();
            net = ScenarioNetSpec.of(s);
        }
        if (target == null) throw new ConfigException("missing field `target`");
        if (target.isEmpty() && scenario == null) throw new ConfigException("target: must not be empty");
        if (net == null) throw new ConfigException("missing field `net`");
        if (nodes == 0) throw new ConfigException("missing field `nodes`");
        if ((checker == null) == (checkerCommand == null)) {
            throw new ConfigException("give exactly one of `checker` (" + protocolCheckers(Protocol::campaignCheckerExample)
                    + "\"fifo,dup\") and `checker_command`");
        }
        for (String k : matrix.keySet()) {
            if (env.containsKey(k)) throw new ConfigException("`" + k + "` is in both env and matrix");
        }
        j.nextToken(); // trailing characters are an error
        List<String> resolvedTarget = new ArrayList<>(target);
        if (!target.isEmpty()) resolvedTarget.set(0, resolve(dir, target.get(0)));
        List<String> resolvedChecker = checkerCommand;
        if (checkerCommand != null) {
            resolvedChecker = new ArrayList<>(checkerCommand);
            resolvedChecker.set(0, resolve(dir, checkerCommand.get(0)));
        }
        return new CampaignConfig(List.copyOf(resolvedTarget), (int) nodes, net, env, matrix, checker,
                resolvedChecker == null ? null : List.copyOf(resolvedChecker), timeBound, watchdog, seedStart,
                seedCount, (int) keepPermille, shim == null ? null : resolve(dir, shim), window, scenarioPath);
    }

    /** A relative path with a slash resolves against the config's folder; a bare name is looked up on PATH. */
    private static String resolve(Path dir, String p) {
        return p.contains("/") && !p.startsWith("/") ? dir.resolve(p).normalize().toString() : p;
    }

    /** The checker {@code history:MODEL}: {@code weft check history} on the run's history file (docs/history.md). */
    static final String HISTORY = "history:";

    private static String checker(JsonTokenizer j) throws JsonSyntaxError {
        String c = string(j, "checker");
        if (protocolChecker(c) || invariantList(c)
                || c.startsWith(HISTORY) && HistoryModel.named(c.substring(HISTORY.length())) != null) {
            return c;
        }
        throw j.errorAtToken("checker: unknown checker \"" + c + "\" (known: " + protocolCheckers(Protocol::campaignCheckerHelp)
                + "invariants such as \"fifo,dup\" or \"stream\" (each of fifo|dup|stream once), \"history:MODEL\" with MODEL one of " + HistoryModel.words()
                + "; or use checker_command)");
    }

    /** Whether {@code c} is a registered protocol's checker ({@link Protocol#campaignCheck}). */
    private static boolean protocolChecker(String c) {
        for (Protocol p : Protocols.all()) if (p.campaignCheck(c, "") != null) return true;
        return false;
    }

    /** Each registered protocol's checker, by protocol name, each followed by ", ". */
    private static String protocolCheckers(Function<Protocol, String> word) {
        StringBuilder s = new StringBuilder();
        for (Protocol p : Protocols.all()) s.append(word.apply(p)).append(", ");
        return s.toString();
    }

    /**
     * Whether {@code c} is a comma-separated list of the replay invariants a campaign may judge with (fifo, dup, and
     * stream for TCP runs, docs/tcp.md), each at most once: the checker is then {@code weft replay LOG --check c}.
     */
    static boolean invariantList(String c) {
        List<String> items = List.of(c.split(",", -1));
        return items.stream().allMatch(i -> i.equals("fifo") || i.equals("dup") || i.equals("stream"))
                && items.stream().distinct().count() == items.size();
    }

    private static Map<String, List<String>> matrix(JsonTokenizer j) throws JsonSyntaxError {
        if (j.currentToken() != JsonToken.START_OBJECT) throw j.errorAtToken("matrix: expected an object");
        Map<String, List<String>> m = new TreeMap<>();
        while (j.nextToken() == JsonToken.FIELD_NAME) {
            String k = j.currentName();
            if (!NAME.matcher(k).matches()) throw j.errorAtToken("matrix: `" + k + "` is not a variable name");
            if (m.containsKey(k)) throw j.errorAtToken("matrix: duplicate variable `" + k + "`");
            j.nextToken();
            List<String> values = strings(j, "matrix." + k);
            for (String v : values) {
                if (!VALUE.matcher(v).matches()) {
                    throw j.errorAtToken("matrix." + k + ": value \"" + v + "\" may only use letters, digits, . _ -");
                }
            }
            if (new HashSet<>(values).size() != values.size()) {
                throw j.errorAtToken("matrix." + k + ": repeated value");
            }
            m.put(k, values);
        }
        return m;
    }

    private static Map<String, String> stringMap(JsonTokenizer j, String what) throws JsonSyntaxError {
        if (j.currentToken() != JsonToken.START_OBJECT) throw j.errorAtToken(what + ": expected an object");
        Map<String, String> m = new TreeMap<>();
        while (j.nextToken() == JsonToken.FIELD_NAME) {
            String k = j.currentName();
            if (!NAME.matcher(k).matches()) throw j.errorAtToken(what + ": `" + k + "` is not a variable name");
            if (k.startsWith("WEFT_") || k.equals("LD_PRELOAD")) {
                throw j.errorAtToken(what + ": `" + k + "` is set by weft run itself");
            }
            j.nextToken();
            m.put(k, string(j, what + "." + k));
        }
        return m;
    }

    private static List<String> strings(JsonTokenizer j, String what) throws JsonSyntaxError {
        List<String> out = stringsOrNone(j, what);
        if (out.isEmpty()) throw j.errorAtToken(what + ": must not be empty");
        return out;
    }

    /** An array of strings, maybe empty. */
    private static List<String> stringsOrNone(JsonTokenizer j, String what) throws JsonSyntaxError {
        if (j.currentToken() != JsonToken.START_ARRAY) throw j.errorAtToken(what + ": expected an array of strings");
        List<String> out = new ArrayList<>();
        while (j.nextToken() != JsonToken.END_ARRAY) {
            out.add(string(j, what));
        }
        return out;
    }

    private static String string(JsonTokenizer j, String what) throws JsonSyntaxError {
        if (j.currentToken() != JsonToken.VALUE_STRING) throw j.errorAtToken(what + ": expected a string");
        return j.text();
    }

    private static long number(JsonTokenizer j, String what, long min, long max) throws JsonSyntaxError {
        if (j.currentToken() != JsonToken.VALUE_NUMBER_INT) throw j.errorAtToken(what + ": expected an integer");
        BigInteger v = j.bigInteger();
        if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
            throw j.errorAtToken(what + ": " + v + " is out of range " + min + ".." + max);
        }
        return v.longValue();
    }

    /** Validates the net spec (its own messages) — kept apart so the JSON layer stays a JSON layer. */
    public void checkNet() throws ConfigException {
        NetSpec spec;
        try {
            spec = NetSpec.parse(net);
        } catch (NetSpecException e) {
            throw new ConfigException("net: " + e.getMessage());
        }
        // weft run refuses such a window in every run; say it once, before the first run
        if (windowNs > 0 && Long.compareUnsigned(spec.minDelay(), windowNs) < 0) {
            throw new ConfigException("window_ns: " + windowNs + " is above the net's minimum latency of "
                    + Long.toUnsignedString(spec.minDelay()) + " ns (a datagram could land in the window it was sent"
                    + " in); use a window of at most the minimum latency");
        }
    }

    public boolean windowed() {
        return windowNs > 0;
    }

    /** The cells: every combination of matrix values, variables in name order, values in file order. */
    public List<Map<String, String>> cells() {
        List<Map<String, String>> cells = new ArrayList<>();
        cells.add(new LinkedHashMap<>());
        for (Map.Entry<String, List<String>> e : matrix.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : cells) {
                for (String v : e.getValue()) {
                    Map<String, String> n = new LinkedHashMap<>(c);
                    n.put(e.getKey(), v);
                    next.add(n);
                }
            }
            cells = next;
        }
        return cells;
    }

    /** The config in canonical form (paths resolved): campaign.json, and report.json's {@code campaign}. */
    CampaignFile file() {
        return new CampaignFile(checker, checkerCommand, env, keepPassPermille, matrix, net, nodes, seedCount, seedStart,
                shim, scenario, target, timeBoundSecs, watchdogSecs, windowNs);
    }

    /** campaign.json's text, written into the output folder: what resume and merge compare and read back. */
    String canonicalJson() {
        return file().text();
    }

    CampaignConfig withSeeds(long start, long count) {
        return new CampaignConfig(target, nodes, net, env, matrix, checker, checkerCommand, timeBoundSecs, watchdogSecs,
                start, count, keepPassPermille, shim, windowNs, scenario);
    }
}
