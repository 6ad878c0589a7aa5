package dev.weft.log;

import java.util.List;

/**
 * The conformance vector of weft-log-v2.md §12, line by line: its header and its 16 records (ops 0–15, op 15 the
 * end record). One copy for the engine's reader tests and the broker's wire test (through this module's test-jar),
 * so the two cannot drift from the spec apart.
 */
public final class SpecVector {

    /** The header line, then the records of ops 0 to 15, without line ends. */
    public static final List<String> LINES = List.of(
            "{\"format\":\"weft-log\",\"version\":2,\"seed\":3,\"net\":\"latency=uniform:1000-100000\",\"window_ns\":0,\"meta\":{\"weft_version\":\"0.0.2\"}}",
            "{\"op\":0,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":0},\"chain\":\"f8865385873ad877\"}",
            "{\"op\":1,\"vt\":0,\"e\":{\"k\":\"hello\",\"conn\":0,\"node\":0},\"chain\":\"ec84e35e8a1d799f\"}",
            "{\"op\":2,\"vt\":0,\"e\":{\"k\":\"bind\",\"conn\":0,\"addr\":{\"ip\":2130706433,\"port\":100}},\"chain\":\"c94dde93fd6b6400\"}",
            "{\"op\":3,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":1},\"chain\":\"90431941b61667c3\"}",
            "{\"op\":4,\"vt\":0,\"e\":{\"k\":\"hello\",\"conn\":1,\"node\":1},\"chain\":\"c6a7770876596b0e\"}",
            "{\"op\":5,\"vt\":0,\"e\":{\"k\":\"bind\",\"conn\":1,\"addr\":{\"ip\":2130706434,\"port\":100}},\"chain\":\"f711bc5e3f87a1c4\"}",
            "{\"op\":6,\"vt\":39327,\"e\":{\"k\":\"send\",\"conn\":1,\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"chan_seq\":0,\"send_vt\":0,\"payload\":\"61\",\"outcome\":{\"kind\":\"enqueued\",\"to_conn\":0,\"deliv_ns\":39327,\"tie\":0}},\"chain\":\"e44baa8936f348e0\"}",
            "{\"op\":7,\"vt\":39327,\"e\":{\"k\":\"send\",\"conn\":1,\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"chan_seq\":1,\"send_vt\":0,\"payload\":\"62\",\"outcome\":{\"kind\":\"enqueued\",\"to_conn\":0,\"deliv_ns\":21403,\"tie\":1}},\"chain\":\"07e0da23a1cb2e4e\"}",
            "{\"op\":8,\"vt\":39327,\"e\":{\"k\":\"send\",\"conn\":1,\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":999},\"chan_seq\":0,\"send_vt\":0,\"payload\":\"78\",\"outcome\":{\"kind\":\"no_receiver\"}},\"chain\":\"ae048344c802c929\"}",
            "{\"op\":9,\"vt\":39327,\"e\":{\"k\":\"send\",\"conn\":1,\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"chan_seq\":2,\"send_vt\":0,\"payload\":\"63\",\"outcome\":{\"kind\":\"enqueued\",\"to_conn\":0,\"deliv_ns\":11384,\"tie\":2}},\"chain\":\"037f8461cd34bb33\"}",
            "{\"op\":10,\"vt\":39327,\"e\":{\"k\":\"recv\",\"conn\":0,\"blocking\":false,\"outcome\":{\"kind\":\"delivered\",\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"deliv_ns\":11384,\"tie\":2,\"payload\":\"63\"}},\"chain\":\"cb02f1e01d4d5db3\"}",
            "{\"op\":11,\"vt\":39327,\"e\":{\"k\":\"recv\",\"conn\":0,\"blocking\":false,\"outcome\":{\"kind\":\"delivered\",\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"deliv_ns\":21403,\"tie\":1,\"payload\":\"62\"}},\"chain\":\"a30a6a5b7d776d9f\"}",
            "{\"op\":12,\"vt\":39327,\"e\":{\"k\":\"recv\",\"conn\":0,\"blocking\":false,\"outcome\":{\"kind\":\"delivered\",\"src\":{\"ip\":2130706434,\"port\":100},\"dst\":{\"ip\":2130706433,\"port\":100},\"deliv_ns\":39327,\"tie\":0,\"payload\":\"61\"}},\"chain\":\"ac58fb115756c3ec\"}",
            "{\"op\":13,\"vt\":39327,\"e\":{\"k\":\"recv\",\"conn\":0,\"blocking\":false,\"outcome\":{\"kind\":\"empty\"}},\"chain\":\"bbded97b10951c1a\"}",
            "{\"op\":14,\"vt\":39327,\"e\":{\"k\":\"disconnect\",\"conn\":1},\"chain\":\"7a575f558cecee0f\"}",
            "{\"op\":15,\"vt\":39327,\"e\":{\"k\":\"end\",\"events\":16,\"sent\":4,\"dropped\":0},\"chain\":\"055be0aa4a975219\"}");

    private SpecVector() {
    }
}
