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
    void theIssueWorkloadNeedsAboutAGigabyteOfOpsAndOnePerJob() throws Exception {
        MemoryBudget.Plan p = MemoryBudget.plan(config(2, 100_000, 10_000, 2), "big.json", 8 * GIB);
        assertTrue(p.sharedBytes() > 1.0e9 && p.sharedBytes() < 1.2e9, "ops " + p.sharedBytes());
        assertTrue(p.perJobBytes() > 1.0e9 && p.perJobBytes() < 1.3e9, "per job " + p.perJobBytes());
        assertEquals(2, p.threads());
        assertFalse(p.reduced());
    }

    @Test
    void fewerJobsRunWhenOnlySomeFit() throws Exception {
        MemoryBudget.Plan p = MemoryBudget.plan(config(2, 100_000, 10_000, 8), "big.json", 4 * GIB);
        assertEquals(2, p.threads());
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
