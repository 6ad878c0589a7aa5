package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.record.LogRecorder;
import dev.weft.net.FaultModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windowed broker serving TCP (docs/broker.md "TCP"): two nodes exchange a request and an answer over a
 * simulated stream, each node a thread that speaks the wire like the shim (its clock follows every reply's vt).
 * Whichever node reaches the broker first, the recording is the same bytes.
 */
class WindowedTcpTest {
    static final String NET = "latency=uniform:2000-10000";
    static final long W = 1000;

    @TempDir
    Path dir;

    /** The sequencer of the last {@link #run} (its --stats lines). */
    private WindowedSequencer lastSequencer;

    /** A node's clock, moved like the shim's: to at least every reply's vt, plus 1 µs per call. */
    static final class Clock {
        long now;

        long tick() {
            return now += 1000;
        }

        TcpClient.Reply see(TcpClient.Reply r) {
            now = Math.max(now, r.vt());
            return r;
        }
    }

    private static TcpClient.Reply waitFor(TcpClient c, Clock k, int events) throws Exception {
        c.waitRequest(events, k.tick(), 0);
        TcpClient.Reply r = k.see(c.read());
        assertEquals(TcpClient.Reply.READY, r.tag());
        return r;
    }

    private static void server(Path sock, List<String> seen, long delayMs) throws Exception {
        Thread.sleep(delayMs);
        Clock k = new Clock();
        TcpClient l = new TcpClient(sock, 0);
        k.see(l.bind(0, 7000));
        k.see(l.listen(8));
        waitFor(l, k, 0x1);
        TcpClient.Reply acc = k.see(l.accept(k.tick(), false));
        assertEquals(TcpClient.Reply.ACCEPTED, acc.tag());
        TcpClient s = new TcpClient(sock, 0);
        k.see(s.adopt(acc.sid()));
        StringBuilder got = new StringBuilder();
        while (true) {
            waitFor(s, k, 0x1);
            TcpClient.Reply d = k.see(s.read(100, false, k.tick(), false));
            if (d.tag() == TcpClient.Reply.EOF) {
                break;
            }
            got.append(d.text());
            if (got.toString().endsWith("\n")) {
                k.see(s.write(("PONG " + got).getBytes(StandardCharsets.ISO_8859_1), k.tick(), false));
            }
        }
        seen.add("server read " + got.toString().trim());
        s.close();
        l.close();
    }

    private static void client(Path sock, List<String> seen, long delayMs) throws Exception {
        Thread.sleep(delayMs);
        Clock k = new Clock();
        TcpClient c = new TcpClient(sock, 1);
        assertEquals(TcpClient.Reply.ACK, k.see(c.connect(TcpClient.ip(0), 7000, k.tick(), true)).tag());
        waitFor(c, k, 0x4);
        assertEquals(4, k.see(c.status()).state(), "established");
        k.see(c.write("PING\n".getBytes(StandardCharsets.ISO_8859_1), k.tick(), false));
        waitFor(c, k, 0x1);
        TcpClient.Reply d = k.see(c.read(100, false, k.tick(), false));
        seen.add("client read " + d.text().trim());
        k.see(c.shutdown(1));
        waitFor(c, k, 0x1);
        assertEquals(TcpClient.Reply.EOF, k.see(c.read(100, false, k.tick(), false)).tag());
        c.close();
    }

    private byte[] run(String name, long serverDelay, long clientDelay, List<String> seen) throws Exception {
        Path log = dir.resolve(name);
        List<String> discards = Collections.synchronizedList(new ArrayList<>());
        WindowedSequencer seq = new WindowedSequencer(FaultModel.of(4, NET),
                LogRecorder.create(log, 4, NET, W, s -> { }), W, List.of(0L, 1L), 0, discards::add);
        lastSequencer = seq;
        Path sub = Files.createDirectories(dir.resolve(name + ".d"));
        try (BrokerServer server = BrokerServer.start(seq, sub, null, false, s -> { })) {
            CompletableFuture<Void> a = CompletableFuture.runAsync(() -> unchecked(() -> server(server.socketPath(),
                    seen, serverDelay)));
            CompletableFuture<Void> b = CompletableFuture.runAsync(() -> unchecked(() -> client(server.socketPath(),
                    seen, clientDelay)));
            try {
                a.get(20, TimeUnit.SECONDS);
                b.get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                seq.finish();
                throw new AssertionError("stalled; recorded so far:\n" + Files.readString(log) + "\nseen " + seen
                        + "\n" + seq.debugState());
            }
            for (int i = 0; i < 500 && server.liveConnections() > 0; i++) {
                Thread.sleep(10);
            }
            seq.finish();
        }
        assertNull(seq.discardReason(), () -> "discarded: " + discards);
        return Files.readAllBytes(log);
    }

    interface Body {
        void run() throws Exception;
    }

    private static void unchecked(Body b) {
        try {
            b.run();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void oneSeedGivesTheSameBytesWhicheverNodeArrivesFirst() throws Exception {
        List<String> seen1 = Collections.synchronizedList(new ArrayList<>());
        List<String> seen2 = Collections.synchronizedList(new ArrayList<>());
        byte[] first = run("a.weftlog", 0, 150, seen1);
        byte[] second = run("b.weftlog", 150, 0, seen2);
        Collections.sort(seen1);
        Collections.sort(seen2);
        assertEquals(List.of("client read PONG PING", "server read PING"), seen1);
        assertEquals(seen1, seen2);
        String text = new String(first, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"k\":\"tcp_send\""), text);
        assertTrue(text.contains("50494e470a"), "PING's bytes are in the recording");
        assertArrayEquals(first, second, () -> "the two recordings differ:\n" + text + "\n----\n"
                + new String(second, StandardCharsets.UTF_8));
        BrokerWireTest.replay(dir.resolve("a.weftlog"));
    }

    /**
     * --stats counts the TCP requests by kind, each a round trip (docs/broker.md): where a windowed TCP run's time
     * goes (the Redis failover study's 131,000 round trips, 85 % set-aside waits and take-backs).
     */
    @Test
    void statsCountTheTcpRequestsByKind() throws Exception {
        run("stats.weftlog", 0, 0, Collections.synchronizedList(new ArrayList<>()));
        String line = lastSequencer.statsLines().stream().filter(l -> l.contains("tcp requests by kind")).findFirst()
                .orElseThrow(() -> new AssertionError(lastSequencer.statsLines().toString()));
        assertEquals("weft broker: tcp requests by kind (one round trip each): TcpAccept=1 TcpAdopt=1 TcpBind=1 "
                + "TcpConnect=1 TcpListen=1 TcpRead=4 TcpShutdown=1 TcpStatus=1 TcpWait(idle)=6 TcpWrite=2", line);
    }

    /**
     * A run that ends once nodes 0 and 1 have exited ({@code --end-when-exited 0,1}): node 0 closes its sockets and
     * exits while node 1 waits to read the FIN. Node 0 held the frontier at its clock until its exit was reported,
     * so its closes were not applied yet; its exit (not the last listed one) must let them through, or node 1
     * waits forever (nc -l and nc -N windowed: the run hung after the transfer).
     */
    @Test
    void anExitedListedNodesClosesReachAPeerWaitingForTheFin() throws Exception {
        Path log = dir.resolve("exit.weftlog");
        List<String> discards = Collections.synchronizedList(new ArrayList<>());
        WindowedSequencer seq = new WindowedSequencer(FaultModel.of(4, NET),
                LogRecorder.create(log, 4, NET, W, s -> { }), W, List.of(0L, 1L), 0, discards::add);
        seq.endWhenExited(List.of(0L, 1L));
        Path sub = Files.createDirectories(dir.resolve("exit.d"));
        try (BrokerServer server = BrokerServer.start(seq, sub, null, false, s -> { })) {
            CompletableFuture<Void> node0 = CompletableFuture.runAsync(() -> unchecked(() -> {
                Clock k = new Clock();
                TcpClient l = new TcpClient(server.socketPath(), 0);
                k.see(l.bind(0, 7000));
                k.see(l.listen(8));
                waitFor(l, k, 0x1);
                TcpClient.Reply acc = k.see(l.accept(k.tick(), false));
                TcpClient s = new TcpClient(server.socketPath(), 0);
                k.see(s.adopt(acc.sid()));
                s.close();
                l.close();
            }));
            CompletableFuture<TcpClient.Reply> node1 = CompletableFuture.supplyAsync(() -> {
                try {
                    Clock k = new Clock();
                    TcpClient c = new TcpClient(server.socketPath(), 1);
                    k.see(c.connect(TcpClient.ip(0), 7000, k.tick(), true));
                    waitFor(c, k, 0x4);
                    waitFor(c, k, 0x1); // the FIN
                    return k.see(c.read(100, false, k.tick(), false));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            node0.get(20, TimeUnit.SECONDS);
            for (int i = 0; i < 500 && server.liveConnections() > 1; i++) {
                Thread.sleep(10); // until the broker has seen node 0's connections end (its closes are pending)
            }
            seq.nodeExited(0);
            TcpClient.Reply r;
            try {
                r = node1.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("node 1 still waits for the FIN:\n" + seq.debugState());
            }
            assertEquals(TcpClient.Reply.EOF, r.tag(), "node 1 reads the FIN");
            seq.finish();
        }
        assertNull(seq.discardReason(), () -> "discarded: " + discards);
        assertTrue(Files.readString(log).contains("\"k\":\"tcp_close\""), "node 0's closes are recorded");
    }

    private static java.nio.ByteBuffer closeMessage(long vt) {
        return java.nio.ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN).put((byte) 29).putLong(vt);
    }

    /**
     * protocol-v3 §2a: a wait without the flag IDLE is set aside (Ack at once) and does not bound its node, so the
     * node may act before the wait's instant — here node 0, whose set-aside wait on its listener has a deadline of 1 s,
     * connects at 50 ms after node 1's connect at 100 ms reached the broker — and its operation is recorded in key
     * order, not refused as late. TcpClose puts a close at the node's clock.
     */
    @Test
    @org.junit.jupiter.api.Timeout(60)
    void aSetAsideWaitDoesNotBoundItsNode() throws Exception {
        Path log = dir.resolve("aside.weftlog");
        List<String> discards = Collections.synchronizedList(new ArrayList<>());
        WindowedSequencer seq = new WindowedSequencer(FaultModel.of(4, NET),
                LogRecorder.create(log, 4, NET, W, s -> { }), W, List.of(0L, 1L), 0, discards::add);
        Path sub = Files.createDirectories(dir.resolve("aside.d"));
        try (BrokerServer server = BrokerServer.start(seq, sub, null, false, s -> { })) {
            TcpClient l = new TcpClient(server.socketPath(), 0);
            l.bind(0, 7000);
            l.listen(8);
            l.waitRequest(0x1, 3000, 1_000_000_000L, 0);
            TcpClient c1 = new TcpClient(server.socketPath(), 1);
            c1.connectRequest(TcpClient.ip(0), 7000, 100_000_000L, true); // node 1 is at 100 ms from now on
            assertEquals(TcpClient.Reply.ACK, l.read().tag(), "a set-aside wait is acknowledged (once applied)");
            Thread.sleep(300); // node 1's connect is at the broker before node 0's
            TcpClient c0 = new TcpClient(server.socketPath(), 0);
            c0.connectRequest(TcpClient.ip(1), 7001, 50_000_000L, true);
            assertEquals(TcpClient.Reply.ACK, c0.read().tag());
            assertEquals(TcpClient.Reply.ACK, c0.tcpClose(60_000_000L).tag());
            l.unwaitRequest();
            assertEquals(TcpClient.Reply.READY, l.read().tag());
            assertEquals(TcpClient.Reply.UNWAIT_ACK, l.read().tag());
            l.send(closeMessage(200_000_000L)); // applied once node 1 is past 200 ms or gone
            assertEquals(TcpClient.Reply.ACK, c1.read().tag());
            assertEquals(TcpClient.Reply.ACK, c1.tcpClose(150_000_000L).tag());
            c1.close();
            assertEquals(TcpClient.Reply.ACK, l.read().tag());
            c0.close();
            l.close();
            for (int i = 0; i < 500 && server.liveConnections() > 0; i++) {
                Thread.sleep(10);
            }
            seq.finish();
        }
        assertNull(seq.discardReason(), () -> "discarded: " + discards);
        String text = Files.readString(log);
        int early = text.indexOf("\"send_vt\":50000000");
        int late = text.indexOf("\"send_vt\":100000000");
        assertTrue(early > 0 && late > early, () -> "node 0's connect at 50 ms comes before node 1's at 100 ms:\n" + text);
        int close0 = text.indexOf("\"k\":\"tcp_close\"");
        assertTrue(close0 > early && close0 < late, () -> "node 0's TcpClose at 60 ms is applied in key order:\n" + text);
        BrokerWireTest.replay(log);
    }
}
