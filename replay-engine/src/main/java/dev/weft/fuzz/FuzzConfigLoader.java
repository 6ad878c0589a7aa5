package dev.weft.fuzz;

import dev.weft.check.Invariants;
import dev.weft.check.StreamIntegrity;
import dev.weft.json.JsonToken;
import dev.weft.json.Utf8;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads and validates a fuzz config file (fuzz.md §2). Unknown members are rejected at both levels with
 * the member named; the checks run in the order of the spec and the first failure wins.
 */
public final class FuzzConfigLoader {

    private static final List<String> TOP_FIELDS = List.of("//", "net", "seed_start", "seed_count", "jobs",
            "time_budget_secs", "invariants", "workload", "out_dir", "shrink", "regression_seeds");
    private static final List<String> WORKLOAD_FIELDS = List.of("nodes", "sends", "payload_len", "workload_seed");
    /**
     * The reference takes any payload length; ours stops where a reproducer's record (the payload in hex) would
     * no longer fit the log reader's default maximum line length, so every reproducer we write can be read.
     */
    static final long MAX_PAYLOAD_LEN = 16L << 20;

    /**
     * Payload bytes one seed's workload may send (sends × payload_len): each is generated, sent through the core and,
     * for a reproducer, written in hex, so beyond this a sweep takes minutes and gigabytes per seed. Ours.
     */
    static final long MAX_PAYLOAD_BYTES_PER_SEED = 1L << 30;

    /** A config file is a few hundred bytes; one past this is refused before it is read whole. Ours. */
    public static final int MAX_CONFIG_BYTES = 1 << 20;

    /** A workload this large would not fit in memory (the reference would abort); refuse it with a message. */
    static final long MAX_WORKLOAD_OPS = 50_000_000L;

    private FuzzConfigLoader() {
    }

    /**
     * Loads the file at {@code file}; {@code shownPath} is how the user named it (used in the read error).
     * The exception message is the text printed after {@code weft fuzz: }.
     */
    public static FuzzConfig load(Path file, String shownPath) throws FuzzConfigException {
        byte[] bytes;
        try {
            bytes = dev.weft.io.BoundedFiles.read(file, MAX_CONFIG_BYTES);
        } catch (dev.weft.io.BoundedFiles.TooLargeException e) {
            throw new FuzzConfigException("config " + shownPath + ": " + e.getMessage()
                    + "; a fuzz config is at most that (is this the right file?)");
        } catch (IOException e) {
            throw new FuzzConfigException("config " + shownPath + ": " + OsErrorText.of(e));
        }
        int bad = Utf8.firstInvalid(bytes, 0, bytes.length);
        if (bad >= 0) {
            // The reference reads the file as text first: bad UTF-8 is a read error, not a JSON one. Ours also says where.
            throw new FuzzConfigException("config " + shownPath + ": stream did not contain valid UTF-8" + where(bytes, bad));
        }
        return parse(bytes);
    }

    /** Parses and validates a config document. */
    public static FuzzConfig parse(byte[] document) throws FuzzConfigException {
        int bad = Utf8.firstInvalid(document, 0, document.length);
        if (bad >= 0) {
            throw new FuzzConfigException("config: stream did not contain valid UTF-8" + where(document, bad));
        }
        FuzzConfig c;
        try {
            c = read(document);
        } catch (StrictJson.Problem p) {
            throw new FuzzConfigException("config: " + p.getMessage());
        }
        validate(c);
        return c;
    }

