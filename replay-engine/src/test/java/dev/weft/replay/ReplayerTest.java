package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.log.Event;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.log.WeftLogException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replay per core-and-replay.md §4 on the spec's vectors and on crafted logs that pin each rule. */
class ReplayerTest {

    @TempDir
    Path tmp;

    /** Node 0's and node 1's addresses in the crafted windowed and single-host logs. */
    private static final VAddr A = VAddr.ofNode(0, 9000);
    private static final VAddr B = VAddr.ofNode(1, 9000);

    /** What a crafted log holds after its header. */
    private interface Records {
        void appendTo(LogWriter w) throws IOException;
    }

    /** Writes a crafted log {@code name} in the temporary directory (no meta) and returns its path. */
    private Path log(String name, long seed, String net, long windowNs, Records records) throws IOException {
        Path log = tmp.resolve(name);
        try (LogWriter w = LogWriter.create(log, seed, net, windowNs, LogMeta.EMPTY)) {
            records.appendTo(w);
        }
        return log;
    }

    private static Path vector() throws URISyntaxException {
        return Path.of(ReplayerTest.class.getResource("/vectors/spec-12-seed3.weftlog").toURI());
    }

    @Test
    void specVectorReplaysIdenticalWithTheReferenceDigest() throws Exception {
        ReplayReport r = Replayer.replay(vector(), ReplayOptions.PLAIN);
        assertTrue(r.identical());
        assertEquals(16, r.count());
        assertEquals("d62fd06704cbe952", Fnv1a.hex16(r.digest()));
        assertEquals(r.digest(), r.recordedDigest());
        assertTrue(r.violations().isEmpty());
        assertTrue(r.sawEnd());
    }

    @Test
    void untilStopsAfterTheGivenOp() throws Exception {
        ReplayReport r = Replayer.replay(vector(), new ReplayOptions(5L, List.of()));
        assertEquals(6, r.count());
        assertEquals("16177579d6c6ba85", Fnv1a.hex16(r.digest()));
        assertEquals(16, r.totalRecords(), "R counts the whole file whatever --until says");
    }

