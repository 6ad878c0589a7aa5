package dev.weft.scenario;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Step 1 of scenario-dsl.md §2: JSON text → {@link Scenario}, with the reference's schema rules
 * (required members, integer members without fraction/exponent/sign, {@code -0} rejected, duplicate
 * members rejected, unknown members ignored, trailing text rejected). Every failure is a PARSE
 * {@link ScenarioException} naming line and column; nothing else escapes. A thin schema layer over
 * {@link JsonTokenizer}: unknown members are skipped without recursion (any depth, as the reference
 * ignores them); inside an action, whose members the reference buffers before it knows the variant,
 * its recursion limit of 128 levels applies.
 */
final class ScenarioParser {

    /** serde_json's recursion limit, which the reference meets where it buffers values (action members). */
    private static final int RECURSION_LIMIT = 128;
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final String VARIANTS = "`crash`, `start`, `activate_partition`, `clear_partition`";

    private final JsonTokenizer p;

    private ScenarioParser(JsonTokenizer p) {
        this.p = p;
    }

    static Scenario parse(String json) throws ScenarioException {
        JsonTokenizer parser = JsonTokenizer.of(json);
        ScenarioParser sp = new ScenarioParser(parser);
        try {
            if (parser.nextToken() == null) throw sp.error("EOF while parsing a value");
            Scenario scenario = sp.readScenario();
            if (parser.nextToken() != null) throw sp.error("trailing characters");
            return scenario;
        } catch (JsonSyntaxError e) {
            throw errorAt(e.what(), new Location(e.line(), e.column()));
        }
    }

    // ---- objects ------------------------------------------------------------------------------------

    private Scenario readScenario() throws JsonSyntaxError, ScenarioException {
        expectObject("struct Scenario");
        String name = null, description = null;
        Long seed = null;
        List<NodeSpec> nodes = null;
        NetworkSpec network = null;
        SortedMap<Long, FilesystemFaults> filesystem = null;
        SortedMap<Long, Long> timeSkew = null;
        List<ScenarioEvent> events = null;
        List<Long> endWhenExited = null;
        Members members = new Members("name", "description", "seed", "nodes", "network", "filesystem", "time_skew", "events",
                "end_when_exited");
        for (String field = members.next(); field != null; field = members.next()) {
            switch (field) {
                case "name" -> name = readString();
                case "description" -> description = orNull(this::readString);
                case "seed" -> seed = readU64();
                case "nodes" -> nodes = readList(this::readNode);
                case "network" -> network = orNull(this::readNetwork);
                case "filesystem" -> filesystem = orNull(() -> readNodeMap(this::readFilesystemFaults));
                case "time_skew" -> timeSkew = orNull(() -> readNodeMap(this::readI64));
                case "events" -> events = readList(this::readEvent);
                case "end_when_exited" -> endWhenExited = orNull(() -> readList(this::readU64));
            }
        }
        require(name, "name");
        require(seed, "seed");
        require(nodes, "nodes");
        return new Scenario(name, description, seed, nodes, network, filesystem, timeSkew, events == null ? List.of() : events,
                endWhenExited);
    }

    private NodeSpec readNode() throws JsonSyntaxError, ScenarioException {
        expectObject("struct NodeSpec");
        Long nodeId = null;
        String program = null;
        List<String> args = null;
        SortedMap<String, String> env = null;
        Members members = new Members("node_id", "program", "args", "env");
        for (String field = members.next(); field != null; field = members.next()) {
            switch (field) {
                case "node_id" -> nodeId = readU64();
                case "program" -> program = readString();
                case "args" -> args = readList(this::readString);
                case "env" -> env = orNull(this::readEnv);
            }
        }
        require(nodeId, "node_id");
        require(program, "program");
        require(args, "args");
        return new NodeSpec(nodeId, program, args, env == null ? new TreeMap<>() : env);
    }

