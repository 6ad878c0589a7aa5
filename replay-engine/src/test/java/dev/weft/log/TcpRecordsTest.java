package dev.weft.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The TCP extension's records (docs/weft-log-format.md "TCP streams"): every kind and every outcome variant goes
 * through the writer, the reader and the canonical form unchanged; the chain holds over a line written in another
 * member order; a TCP record before the ext record is one clean malformed-line error.
 */
class TcpRecordsTest {

    private static final VAddr A = VAddr.ofNode(0, 40000);
    private static final VAddr B = VAddr.ofNode(1, 6379);

    /** One event of every TCP kind and outcome variant, after the ext record, and the signal record. */
    static List<Event> everyKind() {
        List<Event> e = new ArrayList<>();
        e.add(new Event.Connect(1));
        e.add(new Event.Ext("tcp", 1));
        e.add(new Event.TcpBind(1, B));
        e.add(new Event.TcpListen(1, 128));
        e.add(new Event.TcpConnect(2, 0, A, B, 5, new TcpConnectOutcome.Established(100)));
        e.add(new Event.TcpConnect(3, 1, A, B, 5, new TcpConnectOutcome.Refused(50)));
        e.add(new Event.TcpConnect(4, 2, A, B, 5, new TcpConnectOutcome.TimedOut(3_000_000_005L)));
        e.add(new Event.TcpConnect(5, 3, A, B, 5, TcpConnectOutcome.PENDING));
        e.add(new Event.TcpEstablished(5, 3, new TcpConnectOutcome.Established(90)));
        e.add(new Event.TcpAccept(1, true, new TcpAcceptOutcome.Accepted(0, A, B, 50)));
        e.add(new Event.TcpAccept(1, false, TcpAcceptOutcome.EMPTY));
        e.add(new Event.TcpAdopt(6, 0));
        e.add(new Event.TcpSend(2, 0, 0, 200, "48454c4c4f", new TcpSendOutcome.Segment(300, 2)));
        e.add(new Event.TcpSend(2, 0, 5, 210, "21", TcpSendOutcome.STALLED));
        e.add(new Event.TcpSend(2, 0, 6, 220, "", TcpSendOutcome.FULL));
        e.add(new Event.TcpSend(2, 0, 6, 230, "", TcpSendOutcome.RESET));
        e.add(new Event.TcpSend(2, 0, 6, 240, "", TcpSendOutcome.CLOSED));
        e.add(new Event.TcpRecv(6, 0, 4096, false, true, new TcpRecvOutcome.Data(0, 300, "48454c4c4f")));
        e.add(new Event.TcpRecv(6, 0, 1, true, false, TcpRecvOutcome.EMPTY));
        e.add(new Event.TcpRecv(6, 0, 10, false, true, TcpRecvOutcome.EOF));
        e.add(new Event.TcpRecv(6, 0, 10, false, true, TcpRecvOutcome.RESET));
        e.add(new Event.TcpShutdown(2, 0, "wr"));
        e.add(new Event.TcpShutdown(2, 0, "rd"));
        e.add(new Event.TcpShutdown(2, 0, "rdwr"));
        e.add(new Event.TcpClose(2, 0, false));
        e.add(new Event.TcpClose(6, 0, true));
        e.add(new Event.TcpReset(0, "crash", 400));
        e.add(new Event.TcpPartition(500, "0|1+2"));
        e.add(new Event.TcpPartition(600, ""));
        e.add(new Event.Signal(3, "SIGTERM", "end_when_exited"));
        e.add(new Event.Disconnect(6));
        return e;
    }