    @Test
    void checkAllRaisesTheTwoFifoViolationsWithTheReferenceReportText() throws Exception {
        ReplayReport r = Replayer.replay(vector(),
                new ReplayOptions(null, List.of(PerChannelFifo.NAME, NoDuplicateDelivery.NAME)));
        assertEquals(2, r.violations().size());
        assertEquals(11, r.violations().get(0).op());
        assertEquals(12, r.violations().get(1).op());
        StringBuilder block = new StringBuilder();
        ViolationReport.append(block, r.violations().get(0), r, "sample.weftlog");
        String expected;
        try (InputStream in = getClass().getResourceAsStream("/vectors/spec-12-report-op11.txt")) {
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(expected, block.toString());
        StringBuilder second = new StringBuilder();
        ViolationReport.append(second, r.violations().get(1), r, "sample.weftlog");
        assertTrue(second.toString().contains("event window (op 8..=15):\n"), second.toString());
        assertTrue(second.toString().contains("send order 0 delivered after send order 2"));
    }

    @Test
    void anEditedOutcomeIsADivergenceShowingBothSides() throws Exception {
        Path log = log("edited.weftlog", 3, "latency=uniform:1000-100000", 0, w -> {
            w.append(0, new Event.Connect(0));
            w.append(0, new Event.Bind(0, VAddr.ofNode(0, 100)));
            // The core computes deliv_ns 39327 for this datagram; the recording claims 5.
            w.append(5, new Event.Send(1, VAddr.ofNode(1, 100), VAddr.ofNode(0, 100), 0, 0, "61",
                    new SendOutcome.Enqueued(0, 5, 0)));
        });
        ReplayReport r = assertDivergesAt(2, log);
        assertEquals(3, r.count(), "the divergent record is counted");
        assertTrue(r.divergence().recorded().contains("\"deliv_ns\":5,"));
        assertTrue(r.divergence().replayed().contains("\"deliv_ns\":39327,"));
    }

    @Test
    void badPayloadHexIsAReplayErrorNamingTheOp() throws Exception {
        Path log = log("badhex.weftlog", 1, "", 0, w -> {
            w.append(0, new Event.Connect(0));
            w.append(0, new Event.Send(0, VAddr.ofNode(0, 1), VAddr.ofNode(1, 1), 0, 0, "6", SendOutcome.NO_RECEIVER));
        });
        assertEquals("op 1: payload is not valid hex", replayFailure(ReplayException.class, log));
    }

    @Test
    void aReadErrorLaterInTheFileWinsOverAnEarlierReplayError() throws Exception {
        Path log = log("both.weftlog", 1, "", 0, w -> {
            w.append(0, new Event.Send(0, VAddr.ofNode(0, 1), VAddr.ofNode(1, 1), 0, 0, "zz", SendOutcome.NO_RECEIVER));
            w.append(0, new Event.Connect(7));
        });
        String text = Files.readString(log).replace("\"conn\":7", "\"conn\":8"); // breaks the chain at op 1
        Files.writeString(log, text);
        assertEquals("integrity chain broken at op 1: log truncated or edited",
                replayFailure(WeftLogException.class, log));
    }

    @Test
    void badNetSpecInTheHeaderIsReportedWithTheSpecPrefix() throws Exception {
        Path log = log("badnet.weftlog", 1, "latency=bogus:5", 0, w -> w.append(0, new Event.Connect(0)));
        assertEquals("log header net spec unusable: latency \"bogus:5\": unknown kind \"bogus\"",
                replayFailure(ReplayException.class, log));
    }

    @Test
    void recordedViolationsAreCarriedThroughUnlessChecking() throws Exception {
        Path log = log("viol.weftlog", 1, "", 0, w -> {
            w.append(0, new Event.Connect(0));
            w.append(0, new Event.Violation("per-channel-fifo", "made up"));
        });
        assertTrue(Replayer.replay(log, ReplayOptions.PLAIN).identical());
        ReplayReport checked = Replayer.replay(log, new ReplayOptions(null, List.of(PerChannelFifo.NAME)));
        assertNotNull(checked.divergence(), "a recorded violation no invariant raised must diverge under --check");
        assertTrue(checked.divergence().replayed().contains("(none raised)"));
    }

    /**
     * Windowed recordings (product decision): a non-blocking empty while a datagram is queued is a replay input when
     * some pop horizon explains it, and a divergence when an earlier non-blocking delivery on the same connection
     * proves the horizon was already past the queued datagram.
     */
    @Test
    void windowedEmptyIsAcceptedOnlyWhenSomeHorizonExplainsIt() throws Exception {
        // Both logs start alike: two connections, node 1 bound at B, datagram "01" queued for deliv_ns 6000.
        Records firstQueued = w -> {
            w.append(0, new Event.Connect(0));
            w.append(0, new Event.Connect(1));
            w.append(0, new Event.Bind(1, B));
            w.append(6000, new Event.Send(0, A, B, 0, 5000, "01", new SendOutcome.Enqueued(1, 6000, 0)));
        };
        Path ok = log("windowed-ok.weftlog", 1, "latency=fixed:1000", 1000, w -> {
            firstQueued.appendTo(w);
            w.append(6000, new Event.Recv(1, false, RecvOutcome.EMPTY)); // horizon ≤ 6000: nothing poppable yet
            w.append(6000, new Event.Recv(1, false, new RecvOutcome.Delivered(A, B, 6000, 0, "01")));
        });
        ReplayReport r = Replayer.replay(ok, ReplayOptions.PLAIN);
        assertNull(r.divergence());
        assertEquals(1, r.acceptedWindowedEmpties());

        Path bad = log("windowed-bad.weftlog", 1, "latency=fixed:1000", 1000, w -> {
            firstQueued.appendTo(w);
            w.append(6000, new Event.Send(0, A, B, 1, 2000, "02", new SendOutcome.Enqueued(1, 3000, 1)));
            w.append(6000, new Event.Recv(1, false, new RecvOutcome.Delivered(A, B, 3000, 1, "02")));
            w.append(6000, new Event.Send(0, A, B, 2, 2000, "03", new SendOutcome.Enqueued(1, 3000, 2)));
            // deliv 3000 was popped non-blocking, so the horizon is > 3000: the queued 3000 datagram must be poppable.
            w.append(6000, new Event.Recv(1, false, RecvOutcome.EMPTY));
        });
        assertDivergesAt(7, bad);
    }

    @Test
    void singleHostLogsNeverAcceptARecordedEmptyOverAQueuedDatagram() throws Exception {
        Path log = log("single.weftlog", 1, "latency=fixed:1000", 0, w -> {
            w.append(0, new Event.Connect(1));
            w.append(0, new Event.Bind(1, B));
            w.append(1000, new Event.Send(0, A, B, 0, 0, "01", new SendOutcome.Enqueued(1, 1000, 0)));
            w.append(1000, new Event.Recv(1, false, RecvOutcome.EMPTY));
        });
        assertDivergesAt(3, log);
    }

    /** Replays {@code log} plainly and checks that it first diverges at {@code op}. */
    private static ReplayReport assertDivergesAt(long op, Path log) throws Exception {
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertNotNull(r.divergence());
        assertEquals(op, r.divergence().op());
        return r;
    }

    /** The message of the {@code type} error a plain replay of {@code log} fails with. */
    private static String replayFailure(Class<? extends Exception> type, Path log) {
        return assertThrows(type, () -> Replayer.replay(log, ReplayOptions.PLAIN)).getMessage();
    }

    static Path copyOf(Path src, Path dir) throws IOException {
        Path p = dir.resolve(src.getFileName());
        Files.copy(src, p);
        return p;
    }
}
