package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The heap plan of a fuzz run, computed from the workload before it runs (issue 12 item 4). */
class MemoryBudgetTest {

    private static FuzzConfig config(long nodes, long sends, long payloadLen, long jobs) {
        return new FuzzConfig("latency=uniform:0-8000,loss=0.02", 0, 3, jobs, 0, List.of("fifo", "dup"),
                new WorkloadSpec(nodes, sends, payloadLen, 0), "OUT", false, List.of());
    }

    private static final long GIB = 1L << 30;

    @Test
    void theIssueWorkloadHoldsNoPayloadsWhileSweepingAndAGigabytePerPhaseTwoJob() throws Exception {
        MemoryBudget.Plan p = MemoryBudget.plan(config(2, 100_000, 10_000, 2), "big.json", 8 * GIB);
        // the ops' shapes and the sweep's payload-blind copy: a few MB, not the 1 GB of payloads
        assertTrue(p.sharedBytes() > 5e6 && p.sharedBytes() < 20e6, "ops " + p.sharedBytes());
        assertTrue(p.sweepPerJobBytes() > 5e6 && p.sweepPerJobBytes() < 20e6, "sweep job " + p.sweepPerJobBytes());
        // an unshrunk reproducer's full core still copies every pending payload
        assertTrue(p.perJobBytes() > 1.0e9 && p.perJobBytes() < 1.3e9, "per job " + p.perJobBytes());
        assertEquals(2, p.threads());
        assertEquals(2, p.sweepThreads());
        assertFalse(p.reduced());
    }

    @Test
    void shrinkingCountsTheShrinkersListsWithTheirPayloads() throws Exception {
        FuzzConfig shrinking = new FuzzConfig("latency=uniform:0-8000", 0, 3, 1, 0, List.of("fifo"),
                new WorkloadSpec(2, 100_000, 10_000, 0), "OUT", true, List.of());
        double unshrunk = MemoryBudget.plan(config(2, 100_000, 10_000, 1), "big.json", 8 * GIB).perJobBytes();
        double shrunk = MemoryBudget.plan(shrinking, "big.json", 8 * GIB).perJobBytes();
        assertTrue(shrunk - unshrunk > 1.0e9, unshrunk + " then " + shrunk);
    }

    @Test
    void fewerJobsRunWhenOnlySomeFitAndTheSweepKeepsAllOfItsJobs() throws Exception {
        MemoryBudget.Plan p = MemoryBudget.plan(config(2, 100_000, 10_000, 8), "big.json", 4 * GIB);
        assertEquals(3, p.threads());
        assertEquals(8, p.sweepThreads());
        assertTrue(p.reduced());
    }

    @Test
    void aWorkloadThatDoesNotFitIsRefusedNamingTheConfigAndTheFigures() {
        FuzzConfigException e = assertThrows(FuzzConfigException.class,
                () -> MemoryBudget.plan(config(2, 100_000, 10_000, 2), "big.json", GIB));
        assertTrue(e.getMessage().startsWith("config big.json: the workload (2 node(s), 100000 send(s) of 10000 byte(s)) "
                + "needs up to "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void theTailPollsOfManyNodesCountEvenWithTinyPayloads() {
        // nodes × sends polls: 4 billion ops of list slots alone cannot fit any heap of this machine.
        assertThrows(FuzzConfigException.class,
                () -> MemoryBudget.plan(config(65_536, 65_536, 1, 1), "many.json", 16 * GIB));
    }

    @Test
    void extremeValuesNeitherOverflowNorPass() {
        assertThrows(FuzzConfigException.class,
                () -> MemoryBudget.plan(config(-1L, -1L, -1L, 1), "max.json", Long.MAX_VALUE));
    }

    @Test
    void everyShippedSizeOfConfigFitsTheTestHeap() throws Exception {
        MemoryBudget.Plan p = MemoryBudget.plan(config(3, 30, 4, 4), "demo.json", 256L << 20);
        assertEquals(4, p.threads());
    }
}
