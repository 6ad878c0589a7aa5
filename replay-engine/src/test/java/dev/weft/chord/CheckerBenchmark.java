package dev.weft.chord;

import dev.weft.log.LogRecord;
import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftTimeline;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Prints how long the checkers and timelines take on the corpus logs (records already in memory, so
 * reading is not counted), and the cost of a timeline query. Run after test-compile with
 * {@code java -cp replay-engine/target/classes:replay-engine/target/test-classes:<jackson jars> dev.weft.chord.CheckerBenchmark}.
 */
public final class CheckerBenchmark {

    private CheckerBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        for (Path log : CorpusLogs.withChecker("chord_check")) {
            List<LogRecord> rs = CorpusLogs.records(log);
            double check = best(() -> ChordCheck.check(rs, 6));
            double trace = best(() -> ChordTrace.trace(rs, "x", TestRecords.header(0, "")));
            ChordTimeline[] t = new ChordTimeline[1];
            double timeline = best(() -> t[0] = ChordTimeline.build(rs, 6));
            double query = queryNs(t[0], rs.size());
            System.out.printf("%-48s %6d records  check %7.2f ms  trace %7.2f ms  timeline %7.2f ms  nodeAt %5.0f ns%n",
                    CorpusLogs.conformance().relativize(log), rs.size(), check, trace, timeline, query);
        }
        for (Path log : CorpusLogs.withChecker("raft_check")) {
            List<LogRecord> rs = CorpusLogs.records(log);
            double check = best(() -> RaftCheck.check(rs));
            double timeline = best(() -> RaftTimeline.build(rs));
            System.out.printf("%-48s %6d records  check %7.2f ms  timeline %7.2f ms%n",
                    CorpusLogs.conformance().relativize(log), rs.size(), check, timeline);
        }
    }

    /** Best of 20 runs, in ms (the first runs warm the JIT). */
    private static double best(Runnable r) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 20; i++) {
            long t0 = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t0) / 1e6);
        }
        return best;
    }

    /** Average ns of one nodeAt query at a random op for a random ident. */
    private static double queryNs(ChordTimeline t, int records) {
        Integer[] idents = t.idents().toArray(Integer[]::new);
        SplittableRandom rnd = new SplittableRandom(1);
        int n = 1_000_000;
        long sink = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            ChordReport r = t.nodeAt(idents[rnd.nextInt(idents.length)], rnd.nextInt(records));
            if (r != null) sink += r.succ();
        }
        double ns = (System.nanoTime() - t0) / (double) n;
        if (sink == 42) System.out.print("");
        return ns;
    }
}
