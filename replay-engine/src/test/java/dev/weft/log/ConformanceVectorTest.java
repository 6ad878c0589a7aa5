package dev.weft.log;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 16-record conformance vector of weft-log-v2.md §12. */
class ConformanceVectorTest {

    static final String VECTOR = String.join("\n", SpecVector.LINES) + "\n";

    static final String[] CHAINS = {"f8865385873ad877", "ec84e35e8a1d799f", "c94dde93fd6b6400", "90431941b61667c3",
            "c6a7770876596b0e", "f711bc5e3f87a1c4", "e44baa8936f348e0", "07e0da23a1cb2e4e", "ae048344c802c929",
            "037f8461cd34bb33", "cb02f1e01d4d5db3", "a30a6a5b7d776d9f", "ac58fb115756c3ec", "bbded97b10951c1a",
            "7a575f558cecee0f", "055be0aa4a975219"};

    static LogReader open(String text) throws WeftLogException {
        return LogReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void vectorVerifiesWithTheReferenceChainsAndDigest() throws Exception {
        try (LogReader r = open(VECTOR)) {
            assertEquals(3, r.header().seed());
            assertEquals("latency=uniform:1000-100000", r.header().net());
            assertEquals("0.0.2", r.header().meta().weftVersion());
            assertFalse(r.isGzip());
            List<LogRecord> records = new ArrayList<>();
            LogRecord rec;
            while ((rec = r.next()) != null) {
                records.add(rec);
                assertEquals(CHAINS[(int) rec.op()], Fnv1a.hex16(rec.chain()));
                assertEquals(rec.op() + 2, rec.line());
                if (rec.op() == 5) {
                    assertEquals("16177579d6c6ba85", Fnv1a.hex16(r.streamDigest()), "digest of --until 5");
                }
            }
            assertEquals(16, records.size());
            assertEquals(16, r.recordsRead());
            assertTrue(r.sawEnd());
            assertEquals("d62fd06704cbe952", Fnv1a.hex16(r.streamDigest()));
            assertNull(r.next());
            Event.Send s = (Event.Send) records.get(6).event();
            assertEquals(new VAddr(2130706434L, 100), s.src());
            assertEquals("61", s.payload());
            assertEquals(new SendOutcome.Enqueued(0, 39327, 0), s.outcome());
            assertEquals(new Event.End(16, 4, 0), records.get(15).event());
        }
    }

    @Test
    void canonicalFormOfEveryRecordIsTheLineWithoutChain() throws Exception {
        String[] lines = VECTOR.split("\n");
        long h = Fnv1a.update(Fnv1a.OFFSET_BASIS, lines[0].getBytes(StandardCharsets.UTF_8));
        for (int i = 1; i < lines.length; i++) {
            LogRecord rec = LogReader.parseRecordLine(lines[i], i + 1);
            String canon = CanonicalJson.record(rec.op(), rec.vt(), rec.event());
            assertEquals(lines[i], canon.substring(0, canon.length() - 1) + ",\"chain\":\"" + CHAINS[i - 1] + "\"}");
            h = CanonicalJson.hashRecord(h, rec.op(), rec.vt(), rec.event());
            assertEquals(CHAINS[i - 1], Fnv1a.hex16(h));
            assertEquals(CHAINS[i - 1], Fnv1a.hex16(rec.chain()));
        }
    }

    @Test
    void headerLineIsWhatTheReferenceWrites() {
        assertEquals(VECTOR.substring(0, VECTOR.indexOf('\n')),
                CanonicalJson.headerLine(3, "latency=uniform:1000-100000", 0, new LogMeta(null, "0.0.2", null)));
        assertEquals("{\"format\":\"weft-log\",\"version\":2,\"seed\":18446744073709551615,\"net\":\"\",\"window_ns\":0,\"meta\":{}}",
                CanonicalJson.headerLine(-1, "", 0, LogMeta.EMPTY));
        assertEquals("{\"format\":\"weft-log\",\"version\":2,\"seed\":0,\"net\":\"x\",\"window_ns\":1000,\"meta\":"
                        + "{\"recorded_unix_ms\":5,\"weft_version\":\"v\",\"label\":\"l\"}}",
                CanonicalJson.headerLine(0, "x", 1000, new LogMeta(5L, "v", "l")));
    }
}
