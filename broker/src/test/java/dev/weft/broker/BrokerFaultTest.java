package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.record.FullDisk;
import dev.weft.broker.record.LogRecorder;
import dev.weft.log.LogReader;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad peers and a failing disk: the broker ends only the offending connection, keeps serving, keeps the log. */
class BrokerFaultTest {
    @TempDir
    Path dir;

    /** A healthy exchange on a fresh connection: proof that the broker still serves others. */
    static void stillServes(BrokerFixture b, int node) throws IOException {
        try (SpecClient c = b.client()) {
            c.ack(SpecClient.hello(node, 0));
            c.ack(SpecClient.bind(SpecClient.ip(node), 5));
            c.ack(SpecClient.send(SpecClient.ip(node), 5, SpecClient.ip(node), 5, new byte[] {9}, 0));
            assertEquals(2, c.call(SpecClient.recv(SpecClient.ip(node), 5, false, 0)).tag());
        }
    }

    private void badPeerClosesOnlyItsConnection(byte[] raw, String expectedMessage) throws Exception {
        Path log = dir.resolve("bad.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 1, "")) {
            SpecClient good = b.client();
            good.ack(SpecClient.hello(1, 0));
            SpecClient bad = b.client();
            bad.ack(SpecClient.hello(4, 0));
            bad.write(raw);
            assertTrue(bad.closedByBroker(), "the broker must close the offending connection");
            b.awaitNoConnectionsBut(1);
            assertEquals(1, good.ack(SpecClient.bind(SpecClient.ip(1), 1)) + 1);
            stillServes(b, 2);
            good.close();
            b.awaitNoConnectionsBut(0);
            List<String> diag = List.copyOf(b.diagnostics);
            assertEquals(1, diag.size(), diag::toString);
            assertTrue(diag.get(0).startsWith("weft broker: node 4 (conn 1): "), diag.get(0));
            assertTrue(diag.get(0).contains(expectedMessage), diag.get(0));
        }
        assertTrue(Files.readString(log).contains("{\"k\":\"disconnect\",\"conn\":1}"));
        assertTrue(Replayer.replay(log, ReplayOptions.PLAIN).identical());
    }

    @Test
    void unknownTag() throws Exception {
        badPeerClosesOnlyItsConnection(SpecClient.frame(new byte[] {9, 0, 0}), "unknown message tag 9");
    }

    @Test
    void messageTooShortForItsFields() throws Exception {
        badPeerClosesOnlyItsConnection(SpecClient.frame(new byte[] {2, 1, 0, 0}), "Bind message too short");
    }

    @Test
    void payloadLengthBeyondTheFrame() throws Exception {
        byte[] send = SpecClient.send(1, 1, 2, 2, new byte[4], 0);
        send[13] = 100; // payload length 100 in a frame that holds 4
        badPeerClosesOnlyItsConnection(SpecClient.frame(send), "payload length 100 exceeds the frame");
    }

    @Test
    void emptyFrame() throws Exception {
        badPeerClosesOnlyItsConnection(new byte[] {0, 0, 0, 0}, "empty message");
    }

