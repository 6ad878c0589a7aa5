package dev.weft.launcher.convert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.weft.testsupport.CapturedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `weft convert LOG --to perfetto OUT.json` parsed back as Trace Event JSON and checked against the recording. */
class ConvertCommandTest {

    private static Path corpus(String log) {
        return dev.weft.testcorpus.SharedCorpus.conformance().resolve(log);
    }

    private static CapturedRun convert(String... args) {
        return CapturedRun.of((out, err) -> ConvertCommand.run(args, out, err));
    }

    @Test
    void aRaftRecordingBecomesTracksFlowsAndViolationInstants(@TempDir Path dir) throws Exception {
        Path log = corpus("raft/raft-fix0-s131-violation.weftlog");
        Path out = dir.resolve("trace.json");
        CapturedRun r = convert(log.toString(), "--to", "perfetto", out.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode trace = new ObjectMapper().readTree(out.toFile());
        JsonNode events = trace.get("traceEvents");
        assertTrue(events.isArray());

        // What the recording holds: records, nodes (by hello), deliveries, enqueued sends.
        long records = 0, deliveries = 0;
        Set<String> nodes = new TreeSet<>();
        Map<Long, Long> connNode = new HashMap<>();
        Set<Long> enqueuedTies = new HashSet<>();
        try (LogReader reader = LogReader.open(log)) {
            for (LogRecord rec = reader.next(); rec != null; rec = reader.next()) {
                records++;
                if (rec.event() instanceof Event.Hello h) {
                    connNode.put(h.conn(), h.node());
                    nodes.add("node " + h.node());
                }
                if (rec.event() instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered) deliveries++;
                if (rec.event() instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) enqueuedTies.add(q.tie());
            }
        }

        Map<Integer, String> threadNames = new HashMap<>();
        long slices = 0, flowStarts = 0, flowEnds = 0;
        Set<String> startIds = new HashSet<>();
        java.util.List<JsonNode> instants = new java.util.ArrayList<>();
        double lastTsOfAny = -1;
        for (JsonNode e : events) {
            String ph = e.get("ph").asText();
            switch (ph) {
                case "M" -> {
                    if (e.get("name").asText().equals("thread_name")) threadNames.put(e.get("tid").asInt(), e.get("args").get("name").asText());
                }
                case "X" -> {
                    slices++;
                    assertTrue(e.has("ts") && e.has("dur") && e.has("pid") && e.has("tid") && e.get("args").has("op"), e.toString());
                    assertTrue(threadNames.containsKey(e.get("tid").asInt()), "a slice's track is named before it: " + e);
                    lastTsOfAny = Math.max(lastTsOfAny, e.get("ts").asDouble());
                }
                case "s" -> {
                    flowStarts++;
                    startIds.add(e.get("id").asText());
                }
                case "f" -> {
                    flowEnds++;
                    assertEquals("e", e.get("bp").asText());
                    assertTrue(startIds.contains(e.get("id").asText()), "a flow ends after it started: " + e);
                }
                case "i" -> instants.add(e);
                default -> throw new AssertionError("unexpected phase " + ph);
            }
        }
        assertEquals(records, slices, "one slice per record");
        assertEquals(deliveries, flowEnds, "one flow per delivery");
        assertEquals(enqueuedTies.size(), flowStarts, "a flow starts at every enqueued send");
        assertTrue(new HashSet<>(threadNames.values()).containsAll(nodes), "a track per node: " + threadNames.values());
        assertTrue(threadNames.containsValue("run"));
        for (Map.Entry<Long, Long> c : connNode.entrySet()) {
            assertFalse(threadNames.containsValue("conn " + c.getKey()), "conn " + c.getKey() + " said hello: its events are on node " + c.getValue());
        }
        assertEquals(nodes.size() + 1, threadNames.size(), "a track per node plus the run track: " + threadNames.values());
        // raft-check: one ElectionSafety violation, the second leader of term 1 at op 243.
        JsonNode es = instants.stream().filter(i -> i.get("name").asText().equals("violation: ElectionSafety")).findFirst().orElseThrow();
        assertEquals(243, es.get("args").get("op").asLong());
        assertEquals("g", es.get("s").asText());
        assertTrue(r.out().contains(records + " records"), r.out());
    }

    @Test
    void theSameRecordingGivesTheSameBytes(@TempDir Path dir) throws Exception {
        Path log = corpus("chord/chord-fix0-s2-violation.weftlog");
        assertEquals(0, convert(log.toString(), "--to", "perfetto", dir.resolve("a.json").toString()).code());
        assertEquals(0, convert(log.toString(), "--to=perfetto", dir.resolve("b.json").toString()).code());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(dir.resolve("a.json")), Files.readAllBytes(dir.resolve("b.json"))));
        JsonNode events = new ObjectMapper().readTree(dir.resolve("a.json").toFile()).get("traceEvents");
        boolean chordVerdict = false;
        for (JsonNode e : events) {
            if (e.get("ph").asText().equals("i") && e.get("name").asText().equals("violation: ConnectedAppendages")) {
                chordVerdict = e.get("args").get("message").asText().contains("appendage member 22");
            }
        }
        assertTrue(chordVerdict, "chord-check's ConnectedAppendages verdict is an instant event");
    }

    @Test
    void badUsageAndUnreadableFilesSaySoWithoutATrace(@TempDir Path dir) {
        CapturedRun noTo = convert("x.weftlog", dir.resolve("o.json").toString());
        assertEquals(2, noTo.code());
        assertTrue(noTo.err().contains("--to perfetto"), noTo.err());
        CapturedRun badFormat = convert("x.weftlog", "--to", "pprof", "o.json");
        assertEquals(2, badFormat.code());
        assertTrue(badFormat.err().contains("unknown format \"pprof\""), badFormat.err());
        CapturedRun missing = convert(dir.resolve("nope.weftlog").toString(), "--to", "perfetto", dir.resolve("o.json").toString());
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("No such file or directory (os error 2)"), missing.err());
        assertFalse(Files.exists(dir.resolve("o.json")));
        CapturedRun corrupt = convert(corpus("negative/neg-payload-edit-chainbreak-op999.weftlog").toString(), "--to", "perfetto",
                dir.resolve("c.json").toString());
        assertEquals(1, corrupt.code());
        assertTrue(corrupt.err().contains("op 999"), corrupt.err());
        assertFalse(Files.exists(dir.resolve("c.json")), "no half-written trace");
    }

    /** Issue 28 item 1: the output is written into a FIFO or device, never replaced; a directory is refused. */
    @Test
    void anOutputThatIsNotARegularFileIsWrittenIntoOrRefusedNeverReplaced(@TempDir Path dir) throws Exception {
        Path log = corpus("raft/raft-fix0-s131-violation.weftlog");
        Path full = Files.createSymbolicLink(dir.resolve("full.json"), Path.of("/dev/full"));
        CapturedRun onFull = convert(log.toString(), "--to", "perfetto", full.toString());
        assertEquals(1, onFull.code());
        assertTrue(onFull.err().startsWith("weft convert: cannot write " + full + ": No space left on device"), onFull.err());
        assertTrue(Files.isSymbolicLink(full), "the link (and the device) stay");

        Path empty = Files.createDirectory(dir.resolve("empty"));
        CapturedRun onDir = convert(log.toString(), "--to", "perfetto", empty.toString());
        assertEquals(1, onDir.code());
        assertEquals("weft convert: cannot write " + empty + ": Is a directory (os error 21)\n", onDir.err());
        assertTrue(Files.isDirectory(empty));

        Path fifo = dir.resolve("pipe");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        java.util.concurrent.CompletableFuture<byte[]> read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (java.io.InputStream in = Files.newInputStream(fifo)) {
                return in.readAllBytes();
            } catch (java.io.IOException e) {
                throw new RuntimeException(e);
            }
        });
        assertEquals(0, convert(log.toString(), "--to", "perfetto", fifo.toString()).code());
        assertEquals(0, convert(log.toString(), "--to", "perfetto", dir.resolve("plain.json").toString()).code());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(dir.resolve("plain.json")), read.get()));
        assertFalse(Files.isRegularFile(fifo), "still a FIFO");

        Path unwritable = dir.resolve("no/such/dir/o.json");
        CapturedRun missingDir = convert(log.toString(), "--to", "perfetto", unwritable.toString());
        assertEquals("weft convert: cannot write " + unwritable + ": No such file or directory (os error 2)\n", missingDir.err());
    }

    /** Issue 28 item 9: an input that is not a readable file is named as what it is. */
    @Test
    void anUnreadableInputIsNamedAsWhatItIs(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.weftlog");
        Files.createSymbolicLink(a, dir.resolve("b.weftlog"));
        Files.createSymbolicLink(dir.resolve("b.weftlog"), a);
        assertEquals("weft convert: " + a + ": Too many levels of symbolic links (os error 40)\n",
                convert(a.toString(), "--to", "perfetto", dir.resolve("o.json").toString()).err());
        assertEquals("weft convert: " + dir + ": Is a directory (os error 21)\n",
                convert(dir.toString(), "--to", "perfetto", dir.resolve("o.json").toString()).err());
        assertEquals("weft convert: /dev/zero: is a character device, not a regular file\n",
                convert("/dev/zero", "--to", "perfetto", dir.resolve("o.json").toString()).err());
    }
}
