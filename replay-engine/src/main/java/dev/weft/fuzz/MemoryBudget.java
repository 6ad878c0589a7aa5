package dev.weft.fuzz;

/**
 * How much heap a fuzz run needs, computed from its workload before anything runs, and how many jobs fit.
 *
 * <p>Shared by all jobs: the workload's op shapes and the sweep's payload-blind copy of the ops — no payload bytes,
 * since a generated workload makes a send's payload only when the send is read ({@link WorkloadGenerator}) and the
 * sweep keeps none ({@link SweepExecutor}). Per sweep job: the core's queue entries in the worst case where every
 * datagram is still pending (a payload-blind core keeps no copies) and the sweep's per-tie scratch. Per phase-2 job
 * (a shrink candidate or a reproducer being recorded — a full core): the pending datagrams with a copy of each payload,
 * the invariants' per-datagram state and, when shrinking, the shrinker's op lists with their payloads. The figures
 * are upper bounds with JVM object overheads; a run whose phase 2 does not fit one job (less a reserve for the
 * collector) is refused with one line naming the figures, and each phase runs with as many jobs as fit. The result
 * of a fuzz run does not depend on its job counts (fuzz.md §5 as Sweep implements it).
 *
 * <p>Measured with the workload (2 nodes, 100,000 sends of 10,000 bytes, 3 seeds, --no-shrink) at the default
 * heap: 6.0 GiB peak RSS when the workload and each sweep core held every payload, 0.96 GiB now (docs/campaigns.md).
 */
public final class MemoryBudget {

    /** Bytes the collector and everything else in the JVM keep besides the run: 64 MiB plus an eighth of the heap. */
    static long reserve(long heapBytes) {
        return (64L << 20) + heapBytes / 8;
    }

    /**
     * The estimate and the job counts that fit.
     *
     * @param perJobBytes     a phase-2 job's need (shrinking, reproducers): the larger one
     * @param threads         phase-2 jobs that fit (at most the requested count)
     * @param sweepPerJobBytes a sweep job's need
     * @param sweepThreads    sweep jobs that fit (at most the requested count)
     */
    public record Plan(double sharedBytes, double perJobBytes, long heapBytes, int threads, int requestedThreads,
                       double sweepPerJobBytes, int sweepThreads) {

        /** True if fewer jobs than requested run in some phase because more would not fit. */
        public boolean reduced() {
            return threads < requestedThreads || sweepThreads < requestedThreads;
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

    /** Bytes held for the whole run: the ops' shapes and the sweep's payload-blind ops (fuzz.md §3). */
    static double sharedBytes(WorkloadSpec w) {
        double sends = unsigned(w.sends());
        double shape = 12;                    // the generated list's three ints per send or poll
        double sendOp = 32;                   // the sweep's Op.Send record (its payload array is shared)
        double pollOp = 24;                   // a poll after a send (the tail polls share one instance per node)
        double slot = 8;                      // the sweep's op array slot
        return maxOps(w) * slot + sends * (2 * shape + sendOp + pollOp) + 16 + align8(payloadLen(w));
    }

    /** Bytes one sweep execution may hold at its peak (no payload bytes: a payload-blind core). */
    static double sweepPerJobBytes(WorkloadSpec w) {
        double sends = unsigned(w.sends());
        double pending = 56;                 // the core's queue entry (parallel arrays, doubled on growth)
        double sweepScratch = 17;            // SweepExecutor's per-tie arrays
        return sends * (pending + sweepScratch) + channels(w) + (1 << 20);
    }

    /** Bytes one phase-2 execution (shrink candidate or reproducer) may hold at its peak. */
    static double perJobBytes(WorkloadSpec w, boolean shrink) {
        double sends = unsigned(w.sends());
        double payload = 16 + align8(payloadLen(w));
        double pending = payload + 56;       // the core's copy plus its queue entry
        double invariantState = 80;          // per delivered datagram: duplicate detection's set entry
        // the shrinker's current list, one candidate and removable positions; its sends carry their payloads
        double lists = shrink ? maxOps(w) * 20 + sends * (32 + payload) : 0;
        return sends * (pending + invariantState) + lists + channels(w) + (1 << 20);
    }

    private static double channels(WorkloadSpec w) {
        double nodes = Math.max(unsigned(w.nodes()), 2);
        return Math.min(unsigned(w.sends()), nodes * nodes) * 200;
    }

    private static double payloadLen(WorkloadSpec w) {
        return Math.max(unsigned(w.payloadLen()), 1);
    }

    /**
     * The plan for a validated config on a heap of {@code heapBytes} ({@code Runtime.maxMemory()} in a real run).
     * The exception text follows {@code weft fuzz: } and names the config as {@code shownPath}.
     */
    public static Plan plan(FuzzConfig c, String shownPath, long heapBytes) throws FuzzConfigException {
        return plan(c, shownPath, heapBytes, false);
    }

    /** Like {@link #plan(FuzzConfig, String, long)}; a sweep-only run (a shard) is refused only if a sweep job does not fit. */
    public static Plan plan(FuzzConfig c, String shownPath, long heapBytes, boolean sweepOnly) throws FuzzConfigException {
        WorkloadSpec w = c.workload();
        double shared = sharedBytes(w);
        double perJob = perJobBytes(w, c.shrink());
        double sweepJob = sweepPerJobBytes(w);
        double usable = heapBytes - reserve(heapBytes);
        int requested = FuzzRun.threads(c.jobs());
        double fit = Math.floor((usable - shared) / perJob);
        double sweepFit = Math.floor((usable - shared) / sweepJob);
        if (!(sweepOnly || fit >= 1) || !(sweepFit >= 1)) {
            double need = sweepOnly ? sweepJob : Math.max(perJob, sweepJob);
            throw new FuzzConfigException("config " + shownPath + ": the workload (" + Long.toUnsignedString(w.nodes())
                    + " node(s), " + Long.toUnsignedString(w.sends()) + " send(s) of " + Long.toUnsignedString(w.payloadLen())
                    + " byte(s)) needs up to " + mib(shared + need) + " MiB of heap (" + mib(shared) + " MiB of ops + "
                    + mib(need) + " MiB per job) but " + mib(Math.max(usable, 0)) + " MiB are available; "
                    + "lower workload.sends or workload.payload_len, or give the JVM more heap (-Xmx)");
        }
        int phaseTwo = sweepOnly ? requested : (int) Math.min(requested, fit);
        return new Plan(shared, perJob, heapBytes, phaseTwo, requested, sweepJob,
                (int) Math.min(requested, sweepFit));
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
