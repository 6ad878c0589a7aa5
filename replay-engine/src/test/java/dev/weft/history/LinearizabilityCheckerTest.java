package dev.weft.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LinearizabilityCheckerTest {

    @Test
    void aSequentialRegisterHistoryIsLinearizable() throws Exception {
        HistoryCheck.Verdict v = new Histories()
                .op(0, "read", null, "null", 0, 10)
                .op(0, "write", "1", null, 20, 30)
                .op(1, "read", null, "1", 40, 50)
                .check(HistoryModel.REGISTER);
        assertEquals(0, v.exitCode(), v.text());
        assertTrue(v.text().contains("verdict   : OK — linearizable\n"), v.text());
    }

    @Test
    void aReadAfterAnAcknowledgedWriteThatReturnsTheOldValueIsAStaleRead() throws Exception {
        HistoryCheck.Verdict v = new Histories()
                .op(0, "write", "2", null, 0, 10)
                .op(0, "write", "3", null, 20, 30)
                .op(1, "read", null, "2", 40, 50)
                .op(1, "read", null, "3", 60, 70)
                .check(HistoryModel.REGISTER);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.text().contains("  ✗ the object: write 3 acknowledged at t=30 ns, then a read invoked at t=40 ns"
                + " returned 2 (not linearizable)\n"), v.text());
        // the smallest inconsistent sub-history: both writes and the stale read (the later read is not needed)
        assertTrue(v.text().contains("(3 of 4 operations)"), v.text());
        assertEquals(List.of(1, 3, 5), v.findings().get(0).operations().stream().map(Operation::invokeLine).toList());
    }

    @Test
    void aReadConcurrentWithAWriteMayReturnEitherValue() throws Exception {
        for (String seen : List.of("null", "1")) {
            HistoryCheck.Verdict v = new Histories()
                    .invoke(0, "write", "1", 0)
                    .invoke(1, "read", null, 5)
                    .ok(1, "read", seen, 8)
                    .ok(0, "write", null, 10)
                    .check(HistoryModel.REGISTER);
            assertEquals(0, v.exitCode(), v.text());
        }
    }

    /**
     * Lamport's new-old inversion (On interprocess communication, 1986): during one long write, a read returns the
     * new value and a later read, invoked after the first returned, the old one. A regular register allows it; an
     * atomic (linearizable) one does not.
     */
    @Test
    void newOldInversionIsNotLinearizable() throws Exception {
        HistoryCheck.Verdict v = new Histories()
                .invoke(0, "write", "1", 0)
                .op(1, "read", null, "1", 10, 20)
                .op(2, "read", null, "null", 30, 40)
                .ok(0, "write", null, 100)
                .check(HistoryModel.REGISTER);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.text().contains("(3 of 3 operations)"), v.text());
        assertTrue(v.text().contains("no order of these 3 operations that respects their real-time order explains"
                + " every result"), v.text());
    }

    /** Herlihy and Wing's observation that a history may be linearizable with reads that overlap in any order. */
    @Test
    void overlappingReadsThatAgreeWithSomeOrderAreLinearizable() throws Exception {
        HistoryCheck.Verdict v = new Histories()
                .invoke(0, "write", "1", 0)
                .invoke(1, "read", null, 1)
                .invoke(2, "read", null, 2)
                .ok(2, "read", "null", 30)
                .ok(1, "read", "1", 40)
                .ok(0, "write", null, 50)
                .check(HistoryModel.REGISTER);
        assertEquals(0, v.exitCode(), v.text());
    }

    @Test
    void anIndeterminateWriteMayTakeEffectLateOrNever() throws Exception {
        // the write times out (info), and a much later read sees it: fine
        Histories late = new Histories()
                .invoke(0, "write", "1", 0).info(0, "write", 10)
                .op(1, "read", null, "null", 20, 30)
                .op(1, "read", null, "1", 1000, 1010);
        assertEquals(0, late.check(HistoryModel.REGISTER).exitCode());
        // never seen: also fine
        Histories never = new Histories()
                .invoke(0, "write", "1", 0).info(0, "write", 10)
                .op(1, "read", null, "null", 20, 30);
        assertEquals(0, never.check(HistoryModel.REGISTER).exitCode());
        // seen, then gone again: it took effect once, so the second null read is stale
        HistoryCheck.Verdict v = new Histories()
                .invoke(0, "write", "1", 0).info(0, "write", 10)
                .op(1, "read", null, "1", 20, 30)
                .op(1, "read", null, "null", 40, 50)
                .check(HistoryModel.REGISTER);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.text().contains("outcome unknown (info)"), v.text());
    }

    @Test
    void anInvocationWithoutCompletionIsIndeterminateAndAFailedWriteNeverHappened() throws Exception {
        Histories pending = new Histories()
                .invoke(0, "write", "1", 0)
                .op(1, "read", null, "1", 20, 30);
        assertEquals(0, pending.check(HistoryModel.REGISTER).exitCode());
        HistoryCheck.Verdict failed = new Histories()
                .invoke(0, "write", "1", 0).fail(0, "write", 10)
                .op(1, "read", null, "1", 20, 30)
                .check(HistoryModel.REGISTER);
        assertEquals(2, failed.exitCode(), failed.text());
        assertTrue(failed.text().contains("returned 1, which no operation wrote"), failed.text());
    }

    @Test
    void casRegister() throws Exception {
        Histories good = new Histories()
                .op(0, "write", "1", null, 0, 10)
                .op(1, "cas", "[1,2]", null, 20, 30)
                .invoke(2, "cas", "[1,3]", 40).fail(2, "cas", 50)
                .op(0, "read", null, "2", 60, 70);
        assertEquals(0, good.check(HistoryModel.CAS_REGISTER).exitCode());
        // a cas acknowledged although the register no longer held its old value
        HistoryCheck.Verdict bad = new Histories()
                .op(0, "write", "1", null, 0, 10)
                .op(1, "cas", "[1,2]", null, 20, 30)
                .op(2, "cas", "[1,3]", null, 40, 50)
                .check(HistoryModel.CAS_REGISTER);
        assertEquals(2, bad.exitCode(), bad.text());
        // an indeterminate cas either happened (then it found its old value) or did not
        Histories info = new Histories()
                .op(0, "write", "1", null, 0, 10)
                .invoke(1, "cas", "[1,2]", 20).info(1, "cas", 30)
                .op(0, "read", null, "1", 40, 50)
                .op(0, "read", null, "2", 60, 70);
        assertEquals(0, info.check(HistoryModel.CAS_REGISTER).exitCode());
    }

    @Test
    void kvChecksEachKeyAloneAndNamesTheBrokenOne() throws Exception {
        HistoryCheck.Verdict v = new Histories()
                .event(0, "invoke", "write", "y", "5", 0).event(0, "ok", "write", "y", null, 10)
                .event(1, "invoke", "write", "x", "1", 0).event(1, "ok", "write", "x", null, 10)
                .event(0, "invoke", "read", "y", null, 20).event(0, "ok", "read", "y", "5", 30)
                .event(1, "invoke", "read", "x", null, 20).event(1, "ok", "read", "x", "null", 30)
                .check(HistoryModel.KV);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.text().contains("model     : kv (2 objects)\n"), v.text());
        assertTrue(v.text().contains("✗ key x: write 1 acknowledged at t=10 ns, then a read invoked at t=20 ns returned"
                + " null"), v.text());
        assertEquals(1, v.findings().size());
    }

    @Test
    void setHistories() throws Exception {
        Histories good = new Histories()
                .op(0, "add", "1", null, 0, 10)
                .invoke(1, "add", "2", 15)
                .op(0, "read", null, "[1]", 20, 30)
                .ok(1, "add", null, 35)
                .op(0, "read", null, "[2,1]", 40, 50);
        assertEquals(0, good.check(HistoryModel.SET).exitCode());
        HistoryCheck.Verdict lost = new Histories()
                .op(0, "add", "1", null, 0, 10)
                .op(1, "add", "2", null, 20, 30)
                .op(0, "read", null, "[1]", 40, 50)
                .check(HistoryModel.SET);
        assertEquals(2, lost.exitCode(), lost.text());
        assertTrue(lost.text().contains("add 2 acknowledged at t=30 ns, then a read invoked at t=40 ns does not contain 2"),
                lost.text());
    }

    @Test
    void aHundredThousandOperationRegisterHistoryIsLinearizable() throws Exception {
        Histories h = Histories.randomRegister(7, 5, 100_000);
        HistoryCheck.Verdict v = h.check(HistoryModel.REGISTER);
        assertEquals(0, v.exitCode(), v.text());
        assertTrue(v.text().contains("(200000 events: 100000 ok"), v.text());
    }

    @Test
    void aStaleReadLateInALongHistoryIsFoundAndShrunk() throws Exception {
        Histories h = Histories.randomRegister(11, 4, 20_000);
        long end = 10_000_000;
        h.op(0, "write", "\"last\"", null, end, end + 10).op(1, "read", null, "\"stale\"", end + 20, end + 30)
                .op(2, "write", "\"stale\"", null, end - 1, end - 1).op(2, "read", null, "\"stale\"", end - 1, end - 1);
        HistoryCheck.Verdict v = h.check(HistoryModel.REGISTER);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.findings().get(0).operations().size() <= 3, v.text());
        assertTrue(v.text().contains("write \"last\" acknowledged at t=10000010 ns, then a read invoked at"
                + " t=10000020 ns returned \"stale\""), v.text());
    }

    @Test
    void aSearchThatRunsOutOfStepsIsUndecidedNotLinearizable() throws Exception {
        List<Operation> ops = Operations.pair("h", HistoryReader.parse("h",
                Histories.randomRegister(5, 4, 200).text().getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .operations();
        assertEquals(LinearizabilitySearch.Outcome.UNDECIDED,
                LinearizabilitySearch.check(ops, new RegisterModel(), 10).outcome());
        assertEquals(LinearizabilitySearch.Outcome.LINEARIZABLE,
                LinearizabilitySearch.check(ops, new RegisterModel(), -1).outcome());
    }

    @Test
    void theReportIsTheSameEveryTime() throws Exception {
        Histories h = Histories.randomRegister(3, 6, 2_000);
        h.op(0, "write", "-1", null, 1_000_000, 1_000_010).op(1, "read", null, "1", 1_000_020, 1_000_030);
        String first = h.check(HistoryModel.REGISTER).text();
        for (int i = 0; i < 3; i++) {
            assertEquals(first, h.check(HistoryModel.REGISTER).text());
        }
    }
}
