package dev.weft.fuzz;

import dev.weft.check.Invariants;
import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.core.Core;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.NetSpec;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sweep's hot path: executes a workload like {@link Executor} but checks the two built-in invariants
 * in fused primitive state (ties are dense, channels get small indices) and builds no events, and builds a
 * violation message only for the first raise of each key, which is all the sweep keeps (fuzz.md §5).
 * Equivalence with {@code Executor} + {@code PerChannelFifo}/{@code NoDuplicateDelivery} is pinned by tests.
 */
final class SweepExecutor {

    private final NetSpec net;
    private final List<Op> ops;
    private final boolean fifo;
    private final boolean dup;
    private final int sendCount;

    SweepExecutor(NetSpec net, List<Op> ops, List<String> invariants) {
        this.net = net;
        this.ops = payloadBlind(ops);
        boolean f = false;
        boolean d = false;
        for (String name : invariants) {
            String canonical = Invariants.canonicalName(name);
            if (PerChannelFifo.NAME.equals(canonical)) f = true;
            else if (NoDuplicateDelivery.NAME.equals(canonical)) d = true;
            else throw new IllegalArgumentException("unknown invariant " + name);
        }
        fifo = f;
        dup = d;
        int sends = 0;
        for (Op op : this.ops) if (op instanceof Op.Send) sends++;
        sendCount = sends;
    }

    /**
     * The ops with every send's payload replaced by a shared zero array of the same length. The sweep's core keeps
     * no payload bytes ({@link Core#withoutPayloads}) and its invariants never read them; a fate depends on a
     * payload's length only. So the sweep holds no payload of the workload (a generated workload makes each payload
     * when it is read, and this reads each once).
     */
    private static List<Op> payloadBlind(List<Op> ops) {
        Map<Integer, byte[]> zeros = new HashMap<>();
        Op[] out = new Op[ops.size()];
        for (int i = 0; i < out.length; i++) {
            Op op = ops.get(i);
            out[i] = op instanceof Op.Send s
                    ? new Op.Send(s.conn(), s.src(), s.dst(), zeros.computeIfAbsent(s.payload().length, byte[]::new))
                    : op;
        }
        return List.of(out);
    }

    /**
     * Per-tie state, reused across the executions of one worker thread. Every enqueueing send takes the next
     * tie, so ties stay below the workload's send count and the arrays never grow for an honest core.
     */
    final class Scratch {
        private long[] chanSeqOfTie = new long[Math.max(sendCount, 1)];
        private boolean[] remembered = new boolean[chanSeqOfTie.length];
        private long[] deliveredAtOp = new long[chanSeqOfTie.length];

        private void reset() {
            Arrays.fill(remembered, false);
            Arrays.fill(deliveredAtOp, -1);
        }

