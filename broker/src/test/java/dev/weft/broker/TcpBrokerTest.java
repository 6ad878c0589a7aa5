package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.record.LogRecorder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-host broker serving TCP to wire-level clients (docs/tcp.md): every exchange's bytes arrive in order,
 * held requests are answered by the operation that resolves them, and every recording replays identically.
 */
class TcpBrokerTest {
    static final long SERVER = TcpClient.ip(0);

    @TempDir
    Path dir;

    private BrokerFixture broker(Path log) throws Exception {
        return new BrokerFixture(dir, LogRecorder.create(log, 5, "latency=uniform:1000-50000", s -> { }), 5,
                "latency=uniform:1000-50000", false);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A listener on node 0 port 7000 and a connected client on node 1; returns {listener, client, accepted}. */
    private static TcpClient[] connected(BrokerFixture bf) throws Exception {
        TcpClient l = new TcpClient(bf.server.socketPath(), 0);
        TcpClient.Reply bound = l.bind(0, 7000); // INADDR_ANY: the node's own address
        assertEquals(TcpClient.Reply.BOUND, bound.tag());
        assertEquals(SERVER, bound.ip());
        assertEquals(TcpClient.Reply.ACK, l.listen(16).tag());
        TcpClient c = new TcpClient(bf.server.socketPath(), 1);
        TcpClient.Reply conn = c.connect(SERVER, 7000, 10, false);
        assertEquals(TcpClient.Reply.CONNECTED, conn.tag());
        assertEquals(TcpClient.ip(1), conn.ip());
        assertEquals(40000, conn.port(), "the first ephemeral port of node 1");
        assertEquals(7000, conn.port2());
        TcpClient.Reply acc = l.accept(20, true);
        assertEquals(TcpClient.Reply.ACCEPTED, acc.tag());
        assertEquals(0, acc.sid());
        assertEquals(TcpClient.ip(1), acc.ip());
        assertEquals(40000, acc.port());
        TcpClient s = new TcpClient(bf.server.socketPath(), 0);
        assertEquals(TcpClient.Reply.ACK, s.adopt(acc.sid()).tag());
        return new TcpClient[] {l, c, s};
    }

    /** Closes every socket of the exchange and ends the recording once the broker has seen them all go. */
    private static void closeAndFinish(BrokerFixture bf, TcpClient... sockets) throws Exception {
        for (TcpClient x : sockets) {
            x.close();
        }
        bf.awaitNoConnectionsBut(0);
        bf.sequencer.finish();
    }

    /** Reads s until EOF into got, the reads at virtual times vt, vt + 1, .... */
    private static void readUntilEof(TcpClient s, long vt, ByteArrayOutputStream got) throws Exception {
        while (true) {
            TcpClient.Reply d = s.read(1 << 20, false, vt++, true);
            if (d.tag() == TcpClient.Reply.EOF) {
                return;
            }
            got.write(d.data());
        }
    }

    private static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void aRequestAndItsAnswerTravelBothWaysAndShutdownIsEofAtThePeer() throws Exception {
        Path log = dir.resolve("tcp.weftlog");
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            assertEquals(5, c.write(b("PING\n"), 30, true).n());
            assertEquals(TcpClient.Reply.ACK, c.shutdown(1).tag());
            assertEquals("PING\n", s.read(100, false, 40, true).text());
            assertEquals(TcpClient.Reply.EOF, s.read(100, false, 41, true).tag(), "SHUT_WR is EOF at the peer");
            assertEquals(5, s.write(b("PONG\n"), 50, true).n());
            s.close(); // the last close: a FIN after the last segment
            assertEquals("PONG\n", c.read(100, false, 60, true).text());
            assertEquals(TcpClient.Reply.EOF, c.read(100, false, 61, true).tag());
            closeAndFinish(bf, c, t[0]);
        }
        List<String> kinds = BrokerWireTest.kinds(log);
        assertTrue(kinds.contains("ext"), kinds.toString());
        assertEquals(kinds.indexOf("ext") + 1, kinds.indexOf("tcp_bind0"), "ext comes right before the first TCP record");
        String text = Files.readString(log);
        assertTrue(text.contains("\"payload\":\"50494e470a\""), "the request's bytes are in the recording");
        assertTrue(text.contains("\"payload\":\"504f4e470a\""), "the answer's bytes are in the recording");
        BrokerWireTest.replay(log);
    }

