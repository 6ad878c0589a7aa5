package dev.weft.core;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.net.FaultModel;
import dev.weft.text.Hex;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Core-only cost of replaying the corpus's 999,914-record log: the records are read and decoded first, then
 * only the core operations are timed (wall and thread CPU time). Also counts outcomes that differ from the
 * recording (must be 0). Not a unit test; run after {@code mvn -q -o test-compile -pl replay-engine -am} with
 * <pre>
 * java -cp replay-engine/target/classes:replay-engine/target/test-classes:&lt;jackson jars&gt; \
 *      dev.weft.core.CoreLargeLogBenchmark [path-to-log]
 * </pre>
 * Default log: the reference corpus' large/bigflow-1m-fixed1000-s7.weftlog.gz, found where the tests find it
 * ({@code -Dweft.shared.dir}, docs/benchmarks.md).
 */
public final class CoreLargeLogBenchmark {

    private CoreLargeLogBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path log = args.length > 0 ? Path.of(args[0])
                : dev.weft.testcorpus.SharedCorpus.conformance().resolve("large/bigflow-1m-fixed1000-s7.weftlog.gz");
        List<Event> events = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        FaultModel fault;
        try (LogReader reader = LogReader.open(log)) {
            fault = FaultModel.of(reader.header().seed(), reader.header().net());
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                events.add(r.event());
                payloads.add(r.event() instanceof Event.Send s ? Hex.decode(s.payload()) : null);
            }
        }
        System.out.printf("%s: %d records, net %s%n", log.getFileName(), events.size(), fault.spec());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int rep = 0; rep < 5; rep++) {
            Core core = new Core(fault);
            long mismatches = 0;
            long cpu0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                if (e instanceof Event.Send s) {
                    Core.SendResult res = core.send(s.src(), s.dst(), payloads.get(i), s.sendVt());
                    SendOutcome rec = s.outcome();
                    if (res.chanSeq() != s.chanSeq() || !res.outcome().equals(rec)) mismatches++;
                } else if (e instanceof Event.Recv r) {
                    RecvOutcome out = core.recv(r.conn());
                    if (!out.equals(r.outcome())) mismatches++;
                } else if (e instanceof Event.Connect c) {
                    core.connect(c.conn());
                } else if (e instanceof Event.Bind b) {
                    core.bind(b.conn(), b.addr());
                } else if (e instanceof Event.Disconnect d) {
                    core.disconnect(d.conn());
                }
            }
            long t1 = System.nanoTime();
            long cpu1 = threads.getCurrentThreadCpuTime();
            System.out.printf("rep %d: core %.1f ms wall, %.1f ms cpu (%.0f ns/record cpu), %d mismatches, "
                            + "sent %d dropped %d vt %s%n", rep, (t1 - t0) / 1e6, (cpu1 - cpu0) / 1e6,
                    (cpu1 - cpu0) / (double) events.size(), mismatches, core.sent(), core.dropped(),
                    Long.toUnsignedString(core.vt()));
        }
    }
}
