package dev.weft.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.text.Hex;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stream model's guarantees (docs/tcp.md "Model"), one test each. */
class TcpNetworkTest {

    static final long MS = 1_000_000L;
    static final long SEC = 1_000_000_000L;
    static final VAddr SERVER = VAddr.ofNode(1, 6379);
    static final long CLIENT_IP = VAddr.ofNode(0, 0).ip();
    static final long LISTENER = 10, CLIENT = 11, ACCEPTED = 12;

    static TcpNetwork net(long seed, String spec) throws Exception {
        return new TcpNetwork(FaultModel.of(seed, spec));
    }

    /** A listener on node 1, a client on node 0 connected at t=0, accepted and adopted; returns its sid. */
    static long connected(TcpNetwork n) throws Exception {
        n.bind(LISTENER, SERVER);
        n.listen(LISTENER, 16);
        TcpNetwork.ConnectResult c = n.connect(CLIENT, CLIENT_IP, SERVER, 0);
        assertTrue(c.outcome() instanceof TcpConnectOutcome.Established, c.toString());
        TcpAcceptOutcome a = n.accept(LISTENER, TcpNetwork.ALL);
        assertEquals(c.sid(), ((TcpAcceptOutcome.Accepted) a).sid());
        n.adopt(ACCEPTED, c.sid());
        return c.sid();
    }

