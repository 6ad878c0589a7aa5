package dev.weft.chord;

import static dev.weft.chord.TestRecords.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.protocol.StateReportPayload;
import dev.weft.raft.RaftReport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class StateReportPayloadTest {

    @Test
    void parsesSixFieldsIgnoringExtraTokens() {
        assertArrayEquals(new int[] {43, 7, 1, -1, +4, 22},
                StateReportPayload.fields(hex("RPT 43 7 1 -1 +4 22 extra tokens"), StateReportPayload.UNICODE_WHITE_SPACE));
        assertEquals(new ChordReport(43, 7, true, -1, 4, 22), ChordReport.parse(hex("  RPT\t43 7 5 -1 4 22\n")));
        assertEquals(new ChordReport(1, 2, false, 3, 4, 5), ChordReport.parse(hex("RPT 1 2 0 3 4 5")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "RPT", "RPT 1 2 3 4 5", "rpt 1 2 3 4 5 6", "RPTX 1 2 3 4 5 6", "RPT 1 2 3 4 5 x",
        "RPT 1 2 3 4 5 2147483648", "RPT 1 2 3 4 5 -2147483649", "RPT 1 2 3 4 5 +-6", "RPT 1 2 3 4 5 ٦", "RPT 1 2 3 4 5 6.0"})
    void notReports(String text) {
        assertNull(ChordReport.parse(hex(text)));
        assertNull(RaftReport.parse(hex(text)));
    }

    @Test
    void badHexOrUtf8IsNotAReport() {
        assertNull(ChordReport.parse("5250542"));        // odd length
        assertNull(ChordReport.parse("zz"));
        assertNull(ChordReport.parse(hex("RPT 1 2 3 4 5 6") + "ff")); // invalid UTF-8 at the end
        assertNull(ChordReport.parse(null));
        assertEquals(new ChordReport(1, 2, true, 4, 5, 6), ChordReport.parse(hex("RPT 1 2 3 4 5 6").toUpperCase()));
        assertEquals(-2147483648, ChordReport.parse(hex("RPT -2147483648 2 3 4 5 6")).ident());
    }

    @Test
    void chordSplitsOnUnicodeWhiteSpaceRaftOnAsciiOnly() {
        String nbsp = "RPT\u00a01 2 1 3 4 5";
        assertEquals(new ChordReport(1, 2, true, 3, 4, 5), ChordReport.parse(hex(nbsp)));
        assertNull(RaftReport.parse(hex(nbsp)));
        String vt = "RPT\u000b1 2 1 3 4 5";           // vertical tab: Unicode white space, not ASCII white space for Rust
        assertEquals(new ChordReport(1, 2, true, 3, 4, 5), ChordReport.parse(hex(vt)));
        assertNull(RaftReport.parse(hex(vt)));
        String ff = "RPT\f1 2 1 3\r4\n5";
        assertEquals(new RaftReport(1, 2, true, 3, 4, 5), RaftReport.parse(hex(ff)));
        assertEquals(new ChordReport(1, 2, true, 3, 4, 5), ChordReport.parse(hex("RPT\u30001\u20282\u00851 3 4 5")));
    }
}