        private void ensure(long tie) {
            if (tie < chanSeqOfTie.length) return;
            int n = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(tie + 1, 2L * chanSeqOfTie.length));
            int old = chanSeqOfTie.length;
            chanSeqOfTie = Arrays.copyOf(chanSeqOfTie, n);
            remembered = Arrays.copyOf(remembered, n);
            deliveredAtOp = Arrays.copyOf(deliveredAtOp, n);
            Arrays.fill(deliveredAtOp, old, n, -1);
        }
    }

    /** Scratch state for one worker thread (not thread-safe itself). */
    Scratch newScratch() {
        return new Scratch();
    }

    /** Every key raised by the execution with seed, mapped to the message of its first raise. */
    Map<ViolationKey, String> firstMessages(long seed) {
        return firstMessages(seed, newScratch());
    }

    Map<ViolationKey, String> firstMessages(long seed, Scratch scratch) {
        Core core = Core.withoutPayloads(new FaultModel(seed, net));
        Channels channels = new Channels();
        scratch.reset();
        Map<ViolationKey, String> first = null;
        int size = ops.size();
        for (int i = 0; i < size; i++) {
            Op op = ops.get(i);
            if (op instanceof Op.Recv r) {
                RecvOutcome out = core.recv(r.conn());
                if (!(out instanceof RecvOutcome.Delivered d)) continue;
                long tie = d.tie();
                if (tie < 0 || tie >= scratch.chanSeqOfTie.length) continue; // never enqueued (not an honest core)
                int ch = channels.index(d.src(), d.dst());
                if (fifo && scratch.remembered[(int) tie]) {
                    long s = scratch.chanSeqOfTie[(int) tie];
                    long max = channels.maxDelivered[ch];
                    if (max != -1 && Long.compareUnsigned(s, max) < 0) {
                        if (!channels.fifoRaised[ch]) {
                            channels.fifoRaised[ch] = true;
                            String subject = channels.subject(ch, d);
                            first = put(first, new ViolationKey(PerChannelFifo.NAME, subject),
                                    "channel " + subject + ": datagram with send order " + Long.toUnsignedString(s)
                                            + " delivered after send order " + Long.toUnsignedString(max) + " (reordered)");
                        }
                    } else {
                        channels.maxDelivered[ch] = s;
                    }
                }
                if (dup) {
                    long previous = scratch.deliveredAtOp[(int) tie];
                    scratch.deliveredAtOp[(int) tie] = i;
                    if (previous != -1 && !channels.dupRaised[ch]) {
                        channels.dupRaised[ch] = true;
                        first = put(first, new ViolationKey(NoDuplicateDelivery.NAME, channels.subject(ch, d)),
                                "datagram tie=" + Long.toUnsignedString(tie) + " delivered twice (first at op " + previous + ")");
                    }
                }
            } else if (op instanceof Op.Send s) {
                Core.SendResult res = core.send(s.src(), s.dst(), s.payload(), 0);
                if (res.outcome() instanceof SendOutcome.Enqueued e) {
                    long tie = e.tie();
                    scratch.ensure(tie);
                    scratch.chanSeqOfTie[(int) tie] = res.chanSeq();
                    scratch.remembered[(int) tie] = true; // the channel itself is taken from the delivery (spec §2.1)
                }
            } else {
                Executor.apply(core, op);
            }
        }
        return first == null ? Map.of() : first;
    }

    private static Map<ViolationKey, String> put(Map<ViolationKey, String> m, ViolationKey key, String message) {
        Map<ViolationKey, String> out = m == null ? new LinkedHashMap<>() : m;
        out.putIfAbsent(key, message);
        return out;
    }

    /** Small indices for channels (src, dst), with per-channel fifo and "already raised" state. */
    private static final class Channels {
        private long[] keySrc = new long[16];
        private long[] keyDst = new long[16];
        private int[] slotIndex = new int[16];
        private int count;
        long[] maxDelivered = new long[8];
        boolean[] fifoRaised = new boolean[8];
        boolean[] dupRaised = new boolean[8];
        /** "src → dst" per channel, built on first use; per execution. */
        private String[] subjects = new String[8];

        String subject(int ch, RecvOutcome.Delivered d) {
            String s = subjects[ch];
            if (s == null) {
                s = d.src().text() + " \u2192 " + d.dst().text();
                subjects[ch] = s;
            }
            return s;
        }

        Channels() {
            Arrays.fill(slotIndex, -1);
            Arrays.fill(maxDelivered, -1);
        }

        int index(VAddr src, VAddr dst) {
            long s = (src.ip() << 16) | src.port();
            long d = (dst.ip() << 16) | dst.port();
            int mask = slotIndex.length - 1;
            int slot = (int) (mix(s * 31 + d) & mask);
            while (slotIndex[slot] != -1) {
                if (keySrc[slot] == s && keyDst[slot] == d) return slotIndex[slot];
                slot = (slot + 1) & mask;
            }
            int idx = count++;
            keySrc[slot] = s;
            keyDst[slot] = d;
            slotIndex[slot] = idx;
            if (idx >= maxDelivered.length) {
                int n = maxDelivered.length * 2;
                int old = maxDelivered.length;
                maxDelivered = Arrays.copyOf(maxDelivered, n);
                Arrays.fill(maxDelivered, old, n, -1);
                fifoRaised = Arrays.copyOf(fifoRaised, n);
                dupRaised = Arrays.copyOf(dupRaised, n);
                subjects = Arrays.copyOf(subjects, n);
            }
            if (count * 2 > slotIndex.length) grow();
            return idx;
        }

        private void grow() {
            long[] os = keySrc;
            long[] od = keyDst;
            int[] oi = slotIndex;
            int n = oi.length * 2;
            keySrc = new long[n];
            keyDst = new long[n];
            slotIndex = new int[n];
            Arrays.fill(slotIndex, -1);
            for (int i = 0; i < oi.length; i++) {
                if (oi[i] == -1) continue;
                int slot = (int) (mix(os[i] * 31 + od[i]) & (n - 1));
                while (slotIndex[slot] != -1) slot = (slot + 1) & (n - 1);
                keySrc[slot] = os[i];
                keyDst[slot] = od[i];
                slotIndex[slot] = oi[i];
            }
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            return z ^ (z >>> 33);
        }
    }
}
