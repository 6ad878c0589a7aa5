package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.record.LogRecorder;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What --stats counts is exactly what the log records (one place does both, for either sequencer). */
class RecordingCoreTest {
    @TempDir
    Path dir;

    @Test
    void everyRecordedOperationIsCountedOnceByKind() throws Exception {
        Path log = dir.resolve("ops.weftlog");
        LogRecorder rec = LogRecorder.create(log, 3, "", System.err::println);
        RecordingCore ops = new RecordingCore(FaultModel.of(3, ""), rec);
        VAddr a = new VAddr(0x7F000001L, 1);
        VAddr b = new VAddr(0x7F000002L, 2);
        ops.connect(0);
        ops.hello(0, 0);
        ops.bind(0, a);
        ops.connect(1);
        ops.send(1, b, a, new byte[] {1}, 0); // enqueued for conn 0
        ops.send(1, b, new VAddr(0x7F000009L, 9), new byte[] {2}, 0); // nobody bound there
        ops.deliver(0, true);
        ops.empty(0);
        ops.disconnect(1);
        ops.disconnect(0);
        ops.finish();
        rec.close();
        List<String> lines = ops.stats().lines();
        assertEquals("[weft] broker: 10 recorded op(s): 2 connect, 1 hello, 1 bind, 2 send, 2 recv (1 delivered,"
                + " 1 empty), 2 disconnect", lines.get(0));
        assertTrue(lines.get(1).startsWith("[weft] broker: datagrams: 2 sent, 0 dropped by the fault model, 1 with no"
                + " receiver;"), lines.get(1));
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(r.identical());
        assertEquals(11, r.count(), "10 operations and the end record");
        assertEquals(12, Files.readAllLines(log).size(), "the header, 10 operations, end");
    }
}
