package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.SpecVector;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker driven by a client written from the wire spec alone; every recording must replay identically. */
class BrokerWireTest {
    @TempDir
    Path dir;

    static List<String> kinds(Path log) throws Exception {
        List<String> out = new ArrayList<>();
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                out.add(rec.event().kind() + (rec.event().connOrNone() >= 0 ? rec.event().connOrNone() : ""));
            }
        }
        return out;
    }

    /** Re-serializes every parsed record with the engine's writer and compares the bytes with the file. */
    static void assertCanonical(Path log) throws Exception {
        java.io.ByteArrayOutputStream again = new java.io.ByteArrayOutputStream();
        try (LogReader r = LogReader.open(log)) {
            var h = r.header();
            dev.weft.log.LogWriter w = dev.weft.log.LogWriter.create(again, false, h.seed(), h.net(), h.windowNs(),
                    h.meta());
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                w.append(rec.vt(), rec.event());
            }
        }
        assertArrayEquals(again.toByteArray(), Files.readAllBytes(log), "the recording is in canonical form");
    }

    static ReplayReport replay(Path log) throws Exception {
        assertCanonical(log);
        ReplayReport rep = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(rep.identical(), () -> "diverged: " + rep.divergence());
        return rep;
    }

    /** weft-log-v2.md §12, header and ops 0–14 (the vector's op 15 is its end record). */
    static final List<String> VECTOR = SpecVector.LINES.subList(0, 16);

    @Test
    void theSpecVectorDrivenOverTheWireIsRecordedByteForByte() throws Exception {
        Path log = dir.resolve("run.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 3, "latency=uniform:1000-100000");
             SpecClient a = b.client()) {
            assertEquals(0, a.ack(SpecClient.hello(0, 0)));
            assertEquals(0, a.ack(SpecClient.bind(SpecClient.ip(0), 100)));
            SpecClient c = b.client();
            assertEquals(0, c.ack(SpecClient.hello(1, 7))); // the host id is not recorded
            assertEquals(0, c.ack(SpecClient.bind(SpecClient.ip(1), 100)));
            // the request's local_vt is ignored: send_vt is always 0 in single-host mode
            assertEquals(39327, c.ack(SpecClient.send(SpecClient.ip(1), 100, SpecClient.ip(0), 100, "a".getBytes(), 5)));
            assertEquals(39327, c.ack(SpecClient.send(SpecClient.ip(1), 100, SpecClient.ip(0), 100, "b".getBytes(), 6)));
            assertEquals(39327, c.ack(SpecClient.send(SpecClient.ip(1), 100, SpecClient.ip(0), 999, "x".getBytes(), 7)));
            assertEquals(39327, c.ack(SpecClient.frontier(8))); // not recorded
            assertEquals(39327, c.ack(SpecClient.send(SpecClient.ip(1), 100, SpecClient.ip(0), 100, "c".getBytes(), 8)));
            for (String expect : List.of("c", "b", "a")) {
                SpecClient.Reply r = a.call(SpecClient.recv(SpecClient.ip(0), 100, false, 9));
                assertEquals(2, r.tag());
                assertEquals(expect, new String(r.payload(), StandardCharsets.US_ASCII));
                assertEquals(SpecClient.ip(1), r.srcIp());
                assertEquals(100, r.srcPort());
                assertEquals(SpecClient.ip(0), r.dstIp());
                assertEquals(100, r.dstPort());
                assertEquals(39327, r.vt()); // single host: the broker high-water mark
            }
            SpecClient.Reply empty = a.call(SpecClient.recv(SpecClient.ip(0), 100, false, 10));
            assertEquals(3, empty.tag());
            assertEquals(39327, empty.vt());
            c.request(SpecClient.goodbye()); // no reply, nothing recorded
            c.close();
            for (int i = 0; i < 200 && !Files.readString(log).contains("{\"k\":\"disconnect\",\"conn\":1}"); i++) {
                Thread.sleep(10); // ends are recorded after a short collecting window
            }
        }
        List<String> lines = Files.readAllLines(log);
        assertEquals(VECTOR, lines.subList(0, VECTOR.size()));
        // still open at the end: disconnected by the broker, then the end record
        assertTrue(lines.get(16).contains("{\"k\":\"disconnect\",\"conn\":0}"));
        assertTrue(lines.get(17).contains("{\"k\":\"end\",\"events\":17,\"sent\":4,\"dropped\":0}"));
        assertEquals(18, lines.size());
        assertTrue(replay(log).sawEnd());
    }

    @Test
    void blockingRecvWaitsForASendAndIsRecordedOnceAsDelivered() throws Exception {
        Path log = dir.resolve("block.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 9, "latency=fixed:500");
             SpecClient rx = b.client(); SpecClient tx = b.client()) {
            rx.ack(SpecClient.hello(0, 0));
            rx.ack(SpecClient.bind(SpecClient.ip(0), 7));
            tx.ack(SpecClient.hello(1, 0));
            CompletableFuture<SpecClient.Reply> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return rx.call(SpecClient.recv(SpecClient.ip(0), 7, true, 1));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            Thread.sleep(100);
            assertTrue(!waiting.isDone(), "a blocking recv on an empty queue must wait");
            assertEquals(500, tx.ack(SpecClient.send(SpecClient.ip(1), 9, SpecClient.ip(0), 7, new byte[] {1, 2}, 3)));
            SpecClient.Reply r = waiting.get(5, TimeUnit.SECONDS);
            assertEquals(2, r.tag());
            assertArrayEquals(new byte[] {1, 2}, r.payload());
            assertEquals(500, r.vt());
            // a second blocking recv: satisfied at once when something is queued already
            tx.ack(SpecClient.send(SpecClient.ip(1), 9, SpecClient.ip(0), 7, new byte[] {3}, 4));
            assertArrayEquals(new byte[] {3}, rx.call(SpecClient.recv(SpecClient.ip(0), 7, true, 5)).payload());
        }
        replay(log);
        List<String> lines = Files.readAllLines(log);
        long blockingRecvs = lines.stream().filter(l -> l.contains("\"k\":\"recv\",\"conn\":0,\"blocking\":true,"
                + "\"outcome\":{\"kind\":\"delivered\"")).count();
        assertEquals(2, blockingRecvs);
        assertEquals(0, lines.stream().filter(l -> l.contains("\"kind\":\"empty\"")).count(),
                "waiting is not recorded");
    }

    @Test
    void killingAWaitingReceiverDisconnectsItAndUnbindsItsAddress() throws Exception {
        Path log = dir.resolve("kill.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 1, "")) {
            SpecClient rx = b.client();
            SpecClient tx = b.client();
            rx.ack(SpecClient.hello(0, 0));
            rx.ack(SpecClient.bind(SpecClient.ip(0), 7));
            rx.request(SpecClient.recv(SpecClient.ip(0), 7, true, 1));
            Thread.sleep(50);
            rx.close(); // the node dies while its receive waits
            for (int i = 0; i < 200 && !Files.readString(log).contains("{\"k\":\"disconnect\",\"conn\":0}"); i++) {
                Thread.sleep(10);
            }
            tx.ack(SpecClient.send(SpecClient.ip(1), 9, SpecClient.ip(0), 7, new byte[] {1}, 3));
            tx.close();
        }
        replay(log);
        String all = Files.readString(log);
        assertTrue(all.contains("{\"k\":\"disconnect\",\"conn\":0}"));
        assertTrue(all.contains("\"outcome\":{\"kind\":\"no_receiver\"}"), "disconnect must unbind");
    }

    @Test
    void connIdsFollowAcceptOrderAcross500ConcurrentConnections() throws Exception {
        Path log = dir.resolve("many.weftlog");
        int n = 500;
        try (BrokerFixture b = new BrokerFixture(dir, log, 5, "latency=uniform:0-1000")) {
            List<SpecClient> clients = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SpecClient c = b.client();
                c.ack(SpecClient.hello(i, 0)); // conn i must be the i-th accepted connection
                c.ack(SpecClient.bind(SpecClient.ip(i % 250), 1000 + i));
                clients.add(c);
            }
            List<CompletableFuture<Void>> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                SpecClient c = clients.get(i);
                int node = i;
                all.add(CompletableFuture.runAsync(() -> {
                    try {
                        c.ack(SpecClient.send(SpecClient.ip(node % 250), 1000 + node, SpecClient.ip((node + 1) % 250),
                                1000 + (node + 1) % n, new byte[] {(byte) node}, 0));
                        c.call(SpecClient.recv(0, 0, true, 0));
                        c.close();
                    } catch (Exception e) {
                        throw new RuntimeException(e);
                    }
                }, java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r);
                    t.setDaemon(true);
                    return t;
                })));
            }
            CompletableFuture.allOf(all.toArray(new CompletableFuture[0])).get(20, TimeUnit.SECONDS);
            b.awaitNoConnectionsBut(0);
        }
        ReplayReport rep = replay(log);
        List<String> lines = Files.readAllLines(log);
        for (int i = 0; i < n; i++) {
            assertTrue(lines.get(1 + 3 * i).contains("{\"k\":\"connect\",\"conn\":" + i + "}"));
            assertTrue(lines.get(2 + 3 * i).contains("{\"k\":\"hello\",\"conn\":" + i + ",\"node\":" + i + "}"),
                    "conn ids follow accept order");
        }
        assertEquals(n * 6 + 1, rep.count()); // connect, hello, bind, send, recv, disconnect per client; end
    }

    @Test
    void connectionsEndingTogetherAreDisconnectedInConnIdOrder() throws Exception {
        Path log = dir.resolve("order.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 1, "")) {
            SingleHostSequencer seq = b.sequencer;
            for (int i = 0; i < 8; i++) {
                seq.connect();
            }
            // a process exit ends them all at once, seen in no particular order; "at once" is within the broker's
            // 10 ms close window, which a loaded machine could stretch between two plain calls here (a second batch):
            // under the ordering lock (reentrant) no flush can come between them
            seq.runOrdered(() -> {
                for (long c = 7; c >= 0; c--) {
                    seq.disconnect(c);
                }
            });
            for (int i = 0; i < 200 && !Files.readString(log).contains("\"conn\":7}"); i++) {
                Thread.sleep(10);
            }
        }
        List<String> kinds = kinds(log);
        assertEquals(List.of("disconnect0", "disconnect1", "disconnect2", "disconnect3", "disconnect4",
                "disconnect5", "disconnect6", "disconnect7", "end"), kinds.subList(8, 17));
    }

    @Test
    void aRunEndingSignalsOnlyTheNodesWhoseProcessesStillRun() throws Exception {
        Path log = dir.resolve("signals.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 1, "");
             SpecClient server = b.client(); SpecClient client = b.client()) {
            server.ack(SpecClient.hello(0, 0));
            client.ack(SpecClient.hello(1, 0));
            // node 1's process has exited, but its connection's end is not read yet (another thread reads it, late
            // on a loaded machine): the run's end must not send it a signal record
            assertEquals(List.of(0L), b.sequencer.finishWithSignals(java.util.Set.of(1L)));
        }
        List<String> signals = Files.readAllLines(log).stream().filter(l -> l.contains("\"k\":\"signal\"")).toList();
        assertEquals(1, signals.size(), signals.toString());
        assertTrue(signals.get(0).contains("\"node\":0,"), signals.get(0));
    }
}
