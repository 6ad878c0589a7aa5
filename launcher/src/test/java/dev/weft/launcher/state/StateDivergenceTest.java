package dev.weft.launcher.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.testsupport.CapturedRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 defect 7: {@code weft state LOG --at N} on a log that diverged at op 1. The state after an op at or past
 * the first bad op is the replayer's, not the recorded run's: an error (exit 1), not a note with exit 0.
 */
class StateDivergenceTest {

    @TempDir
    Path dir;

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    /** A well-chained log whose op 1 records a delivery time the core does not compute: replay diverges at op 1. */
    private Path divergedAtOp1() throws Exception {
        Path log = dir.resolve("diverged.weftlog");
        VAddr a = VAddr.ofNode(0, 100);
        VAddr b = VAddr.ofNode(1, 100);
        try (LogWriter w = LogWriter.create(log, 0, "", 0, LogMeta.EMPTY)) {
            w.append(0, new Event.Connect(0));
            w.append(0, new Event.Send(0, a, b, 0, 0, "61", new SendOutcome.Enqueued(0, 12345, 0)));
            for (int i = 0; i < 6; i++) w.append(0, new Event.Connect(i + 1));
        }
        return log;
    }

    @Test
    void anOpPastTheDivergenceIsAnErrorNotANote() throws Exception {
        CapturedRun r = weft("state", divergedAtOp1().toString(), "--at", "5");
        assertEquals(1, r.code(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().contains("no trustworthy state after op 5: replay diverged at op 1; states are known up to op 0\n"),
                r.err());
    }

    @Test
    void theDivergingOpItselfHasNoTrustworthyState() throws Exception {
        CapturedRun r = weft("state", divergedAtOp1().toString(), "--at", "1");
        assertEquals(1, r.code(), r.err());
    }

    @Test
    void anOpBeforeTheDivergenceIsAnsweredWithTheNote() throws Exception {
        CapturedRun r = weft("state", divergedAtOp1().toString(), "--at", "0");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("state after op 0: "), r.out());
        assertTrue(r.err().contains("note: replay diverged at op 1 (DIVERGED); states are known up to op 0"), r.err());
    }
}
