package dev.weft.broker.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder's file survives the broker's own thread management. */
class LogRecorderTest {
    @TempDir
    Path dir;

    /**
     * A broker thread may carry an interrupt when it drains (the close-window executor is shut down, a connection
     * is ended from outside). With an interruptible file channel that closed the log mid-run and lost every
     * record of the batch, the end record included — the cause of a flaky "missing disconnect" under load.
     */
    @Test
    void aDrainByAnInterruptedThreadStillWritesTheBatch() throws Exception {
        Path log = dir.resolve("int.weftlog");
        List<String> diag = new ArrayList<>();
        LogRecorder rec = LogRecorder.create(log, 1, "", diag::add);
        try {
            rec.record(0, new Event.Connect(0));
            rec.record(0, new Event.Disconnect(0));
            Thread.currentThread().interrupt();
            rec.drain();
            assertTrue(Thread.interrupted(), "the interrupt is left for its owner");
            rec.finish(0, 0, 0);
            rec.drain();
        } finally {
            Thread.interrupted();
            rec.close();
        }
        assertEquals(List.of(), diag);
        assertTrue(rec.healthy());
        try (LogReader r = LogReader.open(log)) {
            assertEquals(3, r.verifyAll());
        }
        assertTrue(Files.readString(log).contains("{\"k\":\"end\""));
    }
}
