package dev.weft.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ListAppendCheckerTest {

    private static Histories appends() {
        return new Histories()
                .event(0, "invoke", "append", "x", "1", 0).event(0, "ok", "append", "x", null, 10)
                .event(0, "invoke", "append", "x", "2", 20).event(0, "ok", "append", "x", null, 30);
    }

    private static Histories read(Histories h, int process, String list, long from, long to) {
        return h.event(process, "invoke", "read", "x", null, from).event(process, "ok", "read", "x", list, to);
    }

    @Test
    void growingPrefixesAreFine() throws Exception {
        Histories h = read(read(appends(), 1, "[1]", 15, 18), 1, "[1,2]", 40, 50);
        HistoryCheck.Verdict v = h.check(HistoryModel.LIST_APPEND);
        assertEquals(0, v.exitCode(), v.text());
        assertTrue(v.text().contains("verdict   : OK — no anomaly\n"), v.text());
    }

    @Test
    void anAcknowledgedAppendMissingFromALaterReadIsLost() throws Exception {
        HistoryCheck.Verdict v = read(appends(), 1, "[1]", 40, 50).check(HistoryModel.LIST_APPEND);
        assertEquals(2, v.exitCode(), v.text());
        assertEquals(List.of("lost"), v.findings().stream().map(Finding::kind).toList());
        assertTrue(v.text().contains("✗ key x: append 2 acknowledged at t=30 ns, then a read invoked at t=40 ns does not"
                + " contain it"), v.text());
    }

    @Test
    void aValueSeenByOneReadAndMissingFromALaterOneIsLost() throws Exception {
        Histories h = new Histories().event(0, "invoke", "append", "x", "1", 0).event(0, "info", "append", "x", null, 10);
        HistoryCheck.Verdict v = read(read(h, 1, "[1]", 20, 30), 1, "[]", 40, 50).check(HistoryModel.LIST_APPEND);
        assertEquals(2, v.exitCode(), v.text());
        assertTrue(v.text().contains("✗ key x: 1 read at t=30 ns, then a read invoked at t=40 ns does not contain it"),
                v.text());
    }

    @Test
    void duplicatedPhantomAndReordered() throws Exception {
        Histories h = read(appends(), 1, "[1,2,1]", 40, 50);
        h = read(h, 2, "[2,1]", 40, 50);
        h = read(h, 3, "[1,9]", 60, 70);
        HistoryCheck.Verdict v = h.check(HistoryModel.LIST_APPEND);
        assertEquals(2, v.exitCode(), v.text());
        List<String> kinds = v.findings().stream().map(Finding::kind).distinct().toList();
        assertEquals(List.of("duplicated", "phantom", "reordered", "lost"), kinds, v.text());
        assertTrue(v.text().contains("✗ key x: a read returned 1 twice: [1,2,1]"), v.text());
        assertTrue(v.text().contains("✗ key x: a read returned 9, which no append wrote"), v.text());
        assertTrue(v.text().contains("✗ key x: append 1 acknowledged at t=10 ns before append 2 was invoked, but a read"
                + " returned 2 first"), v.text());
        assertTrue(v.text().startsWith("history   : h.jsonl (10 events: 5 ok, 0 indeterminate, 0 failed)\n"
                + "model     : list-append (1 object)\nverdict   : VIOLATION — "), v.text());
    }

    @Test
    void aFailedAppendsValueIsAPhantom() throws Exception {
        Histories h = new Histories().event(0, "invoke", "append", "x", "1", 0).event(0, "fail", "append", "x", null, 10);
        HistoryCheck.Verdict v = read(h, 1, "[1]", 20, 30).check(HistoryModel.LIST_APPEND);
        assertEquals(List.of("phantom"), v.findings().stream().map(Finding::kind).toList());
    }

    @Test
    void appendedValuesMustBeUniquePerKey() {
        Histories h = appends().event(1, "invoke", "append", "x", "1", 40);
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> h.check(HistoryModel.LIST_APPEND));
        assertEquals("h.jsonl:5: append 1 to key x again (line 1): list-append values must be unique per key",
                e.getMessage());
    }
}
