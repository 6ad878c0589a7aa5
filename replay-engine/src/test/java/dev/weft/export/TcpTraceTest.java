package dev.weft.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.weft.log.Event;
import dev.weft.replay.TcpRecordingFixture;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TCP recording's Perfetto trace: named TCP slices on the node tracks, a flow per segment, connections as async slices. */
class TcpTraceTest {

    @TempDir
    Path dir;

    private JsonNode trace(Path log, ByteArrayOutputStream out) throws Exception {
        PerfettoTrace.write(log, out);
        return new ObjectMapper().readTree(out.toByteArray()).get("traceEvents");
    }

    @Test
    void eachSegmentFlowsFromItsSendToTheReadThatConsumedIt() throws Exception {
        Path log = dir.resolve("tcp.weftlog");
        TcpRecordingFixture.write(log, 11, e -> e);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonNode events = trace(log, out);

        Map<String, JsonNode> starts = new HashMap<>(), ends = new HashMap<>();
        Map<String, String> threadName = new HashMap<>();
        List<String> slices = new ArrayList<>();
        List<String> connections = new ArrayList<>();
        JsonNode last = null;
        for (JsonNode e : events) {
            String ph = e.get("ph").asText();
            if (ph.equals("M") && e.get("name").asText().equals("thread_name")) {
                threadName.put(e.get("tid").asText(), e.get("args").get("name").asText());
            }
            if (ph.equals("X")) {
                slices.add(threadName.get(e.get("tid").asText()) + ": " + e.get("name").asText());
                last = e;
            }
            if (e.path("name").asText().equals("tcp segment")) {
                (ph.equals("s") ? starts : ends).put(e.get("id").asText(), e);
                if (ph.equals("s")) assertEquals(last.get("tid"), e.get("tid"), "a flow starts at its send");
                if (ph.equals("f")) assertTrue(last.get("name").asText().startsWith("tcp read sid=0"), last.toString());
            }
            if (e.path("cat").asText().equals("tcp")) connections.add(ph + " " + e.get("name").asText());
        }
        // the request (1 segment) read by the server, the reply's two segments read by the client, the segment
        // stalled by the partition read after the heal: four flows, each from a send to a later read
        assertEquals(4, starts.size(), starts.toString());
        assertEquals(starts.keySet(), ends.keySet());
        for (String id : starts.keySet()) {
            assertTrue(ends.get(id).get("ts").asDouble() >= starts.get(id).get("ts").asDouble(), id);
            assertTrue(!ends.get(id).get("tid").equals(starts.get(id).get("tid")), "send and read are on different nodes");
        }
        assertTrue(slices.contains("node 0: tcp send sid=0 18 B"), slices.toString());
        assertTrue(slices.contains("node 1: tcp read sid=0 18 B"), slices.toString());
        assertTrue(slices.contains("node 0: tcp connect sid=0 \u2192 10.0.0.2:80 (established)")
                || slices.stream().anyMatch(s -> s.startsWith("node 0: tcp connect sid=0 \u2192 ")), slices.toString());
        assertTrue(slices.contains("run: tcp RESET sid=1 (crash)"), slices.toString());
        // stream 0 lives from its connect to its second close, stream 1 until the crash reset, stream 2 is refused
        assertEquals(5, connections.size(), connections.toString());
        assertTrue(connections.get(0).startsWith("b tcp sid=0 "), connections.toString());
        assertTrue(connections.get(1).startsWith("e tcp sid=0 "), connections.toString());
        assertTrue(connections.get(4).startsWith("n tcp sid=2 ") && connections.get(4).endsWith("(refused)"),
                connections.toString());

        ByteArrayOutputStream again = new ByteArrayOutputStream();
        PerfettoTrace.write(log, again);
        assertArrayEquals(out.toByteArray(), again.toByteArray(), "deterministic");
    }

    @Test
    void aRecordingWithoutTcpHasNoTcpEvents() throws Exception {
        Path log = dir.resolve("udp.weftlog");
        try (dev.weft.log.LogWriter w = dev.weft.log.LogWriter.create(log, 1, "", 0, dev.weft.log.LogMeta.EMPTY)) {
            w.append(0, new Event.Connect(1));
            w.append(0, new Event.Hello(1, 0));
            w.append(0, new Event.End(3, 0, 0));
        }
        for (JsonNode e : trace(log, new ByteArrayOutputStream())) {
            assertTrue(!e.path("cat").asText().equals("tcp") && !e.path("name").asText().startsWith("tcp"), e.toString());
        }
    }
}