    /** Reads everything delivered (horizon ALL) at conn until empty/eof/reset; returns the bytes. */
    static byte[] drain(TcpNetwork n, long conn) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (;;) {
            TcpRecvOutcome o = n.read(conn, 7777, false, TcpNetwork.ALL).outcome();
            if (!(o instanceof TcpRecvOutcome.Data d)) return out.toByteArray();
            out.writeBytes(Hex.decode(d.payload()));
        }
    }

    @Test
    void handshakeTakesTwoFlightsAndAcceptSeesOnlyArrivedSyns() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:5000000");
        n.bind(LISTENER, SERVER);
        n.listen(LISTENER, 1);
        TcpNetwork.ConnectResult c = n.connect(CLIENT, CLIENT_IP, SERVER, 100);
        assertEquals(new VAddr(CLIENT_IP, TcpNetwork.FIRST_EPHEMERAL_PORT), c.src());
        assertEquals(new TcpConnectOutcome.Established(100 + 10 * MS), c.outcome());
        assertEquals(TcpAcceptOutcome.EMPTY, n.accept(LISTENER, 100 + 5 * MS - 1));
        assertEquals(new TcpNetwork.Readiness(0, 100 + 5 * MS), n.readiness(LISTENER, 100));
        assertEquals(new TcpAcceptOutcome.Accepted(0, c.src(), SERVER, 100 + 5 * MS), n.accept(LISTENER, 100 + 5 * MS));
        assertEquals(TcpNetwork.CONNECTING, n.status(CLIENT, 100).state());
        assertEquals(TcpNetwork.ESTABLISHED, n.status(CLIENT, 100 + 10 * MS).state());
    }

    @Test
    void dataArrivesAfterItsLatencyAndNotBeforeTheHorizon() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:5000000");
        long sid = connected(n);
        TcpNetwork.WriteResult w = n.write(CLIENT, "hello".getBytes(), 20 * MS);
        assertEquals(new TcpNetwork.WriteResult(sid, 0, 5, new TcpSendOutcome.Segment(25 * MS, 0)), w);
        assertEquals(TcpRecvOutcome.EMPTY, n.read(ACCEPTED, 100, false, 25 * MS - 1).outcome());
        assertEquals(new TcpNetwork.Readiness(TcpNetwork.POLLOUT, 25 * MS), n.readiness(ACCEPTED, 25 * MS - 1));
        assertEquals(new TcpRecvOutcome.Data(0, 25 * MS, Hex.encodeLower("hel".getBytes())),
                n.read(ACCEPTED, 3, true, 25 * MS).outcome(), "a peek");
        assertEquals(new TcpRecvOutcome.Data(0, 25 * MS, Hex.encodeLower("hello".getBytes())),
                n.read(ACCEPTED, 100, false, 25 * MS).outcome(), "the peek left them unread");
    }

    @Test
    void segmentsNeverOvertakeAndTheBytesArriveInOrder() throws Exception {
        TcpNetwork n = net(42, "latency=uniform:1000-90000000");
        connected(n);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        long prev = 0;
        for (int i = 0; i < 300; i++) {
            byte[] b = ("segment " + i + ";").getBytes();
            TcpSendOutcome.Segment s = (TcpSendOutcome.Segment) n.write(CLIENT, b, 20 * MS + i * 1000).outcome();
            assertTrue(Long.compareUnsigned(s.delivNs(), prev) >= 0, "segment " + i + " overtook its predecessor");
            prev = s.delivNs();
            sent.writeBytes(b);
        }
        assertArrayEquals(sent.toByteArray(), drain(n, ACCEPTED));
    }

    @Test
    void lossDelaysByRetransmissionButLosesNoByte() throws Exception {
        TcpNetwork n = net(7, "latency=fixed:1000000,loss=0.4");
        connected(n);
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        long retransmitted = 0;
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[] {(byte) i, (byte) (i >> 8)};
            long at = 10 * SEC + i * MS;
            TcpSendOutcome.Segment s = (TcpSendOutcome.Segment) n.write(CLIENT, b, at).outcome();
            if (s.retransmits() > 0) {
                retransmitted++;
                assertTrue(s.delivNs() >= at + SegmentTiming.RTO_NS + MS, "a retransmission waits its RTO");
            }
            sent.writeBytes(b);
        }
        assertTrue(retransmitted > 40 && retransmitted < 120, "about 40% lost: " + retransmitted);
        assertArrayEquals(sent.toByteArray(), drain(n, ACCEPTED));
    }

    @Test
    void bandwidthSerialisesSegments() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:0,bw=1000"); // 1000 bytes/s: 1 ms per byte
        connected(n);
        TcpSendOutcome.Segment a = (TcpSendOutcome.Segment) n.write(CLIENT, new byte[100], SEC).outcome();
        TcpSendOutcome.Segment b = (TcpSendOutcome.Segment) n.write(CLIENT, new byte[100], SEC).outcome();
        assertEquals(SEC + 100 * MS, a.delivNs());
        assertEquals(SEC + 200 * MS, b.delivNs(), "the second waits for the link");
    }

    @Test
    void aFullReceiveBufferPushesBackUntilTheReaderReads() throws Exception {
        TcpNetwork n = new TcpNetwork(FaultModel.of(1, "latency=fixed:1000"), new TcpConfig(1000, 30 * SEC, 3 * SEC));
        long sid = connected(n);
        assertEquals(1000, n.write(CLIENT, new byte[1500], MS).accepted());
        assertEquals(new TcpNetwork.WriteResult(sid, 1000, 0, TcpSendOutcome.FULL), n.write(CLIENT, new byte[1], MS));
        assertEquals(0, n.readiness(CLIENT, MS).events() & TcpNetwork.POLLOUT);
        TcpRecvOutcome.Data d = (TcpRecvOutcome.Data) n.read(ACCEPTED, 400, false, TcpNetwork.ALL).outcome();
        assertEquals(400, d.payload().length() / 2);
        assertEquals(TcpNetwork.POLLOUT, n.readiness(CLIENT, MS).events() & TcpNetwork.POLLOUT);
        assertEquals(400, n.write(CLIENT, new byte[900], 2 * MS).accepted());
        assertEquals(1400, n.snapshot().connections().get(0).toAcceptor().written());
    }

    @Test
    void tenMegabytesArriveByteExactThroughBackPressureAndLoss() throws Exception {
        TcpNetwork n = net(3, "latency=uniform:100000-2000000,loss=0.05,bw=100000000");
        connected(n);
        byte[] data = new byte[10 * 1024 * 1024];
        new java.util.SplittableRandom(1).nextBytes(data);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        int sent = 0, fulls = 0;
        long t = SEC;
        while (got.size() < data.length) {
            if (sent < data.length) {
                byte[] chunk = java.util.Arrays.copyOfRange(data, sent, Math.min(data.length, sent + 64 * 1024));
                TcpNetwork.WriteResult w = n.write(CLIENT, chunk, t);
                if (w.accepted() < chunk.length) fulls++; // a prefix or nothing: the receive buffer held it back
                sent += w.accepted();
            }
            if (n.read(ACCEPTED, 16 * 1024, false, TcpNetwork.ALL).outcome() instanceof TcpRecvOutcome.Data d) {
                got.writeBytes(Hex.decode(d.payload()));
            }
            t += 100_000;
        }
        assertTrue(fulls > 0, "the writer ran ahead of the reader and was held back");
        assertArrayEquals(data, got.toByteArray());
    }

    @Test
    void aPartitionStallsTheStreamUntilTheHeal() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000");
        connected(n);
        n.partitionAt(SEC, "0|1");
        assertEquals(TcpSendOutcome.STALLED, n.write(CLIENT, "ab".getBytes(), 2 * SEC).outcome());
        assertEquals(TcpSendOutcome.STALLED, n.write(CLIENT, "cd".getBytes(), 2 * SEC + 1).outcome(), "behind it");
        assertEquals(TcpRecvOutcome.EMPTY, n.read(ACCEPTED, 10, false, TcpNetwork.ALL).outcome());
        assertEquals(32 * SEC, n.readiness(ACCEPTED, 3 * SEC).nextChangeNs(), "the stall deadline is the next change");
        n.partitionAt(5 * SEC, "");
        assertEquals(new TcpRecvOutcome.Data(0, 5 * SEC + MS, Hex.encodeLower("abcd".getBytes())),
                n.read(ACCEPTED, 10, false, TcpNetwork.ALL).outcome());
        assertTrue(n.stallResetsDue(TcpNetwork.ALL).isEmpty());
    }

    @Test
    void aStreamCutLongerThanTheStallTimeoutIsResetOnBothSides() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000,tcp_stall=10000000000");
        long sid = connected(n);
        n.write(ACCEPTED, "before".getBytes(), 100 * MS);
        n.partitionAt(SEC, "0|1");
        n.write(CLIENT, "lost?".getBytes(), 2 * SEC);
        assertTrue(n.stallResetsDue(12 * SEC - 1).isEmpty());
        assertEquals(List.of(new TcpNetwork.StallReset(sid, 12 * SEC)), n.stallResetsDue(12 * SEC));
        n.reset(sid, 12 * SEC);
        assertEquals(new TcpRecvOutcome.Data(0, 101 * MS, Hex.encodeLower("before".getBytes())),
                n.read(CLIENT, 100, false, TcpNetwork.ALL).outcome(), "bytes delivered before the reset stay readable");
        assertEquals(TcpRecvOutcome.RESET, n.read(CLIENT, 100, false, TcpNetwork.ALL).outcome());
        assertEquals(TcpRecvOutcome.RESET, n.read(ACCEPTED, 100, false, TcpNetwork.ALL).outcome());
        assertEquals(TcpSendOutcome.RESET, n.write(CLIENT, "x".getBytes(), 13 * SEC).outcome());
        assertEquals(TcpNetwork.RESET, n.status(CLIENT, 13 * SEC).state());
        n.partitionAt(14 * SEC, "");
        assertTrue(n.stallResetsDue(TcpNetwork.ALL).isEmpty(), "reported once");
    }

    @Test
    void aHealLaterThanTheStallTimeoutDoesNotSaveTheStream() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000");
        long sid = connected(n);
        n.partitionAt(SEC, "1|0");
        n.partitionAt(40 * SEC, "");
        assertEquals(TcpSendOutcome.STALLED, n.write(CLIENT, "x".getBytes(), 2 * SEC).outcome());
        assertEquals(List.of(new TcpNetwork.StallReset(sid, 32 * SEC)), n.stallResetsDue(TcpNetwork.ALL));
    }

    @Test
    void connectWhereNothingListensIsRefusedAfterOneFlight() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:3000000");
        TcpNetwork.ConnectResult c = n.connect(CLIENT, CLIENT_IP, SERVER, SEC);
        assertEquals(new TcpConnectOutcome.Refused(SEC + 3 * MS), c.outcome());
        assertEquals(new TcpNetwork.Status(TcpNetwork.CLOSED, TcpErrno.ECONNREFUSED.linux(), c.src(), SERVER, 0, 0),
                n.status(CLIENT, TcpNetwork.ALL));
        assertEquals(TcpSendOutcome.CLOSED, n.write(CLIENT, new byte[1], 2 * SEC).outcome());
        // a retry after the listener appears gets through (the same socket may connect again after a failure)
        n.bind(LISTENER, SERVER);
        n.listen(LISTENER, 1);
        assertTrue(n.connect(CLIENT, CLIENT_IP, SERVER, 2 * SEC).outcome() instanceof TcpConnectOutcome.Established);
    }

    @Test
    void connectAcrossAPartitionTimesOut() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:3000000,partition=0|1");
        n.bind(LISTENER, SERVER);
        n.listen(LISTENER, 1);
        assertEquals(new TcpConnectOutcome.TimedOut(SEC + TcpConfig.DEFAULT_SYN_TIMEOUT_NS),
                n.connect(CLIENT, CLIENT_IP, SERVER, SEC).outcome());
        assertEquals(TcpErrno.ETIMEDOUT.linux(), n.status(CLIENT, TcpNetwork.ALL).soError());
    }

    @Test
    void aCrashResetsThePeersAtTheCrashInstant() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000");
        long sid = connected(n);
        n.write(ACCEPTED, "reply".getBytes(), 10 * MS);
        assertEquals(List.of(sid), n.crashNode(1, 5 * SEC));
        assertEquals(TcpRecvOutcome.EMPTY, n.read(CLIENT, 10, false, 10 * MS).outcome(), "nothing yet, no reset yet");
        assertArrayEquals("reply".getBytes(), drain(n, CLIENT), "data delivered before the crash is readable");
        assertEquals(TcpRecvOutcome.RESET, n.read(CLIENT, 10, false, 5 * SEC).outcome());
        assertEquals(TcpNetwork.POLLERR, n.readiness(CLIENT, 5 * SEC).events() & TcpNetwork.POLLERR);
        assertEquals(List.of(), n.crashNode(1, 6 * SEC), "already reset");
    }

    @Test
    void closeIsAFinAfterTheLastSegmentOrAResetWithUnreadBytes() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000");
        long sid = connected(n);
        n.write(ACCEPTED, "bye".getBytes(), 10 * MS);
        assertEquals(new TcpNetwork.CloseResult(sid, false), n.close(ACCEPTED));
        assertEquals(TcpNetwork.POLLIN | TcpNetwork.POLLRDHUP | TcpNetwork.POLLOUT, n.readiness(CLIENT, 11 * MS).events());
        assertArrayEquals("bye".getBytes(), drain(n, CLIENT));
        assertEquals(TcpRecvOutcome.EOF, n.read(CLIENT, 10, false, TcpNetwork.ALL).outcome());
        assertEquals(TcpSendOutcome.RESET, n.write(CLIENT, "x".getBytes(), 20 * MS).outcome(), "the peer is gone");

        TcpNetwork m = net(1, "latency=fixed:1000000");
        long sid2 = connected(m);
        m.write(CLIENT, "unread".getBytes(), 10 * MS);
        assertEquals(new TcpNetwork.CloseResult(sid2, true), m.close(ACCEPTED));
        assertEquals(TcpRecvOutcome.RESET, m.read(CLIENT, 10, false, TcpNetwork.ALL).outcome());
    }

    @Test
    void shutdownWriteIsEofAtThePeerWhileTheOtherWayStillFlows() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000000");
        connected(n);
        n.write(CLIENT, "request".getBytes(), 10 * MS);
        n.shutdown(CLIENT, false, true);
        assertEquals(TcpSendOutcome.CLOSED, n.write(CLIENT, "more".getBytes(), 12 * MS).outcome());
        assertArrayEquals("request".getBytes(), drain(n, ACCEPTED));
        assertEquals(TcpRecvOutcome.EOF, n.read(ACCEPTED, 10, false, TcpNetwork.ALL).outcome());
        n.write(ACCEPTED, "response".getBytes(), 20 * MS);
        assertArrayEquals("response".getBytes(), drain(n, CLIENT));
    }

    @Test
    void ephemeralPortsCountFrom40000PerAddressSkippingPortsInUse() throws Exception {
        TcpNetwork n = net(1, "");
        n.bind(1, new VAddr(CLIENT_IP, 40001));
        assertEquals(new VAddr(CLIENT_IP, 40000), n.bind(2, new VAddr(CLIENT_IP, 0)));
        assertEquals(new VAddr(CLIENT_IP, 40002), n.bind(3, new VAddr(CLIENT_IP, 0)));
        assertEquals(new VAddr(SERVER.ip(), 40000), n.bind(4, new VAddr(SERVER.ip(), 0)));
        assertEquals(TcpErrno.EADDRINUSE,
                assertThrows(TcpException.class, () -> n.bind(5, new VAddr(CLIENT_IP, 40001))).errno());
        n.release(1);
        assertEquals(new VAddr(CLIENT_IP, 40001), n.bind(5, new VAddr(CLIENT_IP, 40001)), "freed by the release");
    }

    /** The outcomes of a fixed workload, as text. */
    static List<String> workload(long seed) throws Exception {
        TcpNetwork n = net(seed, "latency=uniform:1000-50000000,loss=0.2,bw=10000000");
        List<String> out = new ArrayList<>();
        connected(n);
        for (int i = 0; i < 100; i++) {
            out.add(n.write(i % 3 == 0 ? ACCEPTED : CLIENT, new byte[i + 1], SEC + i * MS).toString());
            out.add(n.read(i % 2 == 0 ? ACCEPTED : CLIENT, 50, false, SEC + i * 2 * MS).toString());
        }
        return out;
    }

    @Test
    void fatesAreAFunctionOfTheSeed() throws Exception {
        assertEquals(workload(5), workload(5));
        assertNotEquals(workload(5), workload(6));
    }

    @Test
    void streamsChangeNoDatagramFate() throws Exception {
        FaultModel m = FaultModel.of(9, "latency=uniform:1000-50000000,loss=0.3");
        Core plain = new Core(m);
        Core mixed = new Core(m);
        connected(mixed.tcp());
        VAddr a = VAddr.ofNode(0, 9000), b = VAddr.ofNode(1, 9000);
        plain.bind(1, b);
        mixed.bind(1, b);
        for (int i = 0; i < 50; i++) {
            mixed.tcp().write(CLIENT, new byte[] {1}, i);
            assertEquals(plain.send(a, b, new byte[] {(byte) i}, i), mixed.send(a, b, new byte[] {(byte) i}, i));
        }
    }

    @Test
    void aCopyIsIndependent() throws Exception {
        TcpNetwork n = net(1, "latency=fixed:1000");
        connected(n);
        n.write(CLIENT, "abc".getBytes(), MS);
        TcpNetwork c = n.copy();
        drain(n, ACCEPTED);
        assertArrayEquals("abc".getBytes(), drain(c, ACCEPTED));
        assertEquals(n.snapshot().connections().get(0).toAcceptor().written(),
                c.snapshot().connections().get(0).toAcceptor().written());
    }
}
