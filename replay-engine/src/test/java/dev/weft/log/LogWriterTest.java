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