    @Test
    void aBlockingReadIsAnsweredByThePeersWrite() throws Exception {
        Path log = dir.resolve("held.weftlog");
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            s.readRequest(100, false, 30, true);
            Thread.sleep(50);
            assertFalse(s.replyWaiting(), "nothing to read yet: the read is held");
            c.write(b("late"), 40, true);
            assertEquals("late", s.read().text());
            closeAndFinish(bf, t);
        }
        BrokerWireTest.replay(log);
    }

    @Test
    void connectWhereNothingListensIsRefusedAndARetryAfterListenGetsThrough() throws Exception {
        Path log = dir.resolve("refused.weftlog");
        try (BrokerFixture bf = broker(log)) {
            TcpClient c = new TcpClient(bf.server.socketPath(), 1);
            TcpClient.Reply r = c.connect(SERVER, 7000, 5, false);
            assertEquals(TcpClient.Reply.ERROR, r.tag());
            assertEquals(111, r.errno(), "ECONNREFUSED");
            TcpClient l = new TcpClient(bf.server.socketPath(), 0);
            l.bind(SERVER, 7000);
            l.listen(4);
            TcpClient c2 = new TcpClient(bf.server.socketPath(), 1);
            assertEquals(TcpClient.Reply.CONNECTED, c2.connect(SERVER, 7000, 9, false).tag());
            closeAndFinish(bf, c, c2, l);
        }
        BrokerWireTest.replay(log);
    }

    @Test
    void aWriterFarAheadOfItsReaderWaitsAndNoByteIsLost() throws Exception {
        Path log = dir.resolve("backpressure.weftlog");
        byte[] sent = randomBytes(1 << 20, 3);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            int off = 0;
            int fullWaits = 0;
            long vt = 100;
            while (off < sent.length) {
                int n = Math.min(64 * 1024, sent.length - off);
                c.writeRequest(Arrays.copyOfRange(sent, off, off + n), vt++, true);
                Thread.sleep(2);
                if (!c.replyWaiting()) {
                    fullWaits++; // held: the receive buffer is full until the reader reads
                    TcpClient.Reply d = s.read(128 * 1024, false, vt++, true);
                    got.write(d.data());
                }
                TcpClient.Reply w = c.read();
                assertEquals(TcpClient.Reply.WROTE, w.tag());
                assertTrue(w.n() >= 1);
                off += (int) w.n();
            }
            c.shutdown(1);
            readUntilEof(s, vt, got);
            assertTrue(fullWaits > 0, "the 256 KiB receive buffer made the writer wait");
            closeAndFinish(bf, t);
        }
        assertTrue(Arrays.equals(sent, got.toByteArray()), "every byte, in order");
        BrokerWireTest.replay(log);
    }

    @Test
    void aTcpWaitIsHeldUntilReadableAndUnwaitTakesItBack() throws Exception {
        try (BrokerFixture bf = broker(dir.resolve("wait.weftlog"))) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            s.waitRequest(0x1, 30, 0);
            Thread.sleep(50);
            assertFalse(s.replyWaiting());
            s.unwaitRequest();
            TcpClient.Reply ready = s.read();
            assertEquals(TcpClient.Reply.READY, ready.tag());
            assertEquals(0, ready.n() & 0x1, "not readable yet");
            assertEquals(TcpClient.Reply.UNWAIT_ACK, s.read().tag());
            s.waitRequest(0x1, 31, 0);
            c.write(b("x"), 40, true);
            TcpClient.Reply r = s.read();
            assertEquals(TcpClient.Reply.READY, r.tag());
            assertEquals(0x1, r.n() & 0x1);
            s.unwaitRequest(); // nothing held any more: only the UnwaitAck
            assertEquals(TcpClient.Reply.UNWAIT_ACK, s.read().tag());
            TcpClient.Reply st = c.status();
            assertEquals(TcpClient.Reply.STATUS, st.tag());
            assertEquals(4, st.state(), "established");
            for (TcpClient x : t) {
                x.close();
            }
        }
    }

    @Test
    void aCrashedServerResetsItsClientsAndLaterConnectsAreRefused() throws Exception {
        Path log = dir.resolve("crash.weftlog");
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            c.readRequest(100, false, 30, true); // held: the server has not answered
            bf.sequencer.crashStreams(0, 1_000_000); // the scenario crashes node 0 ...
            TcpClient.Reply r = c.read();
            assertEquals(TcpClient.Reply.ERROR, r.tag());
            assertEquals(104, r.errno(), "ECONNRESET at the client of a crashed server");
            assertEquals(104, c.write(b("more"), 40, true).errno(), "a write after the reset: ECONNRESET");
            t[0].close(); // ... and its process group dies: its sockets end
            t[2].close();
            bf.awaitNoConnectionsBut(1);
            Thread.sleep(3 * SingleHostSequencer.CLOSE_WINDOW_NANOS / 1_000_000);
            TcpClient again = new TcpClient(bf.server.socketPath(), 1);
            assertEquals(111, again.connect(SERVER, 7000, 50, false).errno(), "nothing listens: ECONNREFUSED");
            closeAndFinish(bf, c, again);
        }
        assertTrue(Files.readString(log).contains("{\"k\":\"tcp_reset\",\"sid\":0,\"reason\":\"crash\""));
        BrokerWireTest.replay(log);
    }

    @Test
    void aPartitionStallsAStreamAndTheHealDeliversEveryByteInOrder() throws Exception {
        Path log = dir.resolve("partition.weftlog");
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            bf.sequencer.partitionStreams(100, "0|1");
            assertEquals(6, c.write(b("first "), 200, true).n(), "a write into a cut stream is taken (it stalls)");
            assertEquals(6, c.write(b("second"), 300, true).n(), "and so is the next");
            s.readRequest(100, false, 400, true);
            Thread.sleep(50);
            assertFalse(s.replyWaiting(), "nothing crosses the partition");
            bf.sequencer.partitionStreams(1_000_000, "");
            StringBuilder got = new StringBuilder(s.read().text());
            while (got.length() < 12) {
                got.append(s.read(100, false, 2_000_000, true).text());
            }
            assertEquals("first second", got.toString(), "after the heal: every byte, in order");
            closeAndFinish(bf, t);
        }
        String text = Files.readString(log);
        assertTrue(text.contains("{\"k\":\"tcp_partition\",\"at_ns\":100,\"spec\":\"0|1\"}"), text);
        BrokerWireTest.replay(log);
    }

    @Test
    void tenMegabytesArriveByteExact() throws Exception {
        Path log = dir.resolve("bulk.weftlog");
        byte[] sent = randomBytes(10 << 20, 10);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (BrokerFixture bf = broker(log)) {
            TcpClient[] t = connected(bf);
            TcpClient c = t[1];
            TcpClient s = t[2];
            Thread writer = new Thread(() -> {
                try {
                    int off = 0;
                    long vt = 100;
                    while (off < sent.length) {
                        int n = Math.min(256 * 1024, sent.length - off);
                        TcpClient.Reply w = c.write(Arrays.copyOfRange(sent, off, off + n), vt++, true);
                        off += (int) w.n();
                    }
                    c.shutdown(1);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            writer.start();
            readUntilEof(s, 100, got);
            writer.join();
            closeAndFinish(bf, t);
        }
        assertTrue(Arrays.equals(sent, got.toByteArray()), "10 MiB, byte-exact");
        BrokerWireTest.replay(log);
    }
}