    @Test
    void oversizedLengthPrefixIsRejectedBeforeAnythingIsAllocated() throws Exception {
        // 0xFFFFFFFF: a reader that allocated first would throw OutOfMemoryError in a 2 GB heap, or wait for 4 GB
        badPeerClosesOnlyItsConnection(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff},
                "frame length 4294967295 exceeds the 16 MiB limit");
    }

    @Test
    void justOverTheLimit() throws Exception {
        badPeerClosesOnlyItsConnection(new byte[] {1, 0, 0, 1}, "frame length 16777217 exceeds");
    }

    @Test
    void peerKilledMidFrameIsDisconnectedWithAMessage() throws Exception {
        Path log = dir.resolve("mid.weftlog");
        try (BrokerFixture b = new BrokerFixture(dir, log, 1, "")) {
            SpecClient c = b.client();
            c.ack(SpecClient.hello(3, 0));
            byte[] frame = SpecClient.frame(SpecClient.send(1, 1, 2, 2, new byte[100], 0));
            c.write(java.util.Arrays.copyOf(frame, 40)); // then the process dies
            c.close();
            b.awaitNoConnectionsBut(0);
            stillServes(b, 1);
            assertTrue(b.diagnostics.get(0).contains("node 3 (conn 0): connection closed in the middle of a frame"));
        }
        assertTrue(Files.readString(log).contains("{\"k\":\"disconnect\",\"conn\":0}"));
        assertTrue(Replayer.replay(log, ReplayOptions.PLAIN).identical());
    }

    @Test
    void aPeerThatNeverReadsStallsOnlyItself() throws Exception {
        try (BrokerFixture b = new BrokerFixture(dir, (Path) null, 1, "")) {
            SpecClient flood = b.client();
            flood.ack(SpecClient.hello(7, 0));
            // pipeline far more requests than the socket buffers hold and never read a reply
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                byte[] one = SpecClient.frame(SpecClient.frontier(1));
                byte[] many = new byte[one.length * 4096];
                for (int i = 0; i < 4096; i++) {
                    System.arraycopy(one, 0, many, i * one.length, one.length);
                }
                try {
                    for (int i = 0; i < 64; i++) {
                        flood.write(many);
                    }
                } catch (IOException e) {
                    // closed at the end of the test
                }
            });
            // Kept on purpose: "stuck" is the absence of progress, so it can only be shown by time passing while the
            // writer, with far more frames than the socket buffers hold, does not finish
            Thread.sleep(300);
            assertFalse(writer.isDone(), "the flood must be stuck on full buffers");
            for (int i = 0; i < 20; i++) {
                stillServes(b, i);
            }
            flood.close();
        }
    }

    @Test
    void socketDirectoryIsPrivateAndThereIsNoTcpUnlessAsked() throws Exception {
        try (BrokerFixture b = new BrokerFixture(dir, (Path) null, 1, "")) {
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(b.server.directory())));
            assertNull(b.server.tcpAddress());
        }
        try (BrokerFixture b = new BrokerFixture(dir, null, 1, "", true)) {
            assertTrue(b.server.tcpAddress().getAddress().isLoopbackAddress());
            // the same protocol over TCP
            try (java.net.Socket s = new java.net.Socket(b.server.tcpAddress().getAddress(), b.server.tcpAddress().getPort())) {
                s.setTcpNoDelay(true);
                s.getOutputStream().write(SpecClient.frame(SpecClient.hello(2, 1)));
                byte[] reply = s.getInputStream().readNBytes(13);
                assertEquals(9, reply[0]);
                assertEquals(1, reply[4], "Ack");
            }
        }
    }

    @Test
    void aPeerOfAnotherUserIsRefused() throws Exception {
        Path d = Files.createDirectory(dir.resolve("owned"));
        var nobody = d.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        var me = Files.getOwner(d);
        try (BrokerFixture b = new BrokerFixture(dir, (Path) null, 1, "");
             SpecClient c = b.client()) {
            assertNull(new PeerCheck(d).refusal(c.channel), "same user must pass");
            if (!me.equals(nobody)) {
                Files.setOwner(d, nobody); // possible when the tests run as root; otherwise skip this half
                String refusal = new PeerCheck(d).refusal(c.channel);
                assertTrue(refusal != null && refusal.contains("not nobody"), String.valueOf(refusal));
            }
        } catch (IOException e) {
            // setOwner not permitted (tests not run as root): the same-user half above still ran
        }
    }

    private void diskFills(String name) throws Exception {
        Path log = dir.resolve(name);
        List<String> diag = new ArrayList<>();
        LogRecorder rec = LogRecorder.create(log, new FullDisk(log, name.endsWith(".gz") ? 600 : 1500), 1, "",
                diag::add);
        try (BrokerFixture b = new BrokerFixture(dir, rec, 1, "", false)) {
            for (int i = 0; i < 30; i++) {
                stillServes(b, i); // serving goes on after the disk is full
            }
            b.awaitNoConnectionsBut(0);
        }
        assertEquals(1, diag.size(), diag::toString);
        assertTrue(diag.get(0).matches("weft: recording stopped: .*: No space left on device; it keeps the first \\d+"
                + " record\\(s\\), a chain-valid prefix \\(verify: weft replay .*\\)"), diag.get(0));
        long kept = Long.parseLong(diag.get(0).replaceAll(".*first (\\d+) record.*", "$1"));
        assertTrue(kept > 3, "some records were written before the disk filled");
        try (LogReader r = LogReader.open(log)) {
            assertEquals(kept, r.verifyAll(), "the file is exactly the chain-valid prefix");
        }
        ReplayReport rep = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(rep.identical());
        assertFalse(rep.sawEnd());
    }

    @Test
    void aFullDiskLeavesAChainValidPrefix() throws Exception {
        diskFills("full.weftlog");
    }

    @Test
    void aFullDiskLeavesAReadableGzipMember() throws Exception {
        diskFills("full.weftlog.gz");
    }
}
