package dev.weft.mutation;

import dev.weft.scenario.ScenarioException;
import dev.weft.scenario.Scenarios;
import java.util.regex.Pattern;

/** The scenario DSL (scenario-dsl.md) through Scenarios.load. */
final class ScenarioFormat extends SeededFormat {

    /** Parse errors name line and column (or the byte offset of invalid UTF-8); validation errors name the node or spec. */
    private static final Pattern PARSE_LOCATED = Pattern.compile(".*( at line \\d+ column \\d+| at byte offset \\d+).*", Pattern.DOTALL);
    private static final Pattern VALIDATION_LOCATED = Pattern.compile(
            "^(Invalid node ID \\d+: |Invalid latency spec '|Invalid loss probability |Invalid bandwidth \\d+|Invalid partition spec ').*",
            Pattern.DOTALL);

    ScenarioFormat() {
        super("scenario", new ByteMutator(ByteMutator.bytes(
                "{\"name\":\"two nodes\",\"seed\":7,\"nodes\":[{\"node_id\":0,\"program\":\"a\",\"args\":[]},"
                        + "{\"node_id\":1,\"program\":\"b\",\"args\":[\"x\"]}]}",
                "{\"name\":\"chord\",\"description\":\"crash and restart\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"n\","
                        + "\"args\":[\"--id\",\"0\"]},{\"node_id\":1,\"program\":\"n\",\"args\":[]},{\"node_id\":2,\"program\":\"n\",\"args\":[]}],"
                        + "\"network\":{\"latency\":\"uniform:1000-60000\",\"loss\":0.1,\"bandwidth\":100000,\"partitions\":\"0+1|2\"},"
                        + "\"events\":[{\"time_ns\":5000,\"action\":{\"type\":\"crash\",\"node_id\":2}},"
                        + "{\"time_ns\":1000,\"action\":{\"type\":\"activate_partition\",\"spec\":\"0|1+2\"}},"
                        + "{\"time_ns\":9000,\"action\":{\"type\":\"start\",\"node_id\":2}},"
                        + "{\"time_ns\":9000,\"action\":{\"type\":\"clear_partition\"}}]}",
                "{\"name\":\"fs\",\"seed\":18446744073709551615,\"nodes\":[{\"node_id\":0,\"program\":\"db\",\"args\":[]}],"
                        + "\"filesystem\":{\"0\":{\"fsync_lies\":true,\"enospc_after_bytes\":4096,\"torn_write_probability\":0.25}},"
                        + "\"time_skew\":{\"0\":-500},\"network\":{\"latency\":\"exp:5000\"},\"extra\":[1,{\"a\":null}]}",
                "{\n  \"name\": \"lines\",\n  \"seed\": 3,\n  \"nodes\": [\n    {\"node_id\": 0, \"program\": \"p\", \"args\": []}\n  ],\n"
                        + "  \"events\": []\n}\n"),
                ByteMutator.bytes("\"name\":", "\"seed\":", "\"nodes\":", "\"node_id\":", "\"program\":", "\"args\":", "\"network\":",
                        "\"latency\":", "\"loss\":", "\"bandwidth\":", "\"partitions\":", "\"filesystem\":", "\"fsync_lies\":",
                        "\"enospc_after_bytes\":", "\"torn_write_probability\":", "\"time_skew\":", "\"events\":", "\"time_ns\":",
                        "\"action\":", "\"type\":", "\"crash\"", "\"start\"", "\"activate_partition\"", "\"clear_partition\"",
                        "\"spec\":", "{\"node_id\":9,\"program\":\"q\",\"args\":[]}", "\"fixed:5\"", "\"uniform:9-1\"")));
    }

    @Override
    public String feed(byte[] input) throws Exception {
        try {
            Scenarios.load(input);
            return null;
        } catch (ScenarioException e) {
            Pattern located = e.kind() == ScenarioException.Kind.PARSE ? PARSE_LOCATED : VALIDATION_LOCATED;
            return locatedOrThrow(e.getMessage(), located, e.kind().toString());
        }
    }
}