    private static void validate(FuzzConfig c) throws FuzzConfigException {
        try {
            NetSpec.parse(c.net());
        } catch (NetSpecException e) {
            throw new FuzzConfigException("config net: " + e.getMessage());
        }
        if (c.seedCount() == 0) throw new FuzzConfigException("config: seed_count must be at least 1");
        if (c.jobs() == 0) throw new FuzzConfigException("config: jobs must be at least 1");
        if (c.invariants().isEmpty()) {
            throw new FuzzConfigException("config: at least one invariant is required (fifo, dup)");
        }
        for (String name : c.invariants()) {
            if (Invariants.canonicalName(name) == null) {
                throw new FuzzConfigException("config: unknown invariant \"" + name + "\" (known: fifo, dup)");
            }
            if (Invariants.canonicalName(name).equals(StreamIntegrity.NAME)) {
                // docs/tcp.md "Where TCP shows": the generated workload has no TCP stream for it to judge
                throw new FuzzConfigException("config: invariant \"" + name + "\" judges TCP streams and weft fuzz's"
                        + " generated workload is UDP datagrams only (judge a TCP target with a campaign's checker \"stream\")");
            }
        }
        if (c.workload().nodes() < 2) throw new FuzzConfigException("config: workload.nodes must be at least 2");
        if (Long.compareUnsigned(c.workload().payloadLen(), MAX_PAYLOAD_LEN) > 0) {
            throw new FuzzConfigException("config: workload.payload_len must be at most " + MAX_PAYLOAD_LEN);
        }
        long perSeed = payloadBytesPerSeed(c.workload());
        if (perSeed > MAX_PAYLOAD_BYTES_PER_SEED) {
            throw new FuzzConfigException("config: workload too large: " + Long.toUnsignedString(c.workload().sends())
                    + " sends of " + Long.toUnsignedString(c.workload().payloadLen() == 0 ? 1 : c.workload().payloadLen()) + " bytes are "
                    + gib(perSeed) + " GiB of payload per seed (at most " + (MAX_PAYLOAD_BYTES_PER_SEED >> 20)
                    + " MiB); lower workload.sends or workload.payload_len");
        }
        long bound = maxOps(c.workload());
        if (bound > MAX_WORKLOAD_OPS) {
            throw new FuzzConfigException("config: workload too large: up to " + bound + " ops (at most " + MAX_WORKLOAD_OPS
                    + "); lower workload.nodes or workload.sends");
        }
    }

    /** sends × max(payload_len, 1), saturating. */
    static long payloadBytesPerSeed(WorkloadSpec w) {
        BigInteger b = new BigInteger(Long.toUnsignedString(w.sends()))
                .multiply(new BigInteger(Long.toUnsignedString(w.payloadLen() == 0 ? 1 : w.payloadLen())));
        return b.bitLength() < 63 ? b.longValue() : Long.MAX_VALUE;
    }

