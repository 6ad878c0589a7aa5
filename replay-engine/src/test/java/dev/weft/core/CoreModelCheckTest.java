package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.Unsigned;
import dev.weft.text.Hex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Seeded random operation sequences run against Core and against a deliberately naive, obviously-correct
 * transcription of core-and-replay.md §1 (plain maps and sorted lists); every result and the full state must
 * agree after every operation. This exercises the primitive heaps, the open-addressing tables (growth and
 * backward-shift deletion) and copy().
 */
class CoreModelCheckTest {

    /** The spec's state machine written as directly as possible. */
    private static final class NaiveCore {
        final FaultModel fault;
        final Map<VAddr, Long> bound = new HashMap<>();
        final Map<Long, List<PendingDatagram>> queues = new HashMap<>();
        final Map<Channel, Long> seq = new HashMap<>();
        long tie, vt, sent, dropped;

        NaiveCore(FaultModel fault) {
            this.fault = fault;
        }

        void connect(long c) {
            queues.putIfAbsent(c, new ArrayList<>());
        }

        void bind(long c, VAddr a) {
            bound.put(a, c);
        }

        Core.SendResult send(VAddr src, VAddr dst, byte[] payload, long sendVt) {
            sent++;
            Channel ch = new Channel(src, dst);
            long chan = seq.getOrDefault(ch, 0L);
            seq.put(ch, chan + 1);
            FaultModel.Fate fate = fault.fate(src, dst, chan, payload.length);
            if (fate.dropped()) {
                dropped++;
                return new Core.SendResult(chan, SendOutcome.DROPPED);
            }
            Long c = bound.get(dst);
            if (c == null) return new Core.SendResult(chan, SendOutcome.NO_RECEIVER);
            long deliv = Unsigned.saturatingAdd(sendVt, fate.delayNs());
            long t = tie++;
            vt = Unsigned.max(vt, deliv);
            List<PendingDatagram> q = queues.get(c);
            if (q != null) q.add(new PendingDatagram(deliv, t, src, dst, payload));
            return new Core.SendResult(chan, new SendOutcome.Enqueued(c, deliv, t));
        }

        RecvOutcome recv(long c) {
            List<PendingDatagram> q = queues.get(c);
            if (q == null || q.isEmpty()) return RecvOutcome.EMPTY;
            PendingDatagram min = q.get(0);
            for (PendingDatagram p : q) {
                int cmp = Long.compareUnsigned(p.delivNs(), min.delivNs());
                if (cmp < 0 || (cmp == 0 && Long.compareUnsigned(p.tie(), min.tie()) < 0)) min = p;
            }
            q.remove(min);
            return new RecvOutcome.Delivered(min.src(), min.dst(), min.delivNs(), min.tie(), min.payloadHex());
        }

        void disconnect(long c) {
            queues.remove(c);
            bound.values().removeIf(owner -> owner == c);
        }

        CoreState snapshot() {
            Map<Long, List<PendingDatagram>> qs = new TreeMap<>(Long::compareUnsigned);
            for (Map.Entry<Long, List<PendingDatagram>> e : queues.entrySet()) {
                List<PendingDatagram> sorted = new ArrayList<>(e.getValue());
                sorted.sort((a, b) -> {
                    int c = Long.compareUnsigned(a.delivNs(), b.delivNs());
                    return c != 0 ? c : Long.compareUnsigned(a.tie(), b.tie());
                });
                qs.put(e.getKey(), sorted);
            }
            return new CoreState(vt, tie, sent, dropped, new TreeMap<>(qs), new TreeMap<>(bound), new TreeMap<>(seq));
        }
    }

    private static final String[] NETS = {"", "latency=uniform:0-50", "latency=fixed:7,loss=0.3",
            "latency=exp:100,loss=0.1,partition=0+1|2", "latency=uniform:0-3,bw=1000"};

    @Test
    void coreMatchesTheNaiveModelOnRandomOperations() throws Exception {
        for (int run = 0; run < 120; run++) {
            SplittableRandom rnd = new SplittableRandom(run);
            FaultModel fault = FaultModel.of(rnd.nextLong(), NETS[run % NETS.length]);
            Core core = new Core(fault);
            NaiveCore naive = new NaiveCore(fault);
            // Few conns and addresses so that collisions, rebinding and reuse are frequent; big ids test unsignedness.
            long[] conns = {0, 1, 2, 3, 17, -1L, 0x8000_0000_0000_0000L, 1L << 40};
            List<VAddr> addrs = new ArrayList<>();
            for (int i = 0; i < 6; i++) addrs.add(VAddr.ofNode(i % 4, 100 + i / 4));
            addrs.add(new VAddr(0xFFFF_FFFFL, 0xFFFF));
            int ops = 50 + rnd.nextInt(800);
            for (int op = 0; op < ops; op++) {
                String where = "run " + run + " op " + op;
                long c = conns[rnd.nextInt(conns.length)];
                int kind = rnd.nextInt(100);
                if (kind < 8) {
                    core.connect(c);
                    naive.connect(c);
                } else if (kind < 16) {
                    VAddr a = addrs.get(rnd.nextInt(addrs.size()));
                    core.bind(c, a);
                    naive.bind(c, a);
                } else if (kind < 20) {
                    core.disconnect(c);
                    naive.disconnect(c);
                } else if (kind < 60) {
                    VAddr src = addrs.get(rnd.nextInt(addrs.size()));
                    VAddr dst = addrs.get(rnd.nextInt(addrs.size()));
                    byte[] payload = new byte[rnd.nextInt(4)];
                    for (int i = 0; i < payload.length; i++) payload[i] = (byte) rnd.nextInt(256);
                    long sendVt = rnd.nextInt(10) == 0 ? -rnd.nextInt(100) : rnd.nextInt(1000);
                    assertEquals(naive.send(src, dst, payload, sendVt), core.send(src, dst, payload, sendVt), where);
                } else if (kind < 97) {
                    assertEquals(naive.recv(c), core.recv(c), where);
                } else {
                    core = core.copy(); // continue on a checkpoint copy: must behave identically
                }
                if (op % 7 == 0 || op == ops - 1) assertEquals(naive.snapshot(), core.snapshot(), where);
                assertEquals(naive.vt, core.vt(), where);
            }
        }
    }

    @Test
    void heapOrderUnderHeavyInterleaving() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        FaultModel model = FaultModel.of(1, "latency=uniform:0-1000");
        Core core = new Core(model);
        NaiveCore naive = new NaiveCore(model);
        VAddr a = VAddr.ofNode(0, 1);
        VAddr b = VAddr.ofNode(1, 1);
        core.connect(0);
        naive.connect(0);
        core.bind(0, a);
        naive.bind(0, a);
        for (int i = 0; i < 20_000; i++) {
            if (rnd.nextInt(3) != 0) {
                byte[] p = Hex.decode(String.format("%08x", i));
                long vt = rnd.nextLong(0, 500);
                assertEquals(naive.send(b, a, p, vt), core.send(b, a, p, vt));
            } else {
                assertEquals(naive.recv(0), core.recv(0), "recv " + i);
            }
        }
        assertEquals(naive.snapshot(), core.snapshot());
    }
}
