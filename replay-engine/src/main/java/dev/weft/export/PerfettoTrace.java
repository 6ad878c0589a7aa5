package dev.weft.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.weft.check.EventText;
import dev.weft.check.Invariant;
import dev.weft.check.Invariants;
import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordTimeline;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.WeftLogException;
import dev.weft.raft.RaftCheck;

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
 * recorded in the log, those fifo/dup find on replay, and the Chord / Raft checkers' verdicts.
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
        List<ProtocolViolations.Placed> protocol = firstPass(log, helloOf);
        Map<Long, List<ProtocolViolations.Placed>> byOp = new HashMap<>(); // lookups only, never iterated
        for (ProtocolViolations.Placed p : protocol) byOp.computeIfAbsent(p.op(), k -> new ArrayList<>()).add(p);
        JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8);
        long records = 0, flows = 0, violations = 0;
        Tracks tracks = new Tracks(helloOf);
        try (LogReader reader = LogReader.open(log)) {
            LogHeader h = reader.header();
            g.writeStartObject();
            g.writeStringField("displayTimeUnit", "ns");
            g.writeObjectFieldStart("otherData");
            g.writeStringField("source", "weft convert " + log.getFileName() + " --to perfetto");
            g.writeStringField("seed", Long.toUnsignedString(h.seed()));
            g.writeStringField("net", h.net());
            g.writeEndObject();
            g.writeArrayFieldStart("traceEvents");
            meta(g, "process_name", 0, "weft run (seed " + Long.toUnsignedString(h.seed()) + ")");
            meta(g, "thread_name", RUN_TID, "run");
            List<Invariant> checks = Invariants.instantiate(List.of("per-channel-fifo", "no-duplicate-delivery"));
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                records++;
                Event e = r.event();
                int tid = tracks.of(e, g);
                double ts = tracks.stamp(tid, r.vt());
                g.writeStartObject();
                g.writeStringField("ph", "X");
                g.writeStringField("name", name(e));
                g.writeStringField("cat", e.kind());
                g.writeNumberField("pid", PID);
                g.writeNumberField("tid", tid);
                g.writeNumberField("ts", ts);
                g.writeNumberField("dur", 0);
                g.writeObjectFieldStart("args");
                g.writeNumberField("op", r.op());
                g.writeStringField("vt_ns", Long.toUnsignedString(r.vt()));
                g.writeStringField("event", EventText.line(e));
                g.writeEndObject();
                g.writeEndObject();
                if (e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) {
                    flow(g, "s", q.tie(), tid, ts);
                } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
                    flow(g, "f", d.tie(), tid, ts);
                    flows++;
                }
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
                for (ProtocolViolations.Placed p : byOp.getOrDefault(r.op(), List.of())) {
                    instant(g, "violation: " + p.invariant(), "violation.protocol", ts, r.op(), p.detail());
                    violations++;
                }
            }
            g.writeEndArray();
            g.writeEndObject();
        } finally {
            g.flush();
        }
        return new Summary(records, tracks.count(), flows, violations);
    }

    /**
     * The first read: which node each connection says hello as (so its connect, made before the hello, already
     * sits on the node's track), and the Chord or Raft checkers' violations, by which checker the reports fit.
     */
    private static List<ProtocolViolations.Placed> firstPass(Path log, Map<Long, Long> helloOf) throws IOException, WeftLogException {
        ChordTimeline.Builder chord = new ChordTimeline.Builder(6);
        ChordCheck chordCheck = new ChordCheck(6);
        RaftCheck raft = new RaftCheck();
        boolean raftShaped = true;
        long reports = 0;
        try (LogReader reader = LogReader.open(log)) {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                if (r.event() instanceof Event.Hello h) helloOf.putIfAbsent(h.conn(), h.node());
                chord.accept(r);
                chordCheck.accept(r);
                raft.accept(r);
                dev.weft.raft.RaftReport rr = dev.weft.raft.RaftReport.fromSend(r);
                if (rr != null) {
                    reports++;
                    // A Chord report carries identifiers where Raft has role 0..2 and votedFor >= -1.
                    if (rr.role() < 0 || rr.role() > 2 || rr.term() < 0 || rr.votedFor() < -1) raftShaped = false;
                }
            }
        }
        if (reports == 0) return List.of();
        return raftShaped ? ProtocolViolations.raft(raft.result()) : ProtocolViolations.chord(chord.build(), chordCheck.result());
    }

    private static String name(Event e) {
        if (e instanceof Event.Send s) {
            if (s.outcome() instanceof SendOutcome.Dropped) return "send (dropped)";
            if (s.outcome() instanceof SendOutcome.NoReceiver) return "send (no receiver)";
            return "send";
        }
        if (e instanceof Event.Recv r) return r.outcome() instanceof RecvOutcome.Delivered ? "recv" : "recv (empty)";
        if (e instanceof Event.Violation v) return "VIOLATION " + v.invariant();
        return e.kind();
    }

    private static void meta(JsonGenerator g, String what, int tid, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "M");
        g.writeStringField("name", what);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeEndObject();
        if (what.equals("thread_name")) {
            g.writeStartObject();
            g.writeStringField("ph", "M");
            g.writeStringField("name", "thread_sort_index");
            g.writeNumberField("pid", PID);
            g.writeNumberField("tid", tid);
            g.writeObjectFieldStart("args");
            g.writeNumberField("sort_index", tid);
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    private static void flow(JsonGenerator g, String ph, long tie, int tid, double ts) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", ph);
        g.writeStringField("name", "datagram");
        g.writeStringField("cat", "flow");
        g.writeStringField("id", Long.toUnsignedString(tie));
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeNumberField("ts", ts);
        if (ph.equals("f")) g.writeStringField("bp", "e");
        g.writeEndObject();
    }

    private static void instant(JsonGenerator g, String name, String cat, double ts, long op, String message) throws IOException {
        g.writeStartObject();
        g.writeStringField("ph", "i");
        g.writeStringField("s", "g");
        g.writeStringField("name", name);
        g.writeStringField("cat", cat);
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", RUN_TID);
        g.writeNumberField("ts", ts);
        g.writeObjectFieldStart("args");
        g.writeNumberField("op", op);
        g.writeStringField("message", message);
        g.writeEndObject();
        g.writeEndObject();
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

        int of(Event e, JsonGenerator g) throws IOException {
            long conn = e.connOrNone();
            if (conn < 0 || e instanceof Event.Violation || e instanceof Event.End) return RUN_TID;
            Long node = connNode.get(conn);
            if (node != null) {
                Integer t = nodeTid.get(node);
                if (t == null) {
                    t = next++;
                    nodeTid.put(node, t);
                    meta(g, "thread_name", t, "node " + Long.toUnsignedString(node));
                }
                return t;
            }
            Integer t = connTid.get(conn);
            if (t == null) {
                t = next++;
                connTid.put(conn, t);
                meta(g, "thread_name", t, "conn " + Long.toUnsignedString(conn));
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
