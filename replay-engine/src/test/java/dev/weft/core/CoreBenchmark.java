package dev.weft.core;

import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;

/**
 * Prints how long (wall and thread CPU time, the latter meaningful on a busy machine) the core takes for 1M replay-like operations (sends, recvs, some binds) under a few network
 * specs, and what checkpoint copies and snapshots cost. Not a unit test (no timing assertions); run with
 * <pre>
 * mvn -q -o test-compile -pl replay-engine -am
 * java -cp replay-engine/target/classes:replay-engine/target/test-classes:$(ls ~/.m2/repository/com/fasterxml/jackson/core/jackson-databind/*&#47;*.jar | head -1) dev.weft.core.CoreBenchmark
 * </pre>
 * (the classpath needs only replay-engine's own classes).
 */
public final class CoreBenchmark {

    private static final int OPS = 1_000_000;
    private static final int CONNS = 16;

    private CoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        String[] nets = {"latency=uniform:1000-100000", "latency=exp:5000,loss=0.02", "latency=fixed:100,bw=1000000"};
        // Pre-generate the operations so the timing covers only the core.
        SplittableRandom rnd = new SplittableRandom(1);
        int[] kind = new int[OPS];
        int[] a = new int[OPS];
        int[] b = new int[OPS];
        byte[][] payload = new byte[OPS][];
        for (int i = 0; i < OPS; i++) {
            int r = rnd.nextInt(100);
            kind[i] = r < 50 ? 0 : r < 99 ? 1 : 2;
            a[i] = rnd.nextInt(CONNS);
            b[i] = rnd.nextInt(CONNS);
            payload[i] = new byte[8 + rnd.nextInt(64)];
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        VAddr[] addr = new VAddr[CONNS];
        for (int c = 0; c < CONNS; c++) addr[c] = VAddr.ofNode(c, 4000);
        for (String net : nets) {
            for (int rep = 0; rep < 5; rep++) {
                Core core = new Core(FaultModel.of(42, net));
                for (int c = 0; c < CONNS; c++) {
                    core.connect(c);
                    core.bind(c, addr[c]);
                }
                long cpu0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                long sink = 0;
                for (int i = 0; i < OPS; i++) {
                    switch (kind[i]) {
                        case 0 -> sink += core.send(addr[a[i]], addr[b[i]], payload[i], 0).chanSeq();
                        case 1 -> sink += core.recv(a[i]).hashCode();
                        default -> core.bind(a[i], addr[a[i]]);
                    }
                }
                long t1 = System.nanoTime();
                long cpu1 = threads.getCurrentThreadCpuTime();
                Core copy = null;
                for (int k = 0; k < 100; k++) copy = core.copy();
                long t2 = System.nanoTime();
                CoreState state = copy.snapshot();
                long t3 = System.nanoTime();
                System.out.printf("%-30s rep %d: %d ops in %6.1f ms wall, %6.1f ms cpu (%4.0f ns/op cpu); copy %6.1f us; "
                                + "snapshot %5.1f ms (%d pending) [%d]%n", net, rep, OPS, (t1 - t0) / 1e6,
                        (cpu1 - cpu0) / 1e6, (cpu1 - cpu0) / (double) OPS,
                        (t2 - t1) / 100 / 1e3, (t3 - t2) / 1e6, state.pendingCount(), sink & 1);
            }
        }
    }
}