    private NetworkSpec readNetwork() throws JsonSyntaxError, ScenarioException {
        expectObject("struct NetworkSpec");
        String latency = null, partitions = null;
        Double loss = null;
        Long bandwidth = null;
        Members members = new Members("latency", "loss", "bandwidth", "partitions");
        for (String field = members.next(); field != null; field = members.next()) {
            switch (field) {
                case "latency" -> latency = orNull(this::readString);
                case "loss" -> loss = orNull(this::readF64);
                case "bandwidth" -> bandwidth = orNull(this::readU64);
                case "partitions" -> partitions = orNull(this::readString);
            }
        }
        return new NetworkSpec(latency, loss, bandwidth, partitions);
    }

    private FilesystemFaults readFilesystemFaults() throws JsonSyntaxError, ScenarioException {
        expectObject("struct FilesystemFaults");
        boolean fsyncLies = false;
        Long enospc = null;
        Double torn = null;
        Members members = new Members("fsync_lies", "enospc_after_bytes", "torn_write_probability");
        for (String field = members.next(); field != null; field = members.next()) {
            switch (field) {
                case "fsync_lies" -> fsyncLies = readBool();
                case "enospc_after_bytes" -> enospc = orNull(this::readU64);
                case "torn_write_probability" -> torn = orNull(this::readF64);
            }
        }
        return new FilesystemFaults(fsyncLies, enospc, torn);
    }

    /** A sequence of elements read by {@code element}. */
    private <T> List<T> readList(Reader<T> element) throws JsonSyntaxError, ScenarioException {
        expectArray("a sequence");
        List<T> out = new ArrayList<>();
        while (nextInArray()) {
            out.add(element.read());
        }
        return out;
    }

