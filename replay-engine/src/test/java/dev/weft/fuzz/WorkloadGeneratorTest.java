package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins the generator to the vectors of fuzz.md §3. */
class WorkloadGeneratorTest {

    /** The send/poll skeleton after the setup ops: "s→d" for sends, "pN" for interleaved polls. */
    private static List<String> shape(List<Op> ops, int nodes, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 3 * nodes; i < ops.size() && out.size() < count; i++) {
            Op op = ops.get(i);
            if (op instanceof Op.Send s) {
                out.add(s.src().nodeOf() + ">" + s.dst().nodeOf());
            } else {
                out.add("p" + op.conn());
            }
        }
        return out;
    }

    @Test
    void defaultsGive87OpsAndTheDocumentedFirstSends() {
        List<Op> ops = WorkloadGenerator.generate(WorkloadSpec.DEFAULT);
        assertEquals(87, ops.size());
        assertEquals(List.of("0>1", "p1", "0>1", "p1", "0>1", "1>0", "1>0", "0>1", "1>0", "p1", "1>0", "p0", "0>1", "0>1"),
                shape(ops, 2, 14));
        Op.Send first = (Op.Send) ops.get(6);
        assertEquals("00000000", first.payloadHex());
        assertEquals("01000000", ((Op.Send) ops.get(8)).payloadHex());
    }

    @Test
    void threeNodesThirtySendsGive138OpsAndTheDocumentedFirstSends() {
        List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 30, 4, 0));
        assertEquals(138, ops.size());
        assertEquals(List.of("1>0", "p1", "2>0", "p2", "2>1", "0>1", "2>0", "2>1", "0>2", "p0", "2>1"), shape(ops, 3, 11));
    }

    @Test
    void setupOpsConnectHelloAndBindEveryNodeThenTailPollsEveryConn() {
        List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 5, 2, 9));
        for (int n = 0; n < 3; n++) {
            assertEquals(new Op.Connect(n), ops.get(3 * n));
            assertEquals(new Op.Hello(n, n), ops.get(3 * n + 1));
            assertEquals(new Op.Bind(n, WorkloadGenerator.addressOf(n)), ops.get(3 * n + 2));
        }
        List<Op> tail = ops.subList(ops.size() - 15, ops.size());
        for (int i = 0; i < 15; i++) assertEquals(new Op.Recv(i / 5, false), tail.get(i));
    }

    @Test
    void payloadCarriesTheSendIndexLittleEndianAndAtLeastOneByte() {
        List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(2, 300, 0, 1));
        List<Op.Send> sends = ops.stream().filter(o -> o instanceof Op.Send).map(o -> (Op.Send) o).toList();
        assertEquals(300, sends.size());
        assertEquals("2b", sends.get(299).payloadHex()); // 299 = 0x12b, cut to one byte
        List<Op> wide = WorkloadGenerator.generate(new WorkloadSpec(2, 300, 6, 1));
        Op.Send last = (Op.Send) wide.stream().filter(o -> o instanceof Op.Send).reduce((a, b) -> b).orElseThrow();
        assertEquals("2b0100000000", last.payloadHex());
    }

    @Test
    void sameSeedSameOpsDifferentSeedDifferentOps() {
        WorkloadSpec a = new WorkloadSpec(4, 50, 4, 77);
        assertEquals(WorkloadGenerator.generate(a), WorkloadGenerator.generate(a));
        assertEquals(false, WorkloadGenerator.generate(a).equals(WorkloadGenerator.generate(new WorkloadSpec(4, 50, 4, 78))));
    }
}
