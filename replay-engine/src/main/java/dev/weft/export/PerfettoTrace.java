package dev.weft.export;

import dev.weft.protocol.PlacedViolation;
import dev.weft.protocol.ProtocolVerdicts;
import dev.weft.check.EventText;
import dev.weft.check.Invariant;
import dev.weft.check.Invariants;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.WeftLogException;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A recording as Trace Event JSON (the format the Perfetto UI and chrome://tracing open): one process "weft run",
 * a thread track per node (connections that never said hello get their own, violation and end records sit on
 * "run"), every record a zero-length slice named by its kind with the event line and op in its args, a flow
 * from each send to its delivery (id = the datagram's tie), and violations as global instant events: those
 * recorded in the log, those fifo/dup find on replay, and the verdict of the protocol the recording speaks
 * ({@link ProtocolVerdicts}).
 *
 * <p>Time: ts is the record's virtual time in microseconds (ns precision). Several records of one node often
 * share a virtual time; so that each keeps its own slice, such a record is nudged 1 ns after the previous one
 * on its track. The exact virtual time is always in args.vt_ns. Output is deterministic: the same recording
 * gives the same bytes.
 */
public final class PerfettoTrace {

    /** What was written, for the command's summary line and for tests. */
    public record Summary(long records, int tracks, long flows, long violations) { }

    static final int PID = 1;
    static final int RUN_TID = 1;

    private PerfettoTrace() { }

    /** Reads the recording twice (the checkers' verdicts are known only at its end) and writes the trace. */
    public static Summary write(Path log, OutputStream out) throws IOException, WeftLogException {
        Map<Long, Long> helloOf = new HashMap<>();   // conn -> node, from the first pass; lookups only
        List<PlacedViolation> protocol = firstPass(log, helloOf);
        Map<Long, List<PlacedViolation>> byOp = new HashMap<>(); // lookups only, never iterated
        for (PlacedViolation p : protocol) byOp.computeIfAbsent(p.op(), k -> new ArrayList<>()).add(p);
        JsonStreamWriter g = new JsonStreamWriter(out);
        long records = 0, flows = 0, violations = 0;
        Tracks tracks = new Tracks(helloOf);
        TcpTrace tcp = new TcpTrace();
        double lastTs = 0;
        try (LogReader reader = LogReader.open(log)) {
            LogHeader h = reader.header();
            g.startObject();
            g.string("displayTimeUnit", "ns");
            g.startObject("otherData");
            g.string("source", "weft convert " + log.getFileName() + " --to perfetto");
            g.string("seed", Long.toUnsignedString(h.seed()));
            g.string("net", h.net());
            g.endObject();
            g.startArray("traceEvents");
            meta(g, "process_name", 0, "weft run (seed " + Long.toUnsignedString(h.seed()) + ")");
            meta(g, "thread_name", RUN_TID, "run");
            List<Invariant> checks = Invariants.instantiate(List.of("per-channel-fifo", "no-duplicate-delivery"));
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                records++;
                Event e = r.event();
                int tid = tracks.of(e, g);
                double ts = tracks.stamp(tid, r.vt());
                g.startObject();
                g.string("ph", "X");
                g.string("name", name(e));
                g.string("cat", e.kind());
                g.number("pid", PID);
                g.number("tid", tid);
                g.number("ts", ts);
                g.number("dur", 0);
                g.startObject("args");
                g.number("op", r.op());
                g.string("vt_ns", Long.toUnsignedString(r.vt()));
                g.string("event", EventText.line(e));
                g.endObject();
                g.endObject();
                if (e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) {
                    flow(g, "s", "datagram", Long.toUnsignedString(q.tie()), tid, ts);
                } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
                    flow(g, "f", "datagram", Long.toUnsignedString(d.tie()), tid, ts);
                    flows++;
                }
                tcp.offer(e, g, tid, ts);
                lastTs = Math.max(lastTs, ts);
                if (e instanceof Event.Violation v) {
                    instant(g, "recorded violation: " + v.invariant(), "violation.recorded", ts, r.op(), v.message());
                    violations++;
                } else if (!(e instanceof Event.End)) {
                    for (Invariant i : checks) {
                        String msg = i.offer(r.op(), r.vt(), e);
                        if (msg != null) {
                            instant(g, "violation: " + i.name(), "violation.check", ts, r.op(), msg);
                            violations++;
                        }
                    }
                }
                for (PlacedViolation p : byOp.getOrDefault(r.op(), List.of())) {
                    instant(g, "violation: " + p.invariant(), "violation.protocol", ts, r.op(), p.detail());
                    violations++;
                }
            }
            tcp.finish(g, lastTs);
            g.endArray();
            g.endObject();
        } finally {
            g.flush();
        }
        return new Summary(records, tracks.count(), flows + tcp.flows(), violations);
    }

    /**
     * The first read: which node each connection says hello as (so its connect, made before the hello, already
     * sits on the node's track), and the violations of the protocol whose shape the reports fit.
     */
    private static List<PlacedViolation> firstPass(Path log, Map<Long, Long> helloOf) throws IOException, WeftLogException {
        ProtocolVerdicts verdicts = new ProtocolVerdicts();
        try (LogReader reader = LogReader.open(log)) {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                if (r.event() instanceof Event.Hello h) helloOf.putIfAbsent(h.conn(), h.node());
                verdicts.accept(r);
            }
        }
        return verdicts.placed();
    }

    private static String name(Event e) {
        if (e instanceof Event.Send s) {
            if (s.outcome() instanceof SendOutcome.Dropped) return "send (dropped)";
            if (s.outcome() instanceof SendOutcome.NoReceiver) return "send (no receiver)";
            return "send";
        }
        if (e instanceof Event.Recv r) return r.outcome() instanceof RecvOutcome.Delivered ? "recv" : "recv (empty)";
        if (e instanceof Event.Violation v) return "VIOLATION " + v.invariant();
        String tcp = TcpTrace.name(e);
        return tcp != null ? tcp : e.kind();
    }

    private static void meta(JsonStreamWriter g, String what, int tid, String name) throws IOException {
        startMeta(g, what, tid);
        g.string("name", name);
        g.endObject();
        g.endObject();
        if (what.equals("thread_name")) {
            startMeta(g, "thread_sort_index", tid);
            g.number("sort_index", tid);
            g.endObject();
            g.endObject();
        }
    }

    /** Opens a metadata event ({@code "ph":"M"}) of track {@code tid}, up to its open {@code args} object. */
    private static void startMeta(JsonStreamWriter g, String what, int tid) throws IOException {
        g.startObject();
        g.string("ph", "M");
        g.string("name", what);
        g.number("pid", PID);
        g.number("tid", tid);
        g.startObject("args");
    }

    /**
     * A flow event: {@code ph} "s" where the arrow starts, "f" where it ends (bound to the enclosing slice); the
     * datagrams here and the TCP segments in {@link TcpTrace} are drawn with it.
     */
    static void flow(JsonStreamWriter g, String ph, String name, String id, int tid, double ts) throws IOException {
        g.startObject();
        g.string("ph", ph);
        g.string("name", name);
        g.string("cat", "flow");
        g.string("id", id);
        g.number("pid", PID);
        g.number("tid", tid);
        g.number("ts", ts);
        if (ph.equals("f")) g.string("bp", "e");
        g.endObject();
    }

    private static void instant(JsonStreamWriter g, String name, String cat, double ts, long op, String message) throws IOException {
        g.startObject();
        g.string("ph", "i");
        g.string("s", "g");
        g.string("name", name);
        g.string("cat", cat);
        g.number("pid", PID);
        g.number("tid", RUN_TID);
        g.number("ts", ts);
        g.startObject("args");
        g.number("op", op);
        g.string("message", message);
        g.endObject();
        g.endObject();
    }

    /** Thread ids: node lanes by hello, connections without hello on their own, the run lane for the rest. */
    private static final class Tracks {
        private final Map<Long, Integer> nodeTid = new HashMap<>();   // lookups only, never iterated
        private final Map<Long, Integer> connTid = new HashMap<>();   // lookups only
        private final Map<Long, Long> connNode;                       // lookups only
        private final Map<Integer, Long> lastNs = new HashMap<>();    // lookups only
        private int next = RUN_TID + 1;

        Tracks(Map<Long, Long> helloOf) {
            this.connNode = helloOf;
        }

        int of(Event e, JsonStreamWriter g) throws IOException {
            long conn = e.connOrNone();
            if (conn < 0 || e instanceof Event.Violation || e instanceof Event.End) return RUN_TID;
            Long node = connNode.get(conn);
            return node != null ? track(nodeTid, node, "node ", g) : track(connTid, conn, "conn ", g);
        }

        /** The track of {@code key} in {@code tids}, numbered and named ({@code label} + key) on its first event. */
        private int track(Map<Long, Integer> tids, long key, String label, JsonStreamWriter g) throws IOException {
            Integer t = tids.get(key);
            if (t == null) {
                t = next++;
                tids.put(key, t);
                meta(g, "thread_name", t, label + Long.toUnsignedString(key));
            }
            return t;
        }

        /** The vt in µs, nudged 1 ns past the previous slice of the track so slices never coincide. */
        double stamp(int tid, long vtNs) {
            Long last = lastNs.get(tid);
            long ns = last == null || Long.compareUnsigned(vtNs, last) > 0 ? vtNs : last + 1;
            lastNs.put(tid, ns);
            return ns / 1000.0;
        }

        int count() {
            return next - 1;
        }
    }
}
