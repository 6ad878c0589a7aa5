package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.check.Violation;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.net.NetSpec;
import dev.weft.text.Hex;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reproducer files read back through the log reader (header, dense ops, integrity chain) and re-executed
 * from the recorded inputs: every recorded outcome, vt, violation and the end totals must be what the core
 * and the invariants produce again, which is what {@code weft replay --check} verifies.
 */
class ReproducerTest {

    @TempDir
    Path dir;

    @Test
    void recordedShrinksReadBackAndReExecuteIdentically() throws Exception {
        SplittableRandom rnd = new SplittableRandom(5);
        int files = 0;
        for (int c = 0; c < 12; c++) {
            String net = rnd.nextBoolean() ? "latency=uniform:0-8000,loss=0.02" : "latency=exp:3000,loss=0.05";
            List<String> inv = List.of("fifo", "dup");
            List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 30 + rnd.nextInt(30), 4, rnd.nextLong()));
            long seed = rnd.nextLong() >>> 1;
            NetSpec spec = NetSpec.parse(net);
            for (ViolationKey key : Sweep.firstMessages(Executor.execute(seed, spec, ops, inv).violations()).keySet()) {
                ShrinkResult r = new Shrinker(seed, spec, inv, key, false).shrink(ops);
                boolean gz = files % 2 == 1;
                Path file = dir.resolve(ReproducerName.fileName(seed, key) + (gz ? ".gz" : ""));
                String label = ReproducerName.label(key, seed, r);
                Reproducer.record(file, seed, net, r.ops(), inv, label);
                verify(file, seed, net, label, r.ops(), inv, gz);
                files++;
            }
            // unshrunk workloads too (the --no-shrink reproducers), once per case
            Path whole = dir.resolve("whole-" + c + ".weftlog");
            Reproducer.record(whole, seed, net, ops, inv, "whole");
            verify(whole, seed, net, "whole", ops, inv, false);
        }
        assertTrue(files > 10, "files written: " + files);
    }

    private static void verify(Path file, long seed, String net, String label, List<Op> ops, List<String> inv, boolean gz)
            throws Exception {
        try (LogReader reader = LogReader.open(file)) {
            assertEquals(gz, reader.isGzip());
            assertEquals(seed, reader.header().seed());
            assertEquals(net, reader.header().net());
            assertEquals(0, reader.header().windowNs());
            assertEquals(label, reader.header().meta().label());
            List<LogRecord> records = new ArrayList<>();
            for (LogRecord rec = reader.next(); rec != null; rec = reader.next()) records.add(rec);
            assertTrue(reader.sawEnd());

            // Inputs as a replayer sees them: everything but violation and end records.
            List<Op> inputs = new ArrayList<>();
            for (LogRecord rec : records) {
                Op op = inputOf(rec.event());
                if (op != null) inputs.add(op);
            }
            assertEquals(ops, inputs);

            List<Object[]> expected = new ArrayList<>();
            Executor.Execution run = Executor.execute(seed, NetSpec.parse(net), inputs, inv, (i, vt, e, raised) -> {
                expected.add(new Object[] {vt, e});
                for (Violation v : raised) expected.add(new Object[] {vt, new Event.Violation(v.invariant(), v.message())});
            });
            expected.add(new Object[] {run.finalVt(), new Event.End(expected.size() + 1, run.sent(), run.dropped())});
            assertEquals(expected.size(), records.size());
            for (int i = 0; i < records.size(); i++) {
                assertEquals(i, records.get(i).op());
                assertEquals(expected.get(i)[0], records.get(i).vt(), "vt of op " + i);
                assertEquals(expected.get(i)[1], records.get(i).event(), "event of op " + i);
            }
            assertNull(reader.next());
        }
        assertTrue(Files.size(file) > 0);
    }

    private static Op inputOf(Event e) {
        if (e instanceof Event.Connect c) return new Op.Connect(c.conn());
        if (e instanceof Event.Hello h) return new Op.Hello(h.conn(), h.node());
        if (e instanceof Event.Bind b) return new Op.Bind(b.conn(), b.addr());
        if (e instanceof Event.Send s) return new Op.Send(s.conn(), s.src(), s.dst(), Hex.decode(s.payload()));
        if (e instanceof Event.Recv r) return new Op.Recv(r.conn(), r.blocking());
        if (e instanceof Event.Disconnect d) return new Op.Disconnect(d.conn());
        return null;
    }
}
