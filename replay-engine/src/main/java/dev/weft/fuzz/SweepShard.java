package dev.weft.fuzz;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.log.CanonicalJson;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The phase-1 result of one shard of a fuzz sweep ({@code weft fuzz --shard I/N}), as written to
 * {@code <out>/sweep-shard.json} and merged by {@code weft fuzz merge}.
 *
 * <p>Shard I sweeps the queue entries (fuzz.md §5) with index {@code i % N == I}. A finding keeps the global queue
 * index of its first occurrence, so merging is exact: a key's message is the one of the smallest index over all
 * shards, its seeds are the union, tested/failed are sums — the sweep result a single process computes, whatever
 * the shard count. Phase 2 (shrinking, reproducers, report) then runs once, on the merged result, and writes what a
 * single run writes. The file also holds everything of the config the result depends on; shards of different
 * configs are refused.
 *
 * @param config    the config the shard ran (jobs, out_dir and the time budget do not affect the merge)
 * @param index     this shard's index
 * @param count     the number of shards
 * @param sweep     the shard's findings, with global queue indices
 * @param tookNanos the shard's sweep time (informative only, like the report's duration)
 */
public record SweepShard(FuzzConfig config, long index, long count, SweepResult sweep, long tookNanos) {

    public static final String FILE = "sweep-shard.json";

    /** A shard file that cannot be read or does not fit the others; the message names the problem. */
    public static final class ShardException extends Exception {
        private static final long serialVersionUID = 1L;

        public ShardException(String message) {
            super(message);
        }
    }

