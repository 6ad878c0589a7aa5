package dev.weft.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryReaderTest {

    private static String problem(String text) {
        return assertThrows(HistoryFormatException.class,
                () -> HistoryReader.parse("h.jsonl", text.getBytes(StandardCharsets.UTF_8))).getMessage();
    }

    private static String pairingProblem(String text) throws HistoryFormatException {
        List<HistoryEvent> events = HistoryReader.parse("h.jsonl", text.getBytes(StandardCharsets.UTF_8));
        return assertThrows(HistoryFormatException.class, () -> Operations.pair("h.jsonl", events)).getMessage();
    }

    @Test
    void readsEveryFieldAndSkipsBlankLinesAndUnknownMembers() throws Exception {
        List<HistoryEvent> events = HistoryReader.parse("h.jsonl", ("\n"
                + "{\"process\":0,\"type\":\"invoke\",\"f\":\"cas\",\"key\":\"x\",\"value\":[1, \"a\"],\"time\":1200,"
                + "\"node\":2,\"error\":{\"why\":[1]}}\r\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(1, events.size());
        HistoryEvent e = events.get(0);
        assertEquals(new HistoryEvent(2, 2, 0, EventType.INVOKE, OpFunction.CAS, "x",
                HistoryValue.array(List.of("1", "\"a\"")), 1200), e);
        assertEquals("[1,\"a\"]", e.value().text());
    }

    @Test
    void badLinesNameTheFileAndLine() {
        assertEquals("h.jsonl:2: not JSON: EOF while parsing a value at column 11",
                problem("\n{\"process\":"));
        assertEquals("h.jsonl:1: missing \"time\" (the virtual time of the event in ns)",
                problem("{\"process\":0,\"type\":\"ok\",\"f\":\"read\"}"));
        assertEquals("h.jsonl:1: \"type\" must be \"invoke\", \"ok\", \"fail\" or \"info\", not \"done\"",
                problem("{\"process\":0,\"type\":\"done\",\"f\":\"read\",\"time\":1}"));
        assertEquals("h.jsonl:1: \"f\" must be \"read\", \"write\", \"cas\", \"add\" or \"append\", not \"inc\"",
                problem("{\"process\":0,\"type\":\"ok\",\"f\":\"inc\",\"time\":1}"));
        assertEquals("h.jsonl:1: \"process\" must be a non-negative integer, not -1",
                problem("{\"process\":-1,\"type\":\"ok\",\"f\":\"read\",\"time\":1}"));
        assertEquals("h.jsonl:1: member \"time\" appears twice",
                problem("{\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"time\":1,\"time\":2}"));
        assertEquals("h.jsonl:1: a cas takes [old, new] as its value, not 3",
                problem("{\"process\":0,\"type\":\"invoke\",\"f\":\"cas\",\"value\":3,\"time\":1}"));
        assertEquals("h.jsonl:1: expected a JSON object", problem("[1]"));
    }

    @Test
    void pairingProblemsNameTheLine() throws Exception {
        assertEquals("h.jsonl:1: ok of process 0 without an invoke before it",
                pairingProblem("{\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"time\":1}"));
        assertEquals("h.jsonl:2: process 0 invokes again while its read invoked at line 1 has not completed (one"
                        + " operation per process at a time)",
                pairingProblem("{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n"
                        + "{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":2}"));
        assertEquals("h.jsonl:2: node 1 process 0 completes a write but invoked a read at line 1",
                pairingProblem("{\"node\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n"
                        + "{\"node\":1,\"process\":0,\"type\":\"ok\",\"f\":\"write\",\"time\":2}"));
    }

    @Test
    void theSameProcessNumberOnTwoNodesIsTwoClients() throws Exception {
        Operations.Paired p = Operations.pair("h.jsonl", HistoryReader.parse("h.jsonl", (
                "{\"node\":0,\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}\n"
                + "{\"node\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":2}\n"
                + "{\"node\":0,\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"value\":null,\"time\":3}\n")
                .getBytes(StandardCharsets.UTF_8)));
        assertEquals(1, p.ok());
        assertEquals(1, p.indeterminate());
    }

    @Test
    void aModelRefusesOperationsThatAreNotItsOwn() {
        String cas = "{\"process\":0,\"type\":\"invoke\",\"f\":\"cas\",\"value\":[1,2],\"time\":1}";
        HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> HistoryCheck.check("h.jsonl",
                HistoryReader.parse("h.jsonl", cas.getBytes(StandardCharsets.UTF_8)), HistoryModel.REGISTER));
        assertEquals("h.jsonl:1: \"cas\" is not an operation of the register model (use --model cas-register or kv)",
                e.getMessage());
        String twoKeys = "{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"key\":\"x\",\"time\":1}\n"
                + "{\"process\":1,\"type\":\"invoke\",\"f\":\"read\",\"key\":\"y\",\"time\":1}";
        e = assertThrows(HistoryFormatException.class, () -> HistoryCheck.check("h.jsonl",
                HistoryReader.parse("h.jsonl", twoKeys.getBytes(StandardCharsets.UTF_8)), HistoryModel.REGISTER));
        assertEquals("h.jsonl:2: key y, but the register model is one object (key x at line 1); use --model kv for one"
                + " register per key", e.getMessage());
    }
}
