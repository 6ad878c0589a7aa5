package dev.weft.testsupport;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded, structurally plausible recordings built in memory (no file, no reader): nodes connect, say hello and
 * bind, then send and receive at random with reordering, drops and no-receivers, and the run ends with an
 * {@code end} record. The same seed and shape always give the same records.
 */
public final class SyntheticRun {

    /** "hi": the payload of {@link #generate}. */
    private static final String HI = "6869";
    /** "RPT 1 2 1 3 4 5 6", a state report, and a prefix of it for deliveries: the payloads of {@link #withReports}. */
    private static final String REPORT = "5250542031203220312033203420352036";
    private static final String REPORT_PREFIX = "5250542031";

    /** What varies between the runs the timeline and the workbench tests want. */
    private record Shape(boolean silentConnection, boolean randomBlocking, boolean violations, String sendPayload,
                         String deliveredPayload) {
    }

    private SyntheticRun() {
    }

    /**
     * Nodes 0..nodes-1 say hello on conns 0..nodes-1; one more conn ({@code nodes}) never says hello. Recvs are
     * blocking or not at random, and about one op in a thousand is a violation record.
     */
    public static List<LogRecord> generate(long seed, int nodes, int ops) {
        return generate(seed, nodes, ops, new Shape(true, true, true, HI, HI));
    }

    /** Nodes 0..nodes-1 on conns 0..nodes-1, non-blocking recvs, every datagram a state report. */
    public static List<LogRecord> withReports(long seed, int nodes, int ops) {
        return generate(seed, nodes, ops, new Shape(false, false, false, REPORT, REPORT_PREFIX));
    }

    private static List<LogRecord> generate(long seed, int nodes, int ops, Shape shape) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<LogRecord> out = new ArrayList<>();
        long vt = 0;
        int conns = shape.silentConnection() ? nodes + 1 : nodes;
        for (int c = 0; c < conns; c++) {
            add(out, vt, new Event.Connect(c));
            if (c < nodes) add(out, vt, new Event.Hello(c, c));
            add(out, vt, new Event.Bind(c, VAddr.ofNode(c, 100)));
        }
        List<List<long[]>> pending = new ArrayList<>(); // per conn: {tie, deliv, srcNode}
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
                add(out, vt, new Event.Send(c, src, dst, seq, vt, shape.sendPayload(), oc));
            } else {
                List<long[]> q = pending.get(c);
                if (q.isEmpty()) {
                    add(out, vt, new Event.Recv(c, false, RecvOutcome.EMPTY));
                } else {
                    long[] p = q.remove(rnd.nextInt(q.size()));
                    boolean blocking = shape.randomBlocking() && rnd.nextBoolean();
                    add(out, vt, new Event.Recv(c, blocking, new RecvOutcome.Delivered(
                            VAddr.ofNode(p[2], 100), VAddr.ofNode(c, 100), p[1], p[0], shape.deliveredPayload())));
                }
            }
            if (shape.violations() && rnd.nextInt(1000) == 0) add(out, vt, new Event.Violation("per-channel-fifo", "synthetic"));
        }
        add(out, vt, new Event.End(out.size() + 1, 0, 0));
        return out;
    }

    private static void add(List<LogRecord> out, long vt, Event e) {
        out.add(new LogRecord(out.size(), vt, e, 0, 0));
    }
}
