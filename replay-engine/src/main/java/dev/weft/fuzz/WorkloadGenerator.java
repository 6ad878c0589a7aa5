package dev.weft.fuzz;

import dev.weft.log.VAddr;
import dev.weft.net.SplitMix64;
import java.util.ArrayList;
import java.util.List;

/** The deterministic workload of fuzz.md §3: the same workload_seed always gives the same ops. */
public final class WorkloadGenerator {

    /** Every generated node listens on this port. */
    public static final int PORT = 100;

    private WorkloadGenerator() {
    }

    /** Node n's address: (0x7F000001 + n, port 100). */
    public static VAddr addressOf(long node) {
        return VAddr.ofNode(node, PORT);
    }

    public static List<Op> generate(WorkloadSpec spec) {
        long n = Math.max(spec.nodes(), 2);
        long sends = spec.sends();
        // payload_len is an unsigned size; anything above an int is refused by config validation.
        int payloadLen = (int) Math.max(spec.payloadLen(), 1);
        SplitMix64 r = new SplitMix64(spec.workloadSeed() ^ SplitMix64.GAMMA);
        VAddr[] addr = new VAddr[(int) n];
        List<Op> ops = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            addr[i] = addressOf(i);
            ops.add(new Op.Connect(i));
            ops.add(new Op.Hello(i, i));
            ops.add(new Op.Bind(i, addr[i]));
        }
        for (long i = 0; i < sends; i++) {
            int src = (int) Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
            int dst = (int) Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
            if (dst == src) dst = (int) ((dst + 1) % n);
            byte[] payload = new byte[payloadLen];
            for (int b = 0; b < Math.min(4, payloadLen); b++) payload[b] = (byte) (i >>> (8 * b));
            ops.add(new Op.Send(src, addr[src], addr[dst], payload));
            if (Long.remainderUnsigned(r.next(), 4) == 0) {
                long who = Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
                ops.add(new Op.Recv(who, false));
            }
        }
        for (int c = 0; c < n; c++) {
            Op.Recv poll = new Op.Recv(c, false); // immutable: one instance serves all of a node's final polls
            for (long i = 0; i < sends; i++) ops.add(poll);
        }
        return ops;
    }
}