    private static byte[] write(List<Event> events) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (LogWriter w = LogWriter.create(out, false, 7, "latency=fixed:50", 0, LogMeta.EMPTY)) {
            long vt = 0;
            for (Event e : events) w.append(vt++, e);
        }
        return out.toByteArray();
    }

    private static List<LogRecord> read(byte[] log) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        try (LogReader r = LogReader.open(new ByteArrayInputStream(log))) {
            for (LogRecord rec; (rec = r.next()) != null; ) out.add(rec);
        }
        return out;
    }

    @Test
    void everyKindRoundTripsThroughWriterReaderAndCanonicalForm() throws Exception {
        List<Event> events = everyKind();
        byte[] log = write(events);
        List<LogRecord> back = read(log);
        assertEquals(events.size(), back.size());
        String[] lines = new String(log, StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < events.size(); i++) {
            assertEquals(events.get(i), back.get(i).event(), "record " + i);
            String canon = CanonicalJson.record(i, i, events.get(i));
            assertTrue(lines[i + 1].startsWith(canon.substring(0, canon.length() - 1) + ",\"chain\":"), lines[i + 1]);
        }
    }

    @Test
    void aLineInAnotherMemberOrderReadsTheSameAndKeepsTheChain() throws Exception {
        byte[] log = write(List.of(new Event.Ext("tcp", 1),
                new Event.TcpSend(2, 0, 0, 200, "ab", new TcpSendOutcome.Segment(300, 0))));
        String[] lines = new String(log, StandardCharsets.UTF_8).split("\n");
        // Same record, members reordered and spaced: the chain is over the canonical form, so it still matches.
        String chain = lines[2].substring(lines[2].indexOf(",\"chain\""));
        lines[2] = "{\"vt\":1, \"op\":1,\"e\":{\"outcome\":{\"retransmits\":0,\"kind\":\"segment\",\"deliv_ns\":300},"
                + "\"payload\":\"ab\",\"k\":\"tcp_send\",\"sid\":0,\"conn\":2,\"send_vt\":200,\"offset\":0}" + chain;
        List<LogRecord> back = read((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(new Event.TcpSend(2, 0, 0, 200, "ab", new TcpSendOutcome.Segment(300, 0)), back.get(1).event());
    }

    @Test
    void aTcpRecordBeforeTheExtRecordIsOneMalformedLineError() throws Exception {
        byte[] log = write(List.of(new Event.Connect(1), new Event.TcpBind(1, B)));
        WeftLogException e = assertThrows(WeftLogException.class, () -> read(log));
        assertEquals(WeftLogException.Kind.MALFORMED, e.kind());
        assertEquals("line 3: malformed record: tcp_bind record before the {\"k\":\"ext\",\"name\":\"tcp\",\"version\":1}"
                + " record that must announce TCP", e.getMessage());
    }

    @Test
    void anUnknownExtensionOrVersionIsRefusedAtItsLine() throws Exception {
        WeftLogException e = assertThrows(WeftLogException.class, () -> read(write(List.of(new Event.Ext("quic", 1)))));
        assertEquals("line 2: malformed record: unknown format extension \"quic\" (this reader knows \"tcp\")",
                e.getMessage());
        e = assertThrows(WeftLogException.class, () -> read(write(List.of(new Event.Ext("tcp", 2)))));
        assertTrue(e.getMessage().startsWith("line 2: malformed record: tcp extension version 2"), e.getMessage());
    }

    @Test
    void missingMembersAndBadValuesAreNamed() {
        WeftLogException e = assertThrows(WeftLogException.class, () -> LogReader.parseRecordLine(
                "{\"op\":0,\"vt\":0,\"e\":{\"k\":\"tcp_send\",\"conn\":1,\"sid\":0,\"offset\":0,\"payload\":\"\","
                        + "\"outcome\":{\"kind\":\"full\"}},\"chain\":\"0000000000000000\"}", 2));
        assertTrue(e.getMessage().contains("send_vt"), e.getMessage());
        e = assertThrows(WeftLogException.class, () -> LogReader.parseRecordLine(
                "{\"op\":0,\"vt\":0,\"e\":{\"k\":\"tcp_shutdown\",\"conn\":1,\"sid\":0,\"how\":\"up\"},"
                        + "\"chain\":\"0000000000000000\"}", 2));
        assertTrue(e.getMessage().contains("\"how\" must be"), e.getMessage());
        e = assertThrows(WeftLogException.class, () -> LogReader.parseRecordLine(
                "{\"op\":0,\"vt\":0,\"e\":{\"k\":\"tcp_established\",\"conn\":1,\"sid\":0,\"outcome\":{\"kind\":\"pending\"}},"
                        + "\"chain\":\"0000000000000000\"}", 2));
        assertTrue(e.getMessage().contains("pending"), e.getMessage());
    }
}