    /**
     * A map keyed by node id (filesystem, time_skew); a repeated key replaces the earlier entry, as a map
     * insert does.
     */
    private <V> SortedMap<Long, V> readNodeMap(Reader<V> value) throws JsonSyntaxError, ScenarioException {
        expectObject("a map");
        SortedMap<Long, V> out = new TreeMap<>(Long::compareUnsigned);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            long node = nodeKey(p.currentName());
            p.nextToken();
            out.put(node, value.read());
        }
        return out;
    }

    /** Our {@code env} extension of a node: an object of string values; a later duplicate name replaces an earlier one. */
    private SortedMap<String, String> readEnv() throws JsonSyntaxError, ScenarioException {
        expectObject("a map of environment variables");
        SortedMap<String, String> out = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                throw error("invalid environment variable name \"" + name + "\" (empty, or has '=' or NUL)");
            }
            p.nextToken();
            String value = readString();
            if (value.indexOf('\0') >= 0) {
                throw error("environment variable " + name + ": a value cannot contain NUL");
            }
            out.put(name, value);
        }
        return out;
    }

    /** Reads the value the parser is at. */
    @FunctionalInterface
    private interface Reader<T> {
        T read() throws JsonSyntaxError, ScenarioException;
    }

    /** null for a JSON null, else the value {@code read} reads (serde's {@code Option}). */
    private <T> T orNull(Reader<T> read) throws JsonSyntaxError, ScenarioException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : read.read();
    }

    private ScenarioEvent readEvent() throws JsonSyntaxError, ScenarioException {
        expectObject("struct Event");
        Long time = null;
        ScenarioAction action = null;
        Members members = new Members("time_ns", "action");
        for (String field = members.next(); field != null; field = members.next()) {
            switch (field) {
                case "time_ns" -> time = readU64();
                case "action" -> action = readAction();
            }
        }
        require(time, "time_ns");
        require(action, "action");
        return new ScenarioEvent(time, action);
    }

    /**
     * An internally tagged object: {@code type} may come anywhere, so the variant's members are
     * captured first and interpreted once the tag is known; members the variant does not have are
     * ignored whatever their type.
     */
    private ScenarioAction readAction() throws JsonSyntaxError, ScenarioException {
        expectObject("internally tagged enum Action");
        String type = null;
        List<Captured> nodeIds = new ArrayList<>();
        List<Captured> specs = new ArrayList<>();
        Fields seen = new Fields();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            switch (field) {
                case "type" -> { seen.once(field); type = readString(); }
                case "node_id" -> nodeIds.add(capture());
                case "spec" -> specs.add(capture());
                default -> p.skipChildren(RECURSION_LIMIT);
            }
        }
        require(type, "type");
        switch (type) {
            case "crash", "start" -> {
                long nodeId = capturedU64(only(nodeIds, "node_id"));
                return type.equals("crash") ? new ScenarioAction.Crash(nodeId) : new ScenarioAction.Start(nodeId);
            }
            case "activate_partition" -> {
                return new ScenarioAction.ActivatePartition(capturedString(only(specs, "spec")));
            }
            case "clear_partition" -> {
                return new ScenarioAction.ClearPartition();
            }
            default -> throw error("unknown variant `" + type + "`, expected one of " + VARIANTS);
        }
    }

    /** A scalar member value remembered with its position (containers are skipped, their kind kept). */
    private record Captured(JsonToken token, String text, Location at) {
    }

    /** Where a token starts (1-based line and byte column). */
    private record Location(int line, int column) {
    }

    private Captured capture() throws JsonSyntaxError {
        JsonToken t = p.currentToken();
        Location at = tokenLocation();
        String text = t.isScalarValue() ? p.text() : null;
        p.skipChildren(RECURSION_LIMIT);
        return new Captured(t, text, at);
    }

    private Location tokenLocation() {
        return new Location(p.tokenLine(), p.tokenColumn());
    }

    private Captured only(List<Captured> values, String field) throws ScenarioException {
        if (values.isEmpty()) throw error("missing field `" + field + "`");
        if (values.size() > 1) throw errorAt("duplicate field `" + field + "`", values.get(1).at());
        return values.get(0);
    }

    private long capturedU64(Captured c) throws ScenarioException {
        if (c.token() != JsonToken.VALUE_NUMBER_INT) throw errorAt("invalid type: " + describe(c.token(), c.text()) + ", expected u64", c.at());
        Long v = u64OrNull(c.text());
        if (v == null) throw errorAt("invalid value: integer `" + c.text() + "`, expected u64", c.at());
        return v;
    }

    private String capturedString(Captured c) throws ScenarioException {
        if (c.token() != JsonToken.VALUE_STRING) throw errorAt("invalid type: " + describe(c.token(), c.text()) + ", expected a string", c.at());
        return c.text();
    }

    // ---- scalars ------------------------------------------------------------------------------------

    private String readString() throws JsonSyntaxError, ScenarioException {
        if (p.currentToken() != JsonToken.VALUE_STRING) throw invalidType("a string"); // lone surrogates: the tokenizer
        return p.text();
    }

    private boolean readBool() throws JsonSyntaxError, ScenarioException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE) return true;
        if (t == JsonToken.VALUE_FALSE) return false;
        throw invalidType("a boolean");
    }

    /** A JSON integer in [0, 2^64): no fraction, no exponent, no sign (so {@code -0} is refused too). */
    private long readU64() throws JsonSyntaxError, ScenarioException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw invalidType("u64");
        String text = p.text();
        Long v = u64OrNull(text);
        if (v == null) throw error("invalid value: integer `" + text + "`, expected u64");
        return v;
    }

    /** The value of a JSON integer token's text if it lies in [0, 2^64) and has no sign, else null. */
    private static Long u64OrNull(String text) {
        if (text.startsWith("-")) return null;
        BigInteger v = new BigInteger(text);
        return v.compareTo(U64_MAX) > 0 ? null : v.longValue();
    }

    private long readI64() throws JsonSyntaxError, ScenarioException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT) throw invalidType("i64");
        String text = p.text();
        if (text.equals("-0")) throw error("invalid type: floating point `-0.0`, expected i64");
        BigInteger v = new BigInteger(text);
        if (v.bitLength() > 63) throw error("invalid value: integer `" + text + "`, expected i64");
        return v.longValue();
    }

    /** Any JSON number; one too large for an f64 is refused as the reference's parser does. */
    private double readF64() throws JsonSyntaxError, ScenarioException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) throw invalidType("f64");
        double d = Double.parseDouble(p.text()); // JSON number syntax is a subset of Java's, correctly rounded
        if (Double.isInfinite(d)) throw error("number out of range");
        return d;
    }

    /** A filesystem / time_skew key: a JSON string holding plain decimal digits. */
    private long nodeKey(String key) throws ScenarioException {
        if (key.isEmpty() || key.length() > 20 || !key.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw error("invalid node id key \"" + key + "\", expected plain decimal digits");
        }
        BigInteger v = new BigInteger(key);
        if (v.compareTo(U64_MAX) > 0) throw error("invalid node id key \"" + key + "\", expected u64");
        return v.longValue();
    }

    // ---- helpers ------------------------------------------------------------------------------------

    /** Advances inside an array: true at the next element, false at its end. */
    private boolean nextInArray() throws JsonSyntaxError, ScenarioException {
        JsonToken t = p.nextToken();
        if (t == null) throw error("EOF while parsing a list");
        return t != JsonToken.END_ARRAY;
    }

    private void expectObject(String what) throws ScenarioException {
        if (p.currentToken() != JsonToken.START_OBJECT) throw invalidType(what);
    }

    private void expectArray(String what) throws ScenarioException {
        if (p.currentToken() != JsonToken.START_ARRAY) throw invalidType(what);
    }

    private void require(Object value, String field) throws ScenarioException {
        if (value == null) throw error("missing field `" + field + "`");
    }

    private ScenarioException invalidType(String expected) {
        return error("invalid type: " + describeCurrent() + ", expected " + expected);
    }

    private String describeCurrent() {
        JsonToken t = p.currentToken();
        return describe(t, t != null && t.isScalarValue() ? p.text() : null);
    }

    private static String describe(JsonToken t, String text) {
        if (t == null) return "end of input";
        return switch (t) {
            case VALUE_STRING -> "string \"" + text + "\"";
            case VALUE_NUMBER_INT -> "integer `" + text + "`";
            case VALUE_NUMBER_FLOAT -> "floating point `" + text + "`";
            case VALUE_TRUE, VALUE_FALSE -> "boolean `" + text + "`";
            case VALUE_NULL -> "null";
            case START_ARRAY -> "sequence";
            case START_OBJECT -> "map";
            default -> String.valueOf(t);
        };
    }

    private ScenarioException error(String message) {
        return errorAt(message, tokenLocation());
    }

    private static ScenarioException errorAt(String message, Location where) {
        return ScenarioException.parse(oneLine(message) + " at line " + where.line() + " column " + where.column());
    }

    /** Parser messages may quote input; keep the error on one line. */
    private static String oneLine(String s) {
        if (s == null) return "unknown error";
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n') sb.append("\\n");
            else if (c == '\r') sb.append("\\r");
            else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
            else sb.append(c);
        }
        return sb.toString();
    }

    /** Duplicate member detection for struct-like objects. */
    private final class Fields {
        private final java.util.Set<String> names = new java.util.TreeSet<>();

        void once(String field) throws ScenarioException {
            if (!names.add(field)) throw error("duplicate field `" + field + "`");
        }
    }

    /**
     * The members of a struct-like object (the parser at its '{'): {@link #next()} returns each known member's name
     * with the parser at its value (a known name twice is an error), skips unknown members whatever their value,
     * and returns null at the '}'.
     */
    private final class Members {
        private final List<String> known;
        private final Fields seen = new Fields();

        Members(String... known) {
            this.known = List.of(known);
        }

        String next() throws JsonSyntaxError, ScenarioException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if (known.contains(field)) {
                    seen.once(field);
                    return field;
                }
                p.skipChildren();
            }
            return null;
        }
    }
}