    private static String gib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f", bytes / (double) (1L << 30));
    }

    /** Upper bound of the generated op count: 3 setup ops per node, each send with at most one poll, the tail polls. */
    static long maxOps(WorkloadSpec w) {
        BigInteger n = BigInteger.valueOf(Math.max(w.nodes(), 2));
        BigInteger sends = BigInteger.valueOf(w.sends());
        BigInteger total = n.multiply(BigInteger.valueOf(3)).add(sends.shiftLeft(1)).add(n.multiply(sends));
        return total.bitLength() < 63 ? total.longValue() : Long.MAX_VALUE;
    }

    private static FuzzConfig read(byte[] document) throws StrictJson.Problem {
        StrictJson json = StrictJson.over(document);
        if (json.nextValue() != JsonToken.START_OBJECT) throw json.invalidType("struct FuzzConfig");
        String net = null;
        long seedStart = 0;
        long seedCount = 1000;
        long jobs = FuzzConfig.defaultJobs();
        long budget = 0;
        List<String> invariants = List.of("fifo", "dup");
        WorkloadSpec workload = WorkloadSpec.DEFAULT;
        String outDir = FuzzConfig.DEFAULT_OUT_DIR;
        boolean shrink = true;
        List<Long> regressionSeeds = List.of();
        Set<String> seen = new HashSet<>();
        for (String name = nextMember(json, TOP_FIELDS, seen); name != null; name = nextMember(json, TOP_FIELDS, seen)) {
            switch (name) {
                case "//" -> json.optionalString(); // a comment slot: a string or null
                case "net" -> net = json.string();
                case "seed_start" -> seedStart = json.u64();
                case "seed_count" -> seedCount = json.u64();
                case "jobs" -> jobs = json.u64();
                case "time_budget_secs" -> budget = json.u64();
                case "invariants" -> invariants = json.stringArray();
                case "workload" -> workload = readWorkload(json);
                case "out_dir" -> outDir = json.string();
                case "shrink" -> shrink = json.bool();
                default -> regressionSeeds = json.u64Array();
            }
        }
        if (net == null) throw json.at("missing field `net`");
        json.expectEnd();
        return new FuzzConfig(net, seedStart, seedCount, jobs, budget, invariants, workload, outDir, shrink,
                regressionSeeds);
    }

    private static WorkloadSpec readWorkload(StrictJson json) throws StrictJson.Problem {
        if (json.current() == JsonToken.START_ARRAY) return readWorkloadSequence(json);
        if (json.current() != JsonToken.START_OBJECT) throw json.invalidType("struct Workload");
        WorkloadSpec d = WorkloadSpec.DEFAULT;
        long nodes = d.nodes();
        long sends = d.sends();
        long payloadLen = d.payloadLen();
        long seed = d.workloadSeed();
        Set<String> seen = new HashSet<>();
        for (String name = nextMember(json, WORKLOAD_FIELDS, seen); name != null; name = nextMember(json, WORKLOAD_FIELDS, seen)) {
            switch (name) {
                case "nodes" -> nodes = json.u32();
                case "sends" -> sends = json.u32();
                case "payload_len" -> payloadLen = json.u64();
                default -> seed = json.u64();
            }
        }
        return new WorkloadSpec(nodes, sends, payloadLen, seed);
    }

    /**
     * The sequence form serde accepts for every struct: the members in declaration order, missing trailing ones
     * taking their defaults ({@code "workload": []} is the default workload), more than four an error.
     */
    private static WorkloadSpec readWorkloadSequence(StrictJson json) throws StrictJson.Problem {
        WorkloadSpec d = WorkloadSpec.DEFAULT;
        long[] v = {d.nodes(), d.sends(), d.payloadLen(), d.workloadSeed()};
        for (int i = 0; json.nextValue() != JsonToken.END_ARRAY; i++) {
            if (i == v.length) throw json.at("trailing characters");
            v[i] = i < 2 ? json.u32() : json.u64();
        }
        return new WorkloadSpec(v[0], v[1], v[2], v[3]);
    }

    /**
     * The next member of the struct being read, with the parser at its value; null at the end of the object.
     * Unknown and repeated names are errors (the config rejects typos), located at the name.
     */
    private static String nextMember(StrictJson json, List<String> fields, Set<String> seen) throws StrictJson.Problem {
        if (json.next() != JsonToken.FIELD_NAME) return null;
        String name = json.fieldName();
        if (!fields.contains(name)) throw json.atFieldName(unknownField(name, fields), name);
        if (!seen.add(name)) throw json.atFieldName("duplicate field `" + shown(name) + "`", name);
        json.nextValue();
        return name;
    }

    /** " (line L column C, byte B)" for the byte at offset bad; columns count bytes from 1, as the JSON errors do. */
    private static String where(byte[] b, int bad) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < bad; i++) {
            if (b[i] == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return " (line " + line + " column " + (bad - lineStart + 1) + ", byte " + bad + ")";
    }

    /** A member name as shown in an error: verbatim, except that control characters are escaped so the message stays one line. */
    private static String shown(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                String q = dev.weft.text.RustText.debugQuote(name);
                return q.substring(1, q.length() - 1);
            }
        }
        return name;
    }

    private static String unknownField(String name, List<String> expected) {
        StringBuilder sb = new StringBuilder("unknown field `").append(shown(name)).append("`, expected one of ");
        for (int i = 0; i < expected.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append('`').append(expected.get(i)).append('`');
        }
        return sb.toString();
    }
}