    /** The config members that decide a sweep's result, as one canonical JSON object. */
    static String configJson(FuzzConfig c) {
        StringBuilder sb = new StringBuilder("{\"invariants\": [");
        for (int i = 0; i < c.invariants().size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(CanonicalJson.string(c.invariants().get(i)));
        }
        sb.append("], \"net\": ").append(CanonicalJson.string(c.net())).append(", \"regression_seeds\": [");
        for (int i = 0; i < c.regressionSeeds().size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(c.regressionSeeds().get(i)));
        }
        WorkloadSpec w = c.workload();
        return sb.append("], \"seed_count\": ").append(Long.toUnsignedString(c.seedCount()))
                .append(", \"seed_start\": ").append(Long.toUnsignedString(c.seedStart()))
                .append(", \"shrink\": ").append(c.shrink())
                .append(", \"workload\": {\"nodes\": ").append(Long.toUnsignedString(w.nodes()))
                .append(", \"payload_len\": ").append(Long.toUnsignedString(w.payloadLen()))
                .append(", \"sends\": ").append(Long.toUnsignedString(w.sends()))
                .append(", \"workload_seed\": ").append(Long.toUnsignedString(w.workloadSeed())).append("}}").toString();
    }

    /** The file's text: keys sorted, one finding per line. */
    public String toJson() {
        StringBuilder sb = new StringBuilder("{\n  \"budget_hit\": ").append(sweep.budgetHit()).append(",\n");
        sb.append("  \"config\": ").append(configJson(config)).append(",\n");
        sb.append("  \"failed\": ").append(Long.toUnsignedString(sweep.failed())).append(",\n");
        sb.append("  \"findings\": [");
        List<SweepResult.Finding> fs = sweep.findings();
        for (int i = 0; i < fs.size(); i++) {
            SweepResult.Finding f = fs.get(i);
            sb.append(i == 0 ? "\n" : ",\n").append("    {\"first_index\": ").append(Long.toUnsignedString(f.firstIndex()))
                    .append(", \"invariant\": ").append(CanonicalJson.string(f.key().invariant())).append(", \"seeds\": [");
            int k = 0;
            for (long s : f.seeds()) {
                sb.append(k++ == 0 ? "" : ", ").append(Long.toUnsignedString(s));
            }
            sb.append("], \"subject\": ").append(CanonicalJson.string(f.key().subject())).append(", \"what\": ").append(CanonicalJson.string(f.what()))
                    .append('}');
        }
        sb.append(fs.isEmpty() ? "],\n" : "\n  ],\n");
        sb.append("  \"format\": \"weft-fuzz-shard\",\n");
        sb.append("  \"shard\": {\"count\": ").append(Long.toUnsignedString(count)).append(", \"index\": ")
                .append(Long.toUnsignedString(index)).append("},\n");
        sb.append("  \"tested\": ").append(Long.toUnsignedString(sweep.tested())).append(",\n");
        sb.append("  \"took_nanos\": ").append(tookNanos).append(",\n");
        sb.append("  \"version\": 1\n}\n");
        return sb.toString();
    }

    /** What a shard file says: its config (as canonical JSON, compared between shards) and its result. */
    public record Read(String configJson, FuzzConfig config, long index, long count, SweepResult sweep, long tookNanos) {
    }

    /** Parses a shard file; {@code shown} names it in errors. */
    public static Read parse(byte[] doc, String shown) throws ShardException {
        Object v;
        try {
            JsonTokenizer t = new JsonTokenizer(doc);
            t.nextToken();
            v = value(t, 0);
            if (t.nextToken() != null) throw t.errorAtToken("trailing characters after the document");
        } catch (JsonSyntaxError e) {
            throw new ShardException(shown + ": " + e.getMessage());
        }
        try {
            Map<?, ?> m = (Map<?, ?>) v;
            if (!"weft-fuzz-shard".equals(m.get("format")) || !BigInteger.ONE.equals(m.get("version"))) {
                throw new ShardException(shown + ": not a weft fuzz shard file (format weft-fuzz-shard, version 1)");
            }
            Map<?, ?> c = (Map<?, ?>) m.get("config");
            Map<?, ?> w = (Map<?, ?>) c.get("workload");
            List<String> invariants = new ArrayList<>();
            for (Object o : (List<?>) c.get("invariants")) invariants.add((String) o);
            List<Long> regression = new ArrayList<>();
            for (Object o : (List<?>) c.get("regression_seeds")) regression.add(u64(o));
            FuzzConfig config = new FuzzConfig((String) c.get("net"), u64(c.get("seed_start")), u64(c.get("seed_count")),
                    FuzzConfig.defaultJobs(), 0, invariants, new WorkloadSpec(u64(w.get("nodes")), u64(w.get("sends")),
                    u64(w.get("payload_len")), u64(w.get("workload_seed"))), FuzzConfig.DEFAULT_OUT_DIR,
                    (Boolean) c.get("shrink"), regression);
            List<SweepResult.Finding> findings = new ArrayList<>();
            for (Object o : (List<?>) m.get("findings")) {
                Map<?, ?> f = (Map<?, ?>) o;
                SortedSet<Long> seeds = new TreeSet<>(Long::compareUnsigned);
                for (Object s : (List<?>) f.get("seeds")) seeds.add(u64(s));
                if (seeds.isEmpty()) throw new ShardException(shown + ": a finding without seeds");
                findings.add(new SweepResult.Finding(new ViolationKey((String) f.get("invariant"), (String) f.get("subject")),
                        (String) f.get("what"), Collections.unmodifiableSortedSet(seeds), u64(f.get("first_index"))));
            }
            Map<?, ?> shard = (Map<?, ?>) m.get("shard");
            long count = u64(shard.get("count"));
            long index = u64(shard.get("index"));
            if (count == 0 || Long.compareUnsigned(index, count) >= 0) {
                throw new ShardException(shown + ": shard " + Long.toUnsignedString(index) + " of "
                        + Long.toUnsignedString(count) + " is out of range");
            }
            SweepResult sweep = new SweepResult(u64(m.get("tested")), u64(m.get("failed")), (Boolean) m.get("budget_hit"),
                    findings);
            return new Read(configJson(config), config, index, count, sweep, u64(m.get("took_nanos")));
        } catch (ClassCastException | NullPointerException e) {
            throw new ShardException(shown + ": a member is missing or has the wrong type (not written by weft fuzz"
                    + " --shard?)");
        }
    }

    /**
     * Merges the shards of one sweep: every shard 0..N-1 exactly once, all of one config. The result equals the
     * single sweep's ({@link Sweep}): per key the message of the smallest queue index, the union of the seeds.
     */
    public static SweepResult merge(List<Read> shards, List<String> shown) throws ShardException {
        Read first = shards.get(0);
        boolean[] seen = new boolean[(int) Math.min(first.count(), 1 << 20)];
        if (first.count() != seen.length) throw new ShardException(shown.get(0) + ": too many shards");
        long tested = 0;
        long failed = 0;
        boolean budget = false;
        Map<ViolationKey, SweepResult.Finding> byKey = new TreeMap<>();
        for (int i = 0; i < shards.size(); i++) {
            Read r = shards.get(i);
            if (!r.configJson().equals(first.configJson())) {
                throw new ShardException(shown.get(i) + ": a different sweep than " + shown.get(0) + " (config "
                        + r.configJson() + ", not " + first.configJson() + ")");
            }
            if (r.count() != first.count()) {
                throw new ShardException(shown.get(i) + ": shard of " + r.count() + ", not of " + first.count());
            }
            if (seen[(int) r.index()]) {
                throw new ShardException(shown.get(i) + ": shard " + r.index() + " is given twice");
            }
            seen[(int) r.index()] = true;
            tested += r.sweep().tested();
            failed += r.sweep().failed();
            budget |= r.sweep().budgetHit();
            for (SweepResult.Finding f : r.sweep().findings()) {
                byKey.merge(f.key(), f, SweepShard::mergeFinding);
            }
        }
        List<String> missing = new ArrayList<>();
        for (int k = 0; k < seen.length; k++) {
            if (!seen[k]) missing.add(Integer.toString(k));
        }
        if (!missing.isEmpty()) {
            throw new ShardException("shard(s) " + String.join(", ", missing) + " of " + first.count() + " missing");
        }
        return new SweepResult(tested, failed, budget, new ArrayList<>(byKey.values()));
    }

    private static SweepResult.Finding mergeFinding(SweepResult.Finding a, SweepResult.Finding b) {
        SortedSet<Long> seeds = new TreeSet<>(Long::compareUnsigned);
        seeds.addAll(a.seeds());
        seeds.addAll(b.seeds());
        SweepResult.Finding earlier = Long.compareUnsigned(a.firstIndex(), b.firstIndex()) <= 0 ? a : b;
        return new SweepResult.Finding(a.key(), earlier.what(), Collections.unmodifiableSortedSet(seeds),
                earlier.firstIndex());
    }

    public static long sumTook(List<Read> shards) {
        long t = 0;
        for (Read r : shards) t += r.tookNanos();
        return t;
    }

    // ---------------------------------------------------------------- a small JSON reader for this file only

    private static final int MAX_DEPTH = 8;

    /** The current value as String, BigInteger, Boolean, null, List or Map (members in file order). */
    private static Object value(JsonTokenizer t, int depth) throws JsonSyntaxError {
        JsonToken tok = t.currentToken();
        if (tok == null) throw t.errorAtToken("expected a value");
        if (depth > MAX_DEPTH) throw t.errorAtToken("nested deeper than a shard file is");
        switch (tok) {
            case VALUE_STRING:
                return t.text();
            case VALUE_NUMBER_INT:
                return t.bigInteger();
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return null;
            case START_ARRAY: {
                List<Object> l = new ArrayList<>();
                while (t.nextToken() != JsonToken.END_ARRAY) l.add(value(t, depth + 1));
                return l;
            }
            case START_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                while (t.nextToken() == JsonToken.FIELD_NAME) {
                    String name = t.currentName();
                    t.nextToken();
                    if (m.put(name, value(t, depth + 1)) != null) throw t.errorAtToken("duplicate member `" + name + "`");
                }
                return m;
            }
            default:
                throw t.errorAtToken("unexpected token");
        }
    }

    private static long u64(Object o) {
        BigInteger b = (BigInteger) o;
        if (b.signum() < 0 || b.bitLength() > 64) throw new ClassCastException("not a u64");
        return b.longValue();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
