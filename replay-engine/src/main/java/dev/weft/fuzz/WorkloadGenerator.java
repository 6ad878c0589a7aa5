package dev.weft.fuzz;

import dev.weft.log.VAddr;
import dev.weft.net.SplitMix64;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

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

    /**
     * The workload's ops. The list is materialized on access: it keeps each op's shape (a few bytes) and makes a
     * send's payload array only when the send is read, so a workload of 100,000 sends of 10 kB costs 2 MB while it
     * waits rather than 1 GB (the sweep reads payload lengths only, {@link SweepExecutor}). Reads give equal ops
     * every time, and the list is immutable and safe to share between threads.
     */
    public static List<Op> generate(WorkloadSpec spec) {
        return new GeneratedOps(spec);
    }

    /** True for a list {@link #generate} made: immutable, so it is shared rather than copied. */
    static boolean isGenerated(List<Op> ops) {
        return ops instanceof GeneratedOps;
    }

    /** The ops of fuzz.md §3: setup ops per node, the sends with their interleaved polls, the tail polls. */
    private static final class GeneratedOps extends AbstractList<Op> implements RandomAccess {
        private final int nodes;
        private final int payloadLen;
        private final VAddr[] addr;
        /** The middle section, one entry per op: a send's source node, or -1 - node for a poll. */
        private final int[] first;
        /** A send's destination node (unused for a poll). */
        private final int[] second;
        /** A send's index i (its payload carries i); unused for a poll. */
        private final int[] sendIndex;
        private final int middle;
        private final int tailPerNode;
        private final Op.Recv[] tailPoll;

        GeneratedOps(WorkloadSpec spec) {
            long n = Math.max(spec.nodes(), 2);
            long sends = spec.sends();
            // payload_len is an unsigned size; anything above an int is refused by config validation.
            payloadLen = (int) Math.max(spec.payloadLen(), 1);
            nodes = (int) n;
            SplitMix64 r = new SplitMix64(spec.workloadSeed() ^ SplitMix64.GAMMA);
            addr = new VAddr[nodes];
            tailPoll = new Op.Recv[nodes];
            for (int i = 0; i < nodes; i++) {
                addr[i] = addressOf(i);
                tailPoll[i] = new Op.Recv(i, false); // immutable: one instance serves all of a node's final polls
            }
            int cap = (int) Math.min(Integer.MAX_VALUE - 8, sends + sends / 3 + 16);
            int[] a = new int[cap];
            int[] b = new int[cap];
            int[] idx = new int[cap];
            int m = 0;
            for (long i = 0; i < sends; i++) {
                int src = (int) Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
                int dst = (int) Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
                if (dst == src) dst = (int) ((dst + 1) % n);
                if (m + 2 > a.length) {
                    int grown = (int) Math.min(Integer.MAX_VALUE - 8, 2L * a.length);
                    a = Arrays.copyOf(a, grown);
                    b = Arrays.copyOf(b, grown);
                    idx = Arrays.copyOf(idx, grown);
                }
                a[m] = src;
                b[m] = dst;
                idx[m++] = (int) i;
                if (Long.remainderUnsigned(r.next(), 4) == 0) {
                    a[m++] = -1 - (int) Long.remainderUnsigned(r.next() & 0xFFFF_FFFFL, n);
                }
            }
            if (3L * nodes + m + n * sends > Integer.MAX_VALUE - 8) {
                // MemoryBudget refuses such a workload first; a list cannot hold it anyway
                throw new IllegalArgumentException("a workload of more than 2^31 ops");
            }
            first = Arrays.copyOf(a, m);
            second = Arrays.copyOf(b, m);
            sendIndex = Arrays.copyOf(idx, m);
            middle = m;
            tailPerNode = (int) sends;
        }

        @Override
        public int size() {
            return 3 * nodes + middle + nodes * tailPerNode;
        }

        @Override
        public Op get(int i) {
            if (i < 0 || i >= size()) throw new IndexOutOfBoundsException(i);
            if (i < 3 * nodes) {
                int node = i / 3;
                return switch (i % 3) {
                    case 0 -> new Op.Connect(node);
                    case 1 -> new Op.Hello(node, node);
                    default -> new Op.Bind(node, addr[node]);
                };
            }
            int j = i - 3 * nodes;
            if (j >= middle) return tailPoll[(j - middle) / tailPerNode];
            if (first[j] < 0) return new Op.Recv(-1 - first[j], false);
            byte[] payload = new byte[payloadLen];
            long index = sendIndex[j];
            for (int k = 0; k < Math.min(4, payloadLen); k++) payload[k] = (byte) (index >>> (8 * k));
            return new Op.Send(first[j], addr[first[j]], addr[second[j]], payload);
        }
    }
}
