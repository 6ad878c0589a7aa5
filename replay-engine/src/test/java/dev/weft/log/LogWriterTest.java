package dev.weft.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogWriterTest {

    private static List<LogRecord> vectorRecords() throws Exception {
        List<LogRecord> out = new ArrayList<>();
        try (LogReader r = ConformanceVectorTest.open(ConformanceVectorTest.VECTOR)) {
            LogRecord rec;
            while ((rec = r.next()) != null) {
                out.add(rec);
            }
        }
        return out;
    }

    @Test
    void writingTheVectorsEventsReproducesItByteForByte() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LogWriter w = LogWriter.create(out, false, 3, "latency=uniform:1000-100000", 0, new LogMeta(null, "0.0.2", null))) {
            for (LogRecord rec : vectorRecords()) {
                LogRecord written = w.append(rec.vt(), rec.event());
                assertEquals(rec, written);
            }
            assertEquals(16, w.count());
        }
        assertEquals(ConformanceVectorTest.VECTOR, out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void ourHostMapIsWrittenLastInMetaAndReadBackWhileAForeignOneIsIgnored() throws Exception {
        assertEquals("{\"format\":\"weft-log\",\"version\":2,\"seed\":3,\"net\":\"\",\"window_ns\":1000,"
                + "\"meta\":{\"weft_version\":\"0.0.2\",\"hosts\":\"1=0-2;2=3\"}}",
                CanonicalJson.headerLine(3, "", 1000, new LogMeta(null, "0.0.2", null, "1=0-2;2=3")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LogWriter w = LogWriter.create(out, false, 3, "", 1000, new LogMeta(null, "0.0.2", null, "1=0-2;2=3"))) {
            w.append(5, vectorRecords().get(0).event());
        }
        try (LogReader r = LogReader.open(new java.io.ByteArrayInputStream(out.toByteArray()))) {
            assertEquals(new LogMeta(null, "0.0.2", null, "1=0-2;2=3"), r.header().meta());
            assertEquals(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow(), r.header().rawLine());
            assertEquals(0, r.next().op(), "and the record after it reads");
        }
        String foreign = "{\"format\":\"weft-log\",\"version\":2,\"seed\":3,\"net\":\"\",\"window_ns\":0,"
                + "\"meta\":{\"hosts\":{\"1\":[0,1]},\"label\":\"x\"}}\n";
        try (LogReader r = LogReader.open(new java.io.ByteArrayInputStream(foreign.getBytes(StandardCharsets.UTF_8)))) {
            assertEquals(new LogMeta(null, null, "x"), r.header().meta(), "a non-string hosts is ignored");
        }
    }

    @Test
    void everyLineIsFlushedAsItIsWritten() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LogWriter w = LogWriter.create(out, false, 3, "latency=uniform:1000-100000", 0, new LogMeta(null, "0.0.2", null));
        List<LogRecord> recs = vectorRecords();
        w.append(recs.get(0).vt(), recs.get(0).event());
        String[] lines = ConformanceVectorTest.VECTOR.split("\n");
        assertEquals(lines[0] + "\n" + lines[1] + "\n", out.toString(StandardCharsets.UTF_8));
        w.close();
    }

    @Test
    void gzipPathWritesOneMemberThatReadsBackIdentically(@TempDir Path dir) throws Exception {
        Path gz = dir.resolve("v.weftlog.gz");
        Path plain = dir.resolve("v.weftlog");
        for (Path p : new Path[] {gz, plain}) {
            try (LogWriter w = LogWriter.create(p, 3, "latency=uniform:1000-100000", 0, new LogMeta(null, "0.0.2", null))) {
                for (LogRecord rec : vectorRecords()) {
                    w.append(rec.vt(), rec.event());
                }
            }
        }
        byte[] gzBytes = Files.readAllBytes(gz);
        assertEquals(0x1f, gzBytes[0] & 0xff);
        assertEquals(0x8b, gzBytes[1] & 0xff);
        assertArrayEquals(ConformanceVectorTest.VECTOR.getBytes(StandardCharsets.UTF_8), Files.readAllBytes(plain));
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            assertArrayEquals(Files.readAllBytes(plain), in.readAllBytes());
        }
        try (LogReader r = LogReader.open(gz)) {
            assertTrue(r.isGzip());
            assertEquals(16, r.verifyAll());
            assertEquals("d62fd06704cbe952", Fnv1a.hex16(r.streamDigest()));
        }
        try (LogReader r = LogReader.open(plain)) {
            assertFalse(r.isGzip());
            assertEquals(16, r.verifyAll());
        }
    }

    @Test
    void gzipWriterFlushesEachLineSoAReaderSeesIt() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LogWriter w = LogWriter.create(out, true, 1, "", 0, LogMeta.EMPTY);
        w.append(0, new Event.Connect(0));
        // Without the trailer the stream is truncated, but the sync-flushed text is all there.
        byte[] partial = out.toByteArray();
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(partial))) {
            byte[] buf = new byte[4096];
            int n;
            try {
                while ((n = in.read(buf)) > 0) {
                    text.write(buf, 0, n);
                }
            } catch (java.io.EOFException expected) {
                // no trailer yet
            }
        }
        assertEquals(2, text.toString(StandardCharsets.UTF_8).split("\n").length);
        w.close();
        try (LogReader r = LogReader.open(new ByteArrayInputStream(out.toByteArray()))) {
            assertEquals(1, r.verifyAll());
        }
    }

    @Test
    void backgroundReadingGivesTheSameRecordsErrorsAndStateAndCanBeClosedEarly(@TempDir Path dir) throws Exception {
        RandomEvents gen = new RandomEvents(99);
        Path log = dir.resolve("many.weftlog");
        try (LogWriter w = LogWriter.create(log, 5, "latency=fixed:1", 0, LogMeta.EMPTY)) {
            for (int i = 0; i < 5000; i++) {
                w.append(gen.u64(), gen.event());
            }
        }
        try (LogReader a = LogReader.open(log); LogReader b = LogReader.openInBackground(log)) {
            assertEquals(a.header(), b.header());
            LogRecord ra;
            do {
                ra = a.next();
                LogRecord rb = b.next();
                assertEquals(ra, rb);
                assertEquals(a.recordsRead(), b.recordsRead());
                assertEquals(a.lastRecordOffset(), b.lastRecordOffset());
                assertEquals(a.streamDigest(), b.streamDigest());
                assertEquals(a.chain(), b.chain());
                assertEquals(a.sawEnd(), b.sawEnd());
            } while (ra != null);
        }
        // Corrupt a chain in the middle: both modes fail identically, after the same records.
        List<String> lines = new ArrayList<>(Files.readAllLines(log));
        lines.set(3001, lines.get(3001).replaceFirst("\"chain\":\"[0-9a-f]", "\"chain\":\"X"));
        Files.write(log, lines);
        String[] messages = new String[2];
        long[] counts = new long[2];
        for (int mode = 0; mode < 2; mode++) {
            try (LogReader r = mode == 0 ? LogReader.open(log) : LogReader.openInBackground(log)) {
                WeftLogException e = org.junit.jupiter.api.Assertions.assertThrows(WeftLogException.class, r::verifyAll);
                messages[mode] = e.getMessage();
                counts[mode] = r.recordsRead();
                assertEquals(e, org.junit.jupiter.api.Assertions.assertThrows(WeftLogException.class, r::next));
            }
        }
        assertEquals("integrity chain broken at op 3000: log truncated or edited", messages[0]);
        assertEquals(messages[0], messages[1]);
        assertEquals(3000, counts[0]);
        assertEquals(counts[0], counts[1]);
        // Closing before the end stops the reading thread.
        LogReader early = LogReader.openInBackground(log);
        early.next();
        early.close();
    }

    @Test
    void randomEventsRoundTripThroughWriterAndReader() throws Exception {
        for (long seed = 1; seed <= 40; seed++) {
            RandomEvents gen = new RandomEvents(seed);
            List<Event> events = new ArrayList<>();
            List<Long> vts = new ArrayList<>();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            LogMeta meta = new LogMeta(seed % 2 == 0 ? gen.u64() : null, gen.text(), seed % 3 == 0 ? null : gen.text());
            long seedValue = gen.u64();
            String net = gen.text();
            long window = gen.u64();
            boolean gzip = seed % 4 == 0;
            try (LogWriter w = LogWriter.create(out, gzip, seedValue, net, window, meta)) {
                for (int i = 0; i < 100; i++) {
                    Event e = gen.event();
                    long vt = gen.u64();
                    events.add(e);
                    vts.add(vt);
                    w.append(vt, e);
                }
            }
            try (LogReader r = LogReader.open(new ByteArrayInputStream(out.toByteArray()))) {
                assertEquals(gzip, r.isGzip());
                assertEquals(seedValue, r.header().seed());
                assertEquals(net, r.header().net());
                assertEquals(window, r.header().windowNs());
                assertEquals(meta, r.header().meta());
                for (int i = 0; i < events.size(); i++) {
                    LogRecord rec = r.next();
                    assertEquals(events.get(i), rec.event(), "seed " + seed + " op " + i);
                    assertEquals((long) vts.get(i), rec.vt());
                    assertEquals(i, rec.op());
                }
                assertNull(r.next());
            }
        }
    }
}
