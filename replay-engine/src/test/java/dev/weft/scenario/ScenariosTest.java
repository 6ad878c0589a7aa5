package dev.weft.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ScenariosTest {

    private static String withNetwork(String network) {
        return "{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]}],\"network\":" + network + "}";
    }

    /** Each network member loads without error. */
    private static void acceptsNetworks(String... networks) throws ScenarioException {
        for (String network : networks) {
            Scenarios.load(withNetwork(network));
        }
    }

    private static String error(String json) {
        return assertThrows(ScenarioException.class, () -> Scenarios.load(json)).getMessage();
    }

    private static ScenarioException.Kind kind(String json) {
        return assertThrows(ScenarioException.class, () -> Scenarios.load(json)).kind();
    }

    @Test
    void fullScenarioParsesEveryMember() throws Exception {
        Scenario s = Scenarios.load(ScenarioExamples.FULL);
        assertEquals("chord-ring", s.name());
        assertEquals("six members and an observer", s.description());
        assertEquals(-1L, s.seed());
        assertEquals(3, s.nodes().size());
        assertEquals(new NodeSpec(0, "examples/chord", List.of("--id", "0")), s.nodes().get(0));
        assertEquals(new NetworkSpec(" uniform:1000-60000 ", 0.05, 1_000_000L, "0+1|2"), s.network());
        assertEquals(new FilesystemFaults(true, 4096L, 0.5), s.filesystem().get(0L));
        assertEquals(new FilesystemFaults(false, null, null), s.filesystem().get(2L));
        assertEquals(-250L, s.timeSkew().get(1L));
        assertEquals(Long.MAX_VALUE, s.timeSkew().get(2L));
        assertEquals(List.of(
                new ScenarioEvent(3000, new ScenarioAction.ActivatePartition("0|1+2")),
                new ScenarioEvent(3000, new ScenarioAction.Crash(1)),
                new ScenarioEvent(5000, new ScenarioAction.Start(1)),
                new ScenarioEvent(9000, new ScenarioAction.ClearPartition())), s.events());
    }

    @Test
    void optionalMembersMayBeNullAndEventsDefaultToEmpty() throws Exception {
        Scenario s = Scenarios.load(ScenarioExamples.NULLS);
        assertNull(s.description());
        assertNull(s.filesystem());
        assertNull(s.timeSkew());
        assertEquals(new NetworkSpec(null, null, null, null), s.network());
        assertTrue(s.events().isEmpty());
        assertTrue(Scenarios.load(ScenarioExamples.MINIMAL).events().isEmpty());
    }

    // ---- the examples of scenario-dsl.md §5 ----

    /** The network examples of scenario-dsl.md §5: a network member and the error it gives. */
    static Stream<Arguments> specNetworkExamples() {
        return Stream.of(
                arguments("{\"latency\":\"fixed: 5\"}",
                        "Invalid latency spec 'fixed: 5': invalid digit found in string"),
                arguments("{\"latency\":\"uniform:9-5\"}",
                        "Invalid latency spec 'uniform:9-5': lo (9) must be <= hi (5)"),
                arguments("{\"latency\":\"uniform:x-5\"}",
                        "Invalid latency spec 'uniform:x-5': lo: invalid digit found in string"),
                arguments("{\"latency\":\"fixed:\"}",
                        "Invalid latency spec 'fixed:': cannot parse integer from empty string"),
                arguments("{\"loss\":1.5}",
                        "Invalid loss probability 1.5: must be in [0.0, 1.0]"),
                arguments("{\"loss\":-2}",
                        "Invalid loss probability -2: must be in [0.0, 1.0]"),
                arguments("{\"partitions\":\"0|1|\"}",
                        "Invalid partition spec '0|1|': empty group (consecutive '|' or leading '|')"));
    }

    @ParameterizedTest
    @MethodSource("specNetworkExamples")
    void specExampleNetworkErrors(String network, String message) {
        assertEquals(message, error(withNetwork(network)));
    }

    @Test
    void specExampleNodesNotSequential() {
        assertEquals("Invalid node ID 1: nodes must be sequentially numbered; expected 0, got 1",
                error("{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":1,\"program\":\"p\",\"args\":[]}]}"));
    }

    @Test
    void specExampleEventsSortedStably() throws Exception {
        Scenario s = Scenarios.load("{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]}],\"events\":["
                + "{\"time_ns\":9,\"action\":{\"type\":\"clear_partition\"}},"
                + "{\"time_ns\":3,\"action\":{\"type\":\"activate_partition\",\"spec\":\"0|1\"}},"
                + "{\"time_ns\":3,\"action\":{\"type\":\"start\",\"node_id\":0}}]}");
        assertEquals(List.of(
                new ScenarioEvent(3, new ScenarioAction.ActivatePartition("0|1")),
                new ScenarioEvent(3, new ScenarioAction.Start(0)),
                new ScenarioEvent(9, new ScenarioAction.ClearPartition())), s.events());
    }

    @Test
    void specExampleUnknownVariant() {
        String json = "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"boom\"}}]}";
        String msg = error(json);
        assertTrue(msg.startsWith("JSON parse error: unknown variant `boom`, expected one of `crash`, `start`, "
                + "`activate_partition`, `clear_partition` at line 1 column "), msg);
    }

    // ---- every other rule ----

    @ParameterizedTest
    @CsvSource(delimiter = ';', textBlock = """
            uniform:5;uniform format is 'uniform:LO-HI' (e.g., 'uniform:100-5000')
            uniform:-5;lo: cannot parse integer from empty string
            uniform:5-;hi: cannot parse integer from empty string
            uniform:5-x;hi: invalid digit found in string
            uniform:5-6-7;hi: invalid digit found in string
            uniform:18446744073709551616-1;lo: number too large to fit in target type
            exp:0;mean must be > 0
            exp:+0;mean must be > 0
            exp:;cannot parse integer from empty string
            fixed:+;invalid digit found in string
            fixed:-0;invalid digit found in string
            fixed:99999999999999999999x;number too large to fit in target type
            fixed:1x99999999999999999999;invalid digit found in string
            fixed:١;invalid digit found in string
            FIXED:5;must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'
            const:5;must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'
            exponential:5;must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'
            fixed :5;must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'
            """)
    void latencyReasons(String latency, String reason) {
        assertEquals("Invalid latency spec '" + latency + "': " + reason, error(withNetwork("{\"latency\":\"" + latency + "\"}")));
    }

    @Test
    void latencyIsTrimmedWithUnicodeWhiteSpaceBeforeCheckingAndInTheMessage() throws Exception {
        acceptsNetworks("{\"latency\":\"\\u00a0\\u3000fixed:+007\\u2028\\t\"}",
                "{\"latency\":\"exp:18446744073709551615\"}",
                "{\"latency\":\"uniform:5-5\"}");
        assertEquals("Invalid latency spec 'fixed:x': invalid digit found in string",
                error(withNetwork("{\"latency\":\"\\u00a0fixed:x\\u205f\"}")));
        // U+200B (zero width space) is not White_Space
        assertEquals("Invalid latency spec '\u200bfixed:1': must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'",
                error(withNetwork("{\"latency\":\"\\u200bfixed:1\"}")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', textBlock = """
            |0;|0;empty group (consecutive '|' or leading '|')
            0||1;0||1;empty group (consecutive '|' or leading '|')
            0+|1;0+|1;empty node ID in group
            +0;+0;empty node ID in group
            ' 0 | 1';0 | 1;'0 ' is not a valid node ID
            0|x;0|x;'x' is not a valid node ID
            0|18446744073709551616;0|18446744073709551616;'18446744073709551616' is not a valid node ID
            """)
    void partitionReasons(String partitions, String trimmed, String reason) {
        assertEquals("Invalid partition spec '" + trimmed + "': " + reason, error(withNetwork("{\"partitions\":\"" + partitions + "\"}")));
    }

    @Test
    void emptyOrBlankPartitionsMeanNoPartition() throws Exception {
        acceptsNetworks("{\"partitions\":\"\"}",
                "{\"partitions\":\" \\u00a0 \"}",
                "{\"partitions\":\"0+1+2|3|18446744073709551615\"}");
    }

    @Test
    void lossBoundsAndRendering() throws Exception {
        acceptsNetworks("{\"loss\":0}", "{\"loss\":1}", "{\"loss\":-0.0}", "{\"loss\":1e-300}");
        assertEquals("Invalid loss probability 1000000000000000000000: must be in [0.0, 1.0]", error(withNetwork("{\"loss\":1e21}")));
        assertEquals("Invalid loss probability -0.0000001: must be in [0.0, 1.0]", error(withNetwork("{\"loss\":-1e-7}")));
        assertEquals("Invalid loss probability 1.0000000000000002: must be in [0.0, 1.0]",
                error(withNetwork("{\"loss\":1.0000000000000002}")));
        assertEquals("Invalid loss probability 18446744073709552000: must be in [0.0, 1.0]",
                error(withNetwork("{\"loss\":18446744073709551615}")));
    }

    @Test
    void bandwidthZeroIsInvalid() throws Exception {
        assertEquals("Invalid bandwidth 0: must be > 0", error(withNetwork("{\"bandwidth\":0}")));
        acceptsNetworks("{\"bandwidth\":18446744073709551615}");
    }

    @Test
    void networkMembersAreValidatedInOrderLatencyLossBandwidthPartitions() {
        String all = "{\"partitions\":\"|\",\"bandwidth\":0,\"loss\":2,\"latency\":\"x\"}";
        assertEquals(ScenarioException.Kind.INVALID_LATENCY, kind(withNetwork(all)));
        assertEquals(ScenarioException.Kind.INVALID_LOSS_PROBABILITY,
                kind(withNetwork("{\"partitions\":\"|\",\"bandwidth\":0,\"loss\":2}")));
        assertEquals(ScenarioException.Kind.INVALID_BANDWIDTH, kind(withNetwork("{\"partitions\":\"|\",\"bandwidth\":0}")));
        assertEquals(ScenarioException.Kind.INVALID_PARTITION, kind(withNetwork("{\"partitions\":\"|\"}")));
    }

    @Test
    void tornWriteProbabilityUsesTheLossErrorAndTheLowestBadNodeIsReported() {
        String json = "{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]}],"
                + "\"filesystem\":{\"7\":{\"torn_write_probability\":3},\"5\":{\"torn_write_probability\":2.5},"
                + "\"0\":{\"torn_write_probability\":1}}}";
        assertEquals("Invalid loss probability 2.5: must be in [0.0, 1.0]", error(json));
    }

    @Test
    void fieldValidationComesBeforeConsistencyChecks() {
        String json = "{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":3,\"program\":\"p\",\"args\":[]}],"
                + "\"filesystem\":{\"0\":{\"torn_write_probability\":3}}}";
        assertEquals(ScenarioException.Kind.INVALID_LOSS_PROBABILITY, kind(json));
    }

    @Test
    void consistencyChecksInOrder() {
        String nodes = "\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]},{\"node_id\":1,\"program\":\"p\",\"args\":[]}]";
        String events = "\"events\":[{\"time_ns\":9,\"action\":{\"type\":\"crash\",\"node_id\":5}},"
                + "{\"time_ns\":2,\"action\":{\"type\":\"start\",\"node_id\":2}}]";
        String fs = "\"filesystem\":{\"4\":{},\"3\":{}}";
        String skew = "\"time_skew\":{\"9\":1,\"8\":2}";
        String base = "{\"name\":\"t\",\"seed\":1," + nodes;
        // events are checked in sorted order: the start at t=2 comes first
        assertEquals("Invalid node ID 2: event references node 2, but only 2 nodes exist",
                error(base + "," + events + "," + fs + "," + skew + "}"));
        assertEquals("Invalid node ID 3: filesystem faults for node 3, but only 2 nodes exist",
                error(base + "," + fs + "," + skew + "}"));
        assertEquals("Invalid node ID 8: time skew for node 8, but only 2 nodes exist", error(base + "," + skew + "}"));
        assertEquals("Invalid node ID 0: nodes must be sequentially numbered; expected 1, got 0",
                error("{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]},"
                        + "{\"node_id\":0,\"program\":\"p\",\"args\":[]}]," + events + "}"));
        assertEquals("Invalid node ID 18446744073709551615: event references node 18446744073709551615, but only 0 nodes exist",
                error("{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"crash\",\"node_id\":18446744073709551615}}]}"));
    }

    @Test
    void eventsAreSortedAsUnsignedTimes() throws Exception {
        Scenario s = Scenarios.load("{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":["
                + "{\"time_ns\":18446744073709551615,\"action\":{\"type\":\"clear_partition\"}},"
                + "{\"time_ns\":0,\"action\":{\"type\":\"clear_partition\",\"spec\":1}}]}");
        assertEquals(0L, s.events().get(0).timeNs());
        assertEquals(-1L, s.events().get(1).timeNs());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"seed\":1,\"nodes\":[]}|missing field `name`",
        "{\"name\":\"t\",\"nodes\":[]}|missing field `seed`",
        "{\"name\":\"t\",\"seed\":1}|missing field `nodes`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\"}]}|missing field `args`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":null}|invalid type: null, expected a sequence",
        "{\"name\":\"t\",\"seed\":-1,\"nodes\":[]}|invalid value: integer `-1`, expected u64",
        "{\"name\":\"t\",\"seed\":-0,\"nodes\":[]}|invalid value: integer `-0`, expected u64",
        "{\"name\":\"t\",\"seed\":1.0,\"nodes\":[]}|invalid type: floating point `1.0`, expected u64",
        "{\"name\":\"t\",\"seed\":1e2,\"nodes\":[]}|invalid type: floating point `1e2`, expected u64",
        "{\"name\":\"t\",\"seed\":18446744073709551616,\"nodes\":[]}|invalid value: integer `18446744073709551616`, expected u64",
        "{\"name\":\"t\",\"seed\":\"1\",\"nodes\":[]}|invalid type: string \"1\", expected u64",
        "{\"name\":null,\"seed\":1,\"nodes\":[]}|invalid type: null, expected a string",
        "{\"name\":\"t\",\"name\":\"u\",\"seed\":1,\"nodes\":[]}|duplicate field `name`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[]} x|",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[]}{}|trailing characters",
        "[]|invalid type: sequence, expected struct Scenario",
        "|EOF while parsing a value",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"time_skew\":{\"0\":-0}}|invalid type: floating point `-0.0`, expected i64",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"time_skew\":{\"0\":9223372036854775808}}|invalid value: integer `9223372036854775808`, expected i64",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"time_skew\":{\"+0\":1}}|invalid node id key \"+0\", expected plain decimal digits",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"filesystem\":{\"0\":{\"fsync_lies\":null}}}|invalid type: null, expected a boolean",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"network\":{\"loss\":1e999}}|number out of range",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"node_id\":1}}]}|missing field `type`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"crash\"}}]}|missing field `node_id`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"activate_partition\"}}]}|missing field `spec`",
        "{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"action\":{\"type\":\"clear_partition\"}}]}|missing field `time_ns`",
        "{\"name\":\"\\ud800\",\"seed\":1,\"nodes\":[]}|lone surrogate in string (\\ud800)",
    })
    void parseErrorsNameTheProblemAndThePosition(String json, String what) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> Scenarios.load(json == null ? "" : json));
        assertEquals(ScenarioException.Kind.PARSE, e.kind());
        assertTrue(e.getMessage().startsWith("JSON parse error: "), e.getMessage());
        if (what != null) assertTrue(e.getMessage().contains(what), e.getMessage());
        assertTrue(e.getMessage().matches("(?s).* at line \\d+ column \\d+"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void parseErrorPositionPointsAtTheProblem() {
        String json = "{\"name\":\"t\",\n\"seed\":1,\n  \"nodes\": 5}";
        assertEquals("JSON parse error: invalid type: integer `5`, expected a sequence at line 3 column 12", error(json));
    }

    @Test
    void invalidUtf8BytesAreAParseErrorWithOffset() {
        byte[] bytes = "{\"name\":\"\u00e9\"}".getBytes(StandardCharsets.UTF_8);
        bytes[9] = (byte) 0xFF;
        ScenarioException e = assertThrows(ScenarioException.class, () -> Scenarios.load(bytes));
        assertEquals("JSON parse error: invalid UTF-8 at byte offset 9", e.getMessage());
    }

    @Test
    void actionMembersOfOtherVariantsAreIgnoredWhateverTheirType() throws Exception {
        Scenario s = Scenarios.load("{\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[]}],\"events\":["
                + "{\"time_ns\":1,\"action\":{\"spec\":[1],\"node_id\":0,\"type\":\"crash\"}},"
                + "{\"time_ns\":2,\"action\":{\"node_id\":\"x\",\"spec\":\"0|1\",\"type\":\"activate_partition\"}},"
                + "{\"time_ns\":3,\"action\":{\"node_id\":{},\"spec\":null,\"type\":\"clear_partition\"}}]}");
        assertEquals(List.of(new ScenarioEvent(1, new ScenarioAction.Crash(0)),
                new ScenarioEvent(2, new ScenarioAction.ActivatePartition("0|1")),
                new ScenarioEvent(3, new ScenarioAction.ClearPartition())), s.events());
        assertEquals("JSON parse error: invalid type: string \"x\", expected u64 at line 1 column 91",
                error("{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"start\",\"node_id\":\"x\"}}]}"));
    }

    @Test
    void unknownMembersAreIgnoredAtEveryLevel() throws Exception {
        Scenario s = Scenarios.load("{\"x\":[{\"deep\":[1,2,{}]}],\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\",\"args\":[],"
                + "\"q\":1}],\"network\":{\"jitter\":\"x\"},\"filesystem\":{\"0\":{\"other\":true}},"
                + "\"events\":[{\"time_ns\":1,\"z\":0,\"action\":{\"type\":\"crash\",\"node_id\":0,\"spec\":\"ignored\",\"w\":[]}}]}");
        assertEquals(List.of(new ScenarioEvent(1, new ScenarioAction.Crash(0))), s.events());
    }

    @Test
    void unknownMembersNestToAnyDepthAndActionsStopAtTheReferenceRecursionLimit() throws Exception {
        String deep = "[".repeat(100_000) + "{\"a\":1}" + "]".repeat(100_000);
        Scenario s = Scenarios.load("{\"x\":" + deep + ",\"name\":\"t\",\"seed\":1,\"nodes\":[{\"node_id\":0,\"program\":\"p\","
                + "\"args\":[],\"q\":" + deep + "}],\"events\":[{\"time_ns\":1,\"z\":" + deep
                + ",\"action\":{\"type\":\"crash\",\"node_id\":0}}]}");
        assertEquals(List.of(new ScenarioEvent(1, new ScenarioAction.Crash(0))), s.events());
        // An action's members are buffered by the reference before the variant is known: serde_json's limit of
        // 128 open containers (the scenario, events, the event and the action are four of them) applies there.
        String ok = "[".repeat(124) + "]".repeat(124);
        Scenarios.load("{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"w\":" + ok
                + ",\"type\":\"clear_partition\"}}]}");
        String tooDeep = "[".repeat(125) + "]".repeat(125);
        String m = error("{\"name\":\"t\",\"seed\":1,\"nodes\":[],\"events\":[{\"time_ns\":1,\"action\":{\"w\":" + tooDeep
                + ",\"type\":\"clear_partition\"}}]}");
        assertEquals("JSON parse error: recursion limit exceeded at line 1 column 194", m);
    }
}
