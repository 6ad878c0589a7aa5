package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Seeded, structurally plausible recordings built in memory (no reader needed). */
final class SyntheticRun {

    private SyntheticRun() { }

    /** nodes said hello on conns 0..nodes-1; conn `nodes` never says hello. */
    static List<LogRecord> generate(long seed, int nodes, int ops) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<LogRecord> out = new ArrayList<>();
        long vt = 0;
        int conns = nodes + 1;
        for (int c = 0; c < conns; c++) {
            add(out, vt, new Event.Connect(c));
            if (c < nodes) add(out, vt, new Event.Hello(c, c));
            add(out, vt, new Event.Bind(c, VAddr.ofNode(c, 100)));
        }
        List<List<long[]>> pending = new ArrayList<>();   // per conn: {tie, deliv, srcNode}
        for (int c = 0; c < conns; c++) pending.add(new ArrayList<>());
        long tie = 0;
        long[] chanSeq = new long[conns * conns];
        while (out.size() < ops - 1) {
            int c = rnd.nextInt(conns);
            if (rnd.nextInt(100) < 55) {
                int d = rnd.nextInt(conns);
                VAddr src = VAddr.ofNode(c, 100), dst = VAddr.ofNode(d, 100);
                long seq = chanSeq[c * conns + d]++;
                int roll = rnd.nextInt(100);
                SendOutcome oc;
                if (roll < 10) oc = SendOutcome.DROPPED;
                else if (roll < 14) oc = SendOutcome.NO_RECEIVER;
                else {
                    long deliv = vt + 1000 + rnd.nextInt(20000);
                    oc = new SendOutcome.Enqueued(d, deliv, tie);
                    pending.get(d).add(new long[] {tie, deliv, c});
                    tie++;
                    vt = Math.max(vt, deliv);
                }
                add(out, vt, new Event.Send(c, src, dst, seq, vt, "6869", oc));
            } else {
                List<long[]> q = pending.get(c);
                if (q.isEmpty()) {
                    add(out, vt, new Event.Recv(c, false, RecvOutcome.EMPTY));
                } else {
                    long[] p = q.remove(rnd.nextInt(q.size()));
                    add(out, vt, new Event.Recv(c, rnd.nextBoolean(), new RecvOutcome.Delivered(
                            VAddr.ofNode(p[2], 100), VAddr.ofNode(c, 100), p[1], p[0], "6869")));
                }
            }
            if (rnd.nextInt(1000) == 0) add(out, vt, new Event.Violation("per-channel-fifo", "synthetic"));
        }
        add(out, vt, new Event.End(out.size() + 1, 0, 0));
        return out;
    }

    private static void add(List<LogRecord> out, long vt, Event e) {
        out.add(new LogRecord(out.size(), vt, e, 0, 0));
    }
}
