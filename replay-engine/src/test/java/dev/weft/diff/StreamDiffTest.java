package dev.weft.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.log.Event;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.replay.TcpRecordingFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two TCP recordings whose streams differ: the first node-visible stream divergence, with the bytes each side read. */
class StreamDiffTest {

    @TempDir
    Path dir;

    @Test
    void aByteTheClientReadDifferentlyIsTheFirstStreamDivergence() throws Exception {
        Path a = dir.resolve("a.weftlog"), b = dir.resolve("b.weftlog");
        TcpRecordingFixture.write(a, 11, e -> e);
        // in B the client (conn 2, node 0) reads "x1.0 200 OK…" where A read "/1.0 200 OK…" (offset 4 of the reply)
        TcpRecordingFixture.write(b, 11, e -> e instanceof Event.TcpRecv r && r.conn() == 2 && !r.peek()
                && r.outcome() instanceof TcpRecvOutcome.Data d && d.offset() == 4
                ? new Event.TcpRecv(r.conn(), r.sid(), r.max(), r.peek(), r.blocking(),
                        new TcpRecvOutcome.Data(d.offset(), d.delivNs(), "78" + d.payload().substring(2))) : e);
        StreamDiff.Divergence d = StreamDiff.compare(a, b);
        assertEquals(0, d.node());
        assertEquals(0, d.sid());
        assertEquals(4, d.offset());
        assertEquals(d.opA(), d.opB());
        String[] lines = d.text().split("\n");
        assertEquals("first stream divergence: node 0, sid 0, offset 4", lines[0]);
        assertEquals("  A: op " + d.opA() + " read \"/1.0 200 OK\\r\\n\\r\\nh\" (2f312e3020323030204f4b0d0a0d0a68)", lines[1]);
        assertEquals("  B: op " + d.opB() + " read \"x1.0 200 OK\\r\\n\\r\\nh\" (78312e3020323030204f4b0d0a0d0a68)", lines[2]);
    }

    @Test
    void aSideThatReadLessDiffersWhereItStops() throws Exception {
        Path a = dir.resolve("a.weftlog"), b = dir.resolve("b.weftlog");
        TcpRecordingFixture.write(a, 11, e -> e);
        // in B the server never read the request: its stream reads are empty
        TcpRecordingFixture.write(b, 11, e -> e instanceof Event.TcpRecv r && r.conn() == 3
                && r.outcome() instanceof TcpRecvOutcome.Data
                ? new Event.TcpRecv(r.conn(), r.sid(), r.max(), r.peek(), r.blocking(), new TcpRecvOutcome.Empty()) : e);
        StreamDiff.Divergence d = StreamDiff.compare(a, b);
        assertEquals(1, d.node());
        assertEquals(0, d.offset());
        assertEquals("  B: (read nothing more)", d.text().split("\n")[2]);
    }

    @Test
    void identicalStreamsHaveNoDivergence() throws Exception {
        Path a = dir.resolve("a.weftlog"), b = dir.resolve("b.weftlog");
        TcpRecordingFixture.write(a, 11, e -> e);
        TcpRecordingFixture.write(b, 11, e -> e);
        assertNull(StreamDiff.compare(a, b));
    }
}
