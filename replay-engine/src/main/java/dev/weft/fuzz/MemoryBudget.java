package dev.weft.fuzz;

/**
 * How much heap a fuzz run needs, computed from its workload before anything runs, and how many jobs fit.
 *
 * <p>Shared by all jobs: the generated ops (every send's payload array, the op objects and the list slots).
 * Per job, i.e. per execution in flight (a sweep worker, a shrink candidate or a reproducer being recorded):
 * the core's queues in the worst case where every datagram is still pending (each holds a copy of its payload),
 * the invariants' per-datagram state, the sweep's per-tie scratch, and the shrinker's candidate op lists. The
 * figures are upper bounds with JVM object overheads; a run whose bounds do not fit the heap (less a reserve
 * for the collector) is refused with one line naming the figures, and a run that fits only with fewer jobs runs
 * with fewer. The result of a fuzz run does not depend on its job count (fuzz.md §5 as Sweep implements it).
 */
public final class MemoryBudget {

    /** Bytes the collector and everything else in the JVM keep besides the run: 64 MiB plus an eighth of the heap. */
    static long reserve(long heapBytes) {
        return (64L << 20) + heapBytes / 8;
    }

    /** The estimate and the job count that fits. */
    public record Plan(double sharedBytes, double perJobBytes, long heapBytes, int threads, int requestedThreads) {

        /** True if fewer jobs than requested run because more would not fit. */
        public boolean reduced() {
            return threads < requestedThreads;
        }
    }

    private MemoryBudget() {
    }

    /** Upper bound of the generated op count: 3 per node, each send and at most one poll per send, the tail polls. */
    static double maxOps(WorkloadSpec w) {
        double n = Math.max(unsigned(w.nodes()), 2);
        double sends = unsigned(w.sends());
        return 3 * n + 2 * sends + n * sends;
    }

    /** Bytes held by the generated ops (fuzz.md §3 as WorkloadGenerator builds them). */
    static double sharedBytes(WorkloadSpec w) {
        double sends = unsigned(w.sends());
        double payloadArray = 16 + align8(Math.max(unsigned(w.payloadLen()), 1));
        double sendOp = 32 + payloadArray;   // Op.Send record + its payload
        double pollOp = 24;                   // a poll after a send (the tail polls share one instance per node)
        double slot = 12;                     // an ArrayList slot, with the list's growth slack
        return maxOps(w) * slot + sends * (sendOp + pollOp);
    }

    /** Bytes one execution in flight may hold at its peak. */
    static double perJobBytes(WorkloadSpec w) {
        double sends = unsigned(w.sends());
        double payloadCopy = 16 + align8(Math.max(unsigned(w.payloadLen()), 1));
        double pending = payloadCopy + 56;   // the core's copy plus its queue entry (parallel arrays, doubled on growth)
        double invariantState = 80;          // per delivered datagram: duplicate detection's set entry
        double sweepScratch = 17;            // SweepExecutor's per-tie arrays
        double candidateLists = maxOps(w) * 20; // the shrinker's current list, one candidate and removable positions
        double nodes = Math.max(unsigned(w.nodes()), 2);
        double channels = Math.min(sends, nodes * nodes) * 200;
        return sends * (pending + invariantState + sweepScratch) + candidateLists + channels + (1 << 20);
    }

    /**
     * The plan for a validated config on a heap of {@code heapBytes} ({@code Runtime.maxMemory()} in a real run).
     * The exception text follows {@code weft fuzz: } and names the config as {@code shownPath}.
     */
    public static Plan plan(FuzzConfig c, String shownPath, long heapBytes) throws FuzzConfigException {
        WorkloadSpec w = c.workload();
        double shared = sharedBytes(w);
        double perJob = perJobBytes(w);
        double usable = heapBytes - reserve(heapBytes);
        int requested = FuzzRun.threads(c.jobs());
        double fit = Math.floor((usable - shared) / perJob);
        if (!(fit >= 1)) {
            throw new FuzzConfigException("config " + shownPath + ": the workload (" + Long.toUnsignedString(w.nodes())
                    + " node(s), " + Long.toUnsignedString(w.sends()) + " send(s) of " + Long.toUnsignedString(w.payloadLen())
                    + " byte(s)) needs up to " + mib(shared + perJob) + " MiB of heap (" + mib(shared) + " MiB of ops + "
                    + mib(perJob) + " MiB per job) but " + mib(Math.max(usable, 0)) + " MiB are available; "
                    + "lower workload.sends or workload.payload_len, or give the JVM more heap (-Xmx)");
        }
        int threads = (int) Math.min(requested, fit);
        return new Plan(shared, perJob, heapBytes, threads, requested);
    }

    /** Whole mebibytes, rounded up (a figure of 0 for a non-empty need would read as "nothing"). */
    public static String mib(double bytes) {
        double m = Math.ceil(bytes / (1 << 20));
        return m >= 1e15 ? String.format(java.util.Locale.ROOT, "%.3g", m) : Long.toString((long) m);
    }

    private static double unsigned(long v) {
        return v >= 0 ? v : v + 0x1p64;
    }

    private static double align8(double v) {
        return Math.ceil(v / 8) * 8;
    }
}
