package dev.weft.mutation;

import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import dev.weft.fuzz.FuzzConfigLoader;
import dev.weft.fuzz.FuzzConfigProbe;
import java.util.regex.Pattern;

/**
 * Fuzz configs (fuzz.md §2) through FuzzConfigLoader.parse; an accepted config then gets its heap plan and, when its
 * workload is small, one sweep execution, so what the loader lets through is also usable.
 */
final class FuzzConfigFormat extends SeededFormat {

    /** JSON errors name line and column; validation errors name the member (fuzz.md §2's texts). */
    private static final Pattern LOCATED = Pattern.compile("^config(: .*line \\d+ column \\d+.*"
            + "| net: .*"
            + "|: (seed_count|jobs) must be at least 1"
            + "|: at least one invariant is required \\(fifo, dup\\)"
            + "|: unknown invariant \".*\" \\(known: fifo, dup\\)"
            + "|: workload\\.\\w+ .*"
            + "|: workload too large: .*)$", Pattern.DOTALL);

    FuzzConfigFormat() {
        super("fuzz-config", new ByteMutator(ByteMutator.bytes(
                "{\"net\":\"latency=uniform:0-8000,loss=0.02\",\"invariants\":[\"fifo\",\"dup\"],\"workload\":{\"nodes\":3,\"sends\":30}}",
                "{\"//\":\"ci\",\"net\":\"latency=exp:5000\",\"seed_start\":5,\"seed_count\":3,\"jobs\":2,\"time_budget_secs\":0,"
                        + "\"invariants\":[\"per-channel-fifo\",\"no-duplicate-delivery\"],\"workload\":{\"nodes\":2,\"sends\":12,"
                        + "\"payload_len\":9,\"workload_seed\":18446744073709551615},\"out_dir\":\"o\",\"shrink\":false,"
                        + "\"regression_seeds\":[0,1,18446744073709551615]}",
                "{\"net\":\"\"}",
                "{\n  \"net\": \"partition=0+1|2,loss=0.5\",\n  \"workload\": { \"nodes\": 4, \"sends\": 8 }\n}\n"),
                ByteMutator.bytes("\"//\":", "\"net\":", "\"seed_start\":", "\"seed_count\":", "\"jobs\":", "\"time_budget_secs\":",
                        "\"invariants\":", "\"workload\":", "\"out_dir\":", "\"shrink\":", "\"regression_seeds\":", "\"nodes\":",
                        "\"sends\":", "\"payload_len\":", "\"workload_seed\":", "\"fifo\"", "\"dup\"", "\"all\"", "\"seedcount\":")));
    }

    @Override
    public String feed(byte[] input) throws Exception {
        FuzzConfig config;
        try {
            config = FuzzConfigLoader.parse(input);
        } catch (FuzzConfigException e) {
            return locatedOrThrow(e.getMessage(), LOCATED, "");
        }
        FuzzConfigProbe.planAndTryOneSeed(config);
        return null;
    }
}
