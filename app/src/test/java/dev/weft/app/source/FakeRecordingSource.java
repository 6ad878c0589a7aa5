package dev.weft.app.source;

import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogMeta;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.testsupport.SyntheticRun;
import dev.weft.timeline.TimelineModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * An in-memory recording for view-model and UI tests: records built by a seeded generator, state derived
 * by folding the recorded events, and a per-channel FIFO check written from the spec.
 */
public class FakeRecordingSource implements RecordingSource {

    private final Path path;
    private final List<LogRecord> records;
    private final TimelineModel timeline;
    private final Verification verification;
    public volatile int stateCalls;
    private List<dev.weft.app.source.ViolationInfo> recordedViolations = List.of();

    /** The same source with violation records "written in the log" (as a live run's deadlock verdict is). */
    public FakeRecordingSource withRecordedViolations(List<dev.weft.app.source.ViolationInfo> recorded) {
        this.recordedViolations = List.copyOf(recorded);
        return this;
    }

    @Override public List<dev.weft.app.source.ViolationInfo> recordedViolations() { return recordedViolations; }

    public FakeRecordingSource(Path path, List<LogRecord> records, Verification verification) {
        this.path = path;
        this.records = records;
        this.timeline = TimelineModel.of(records);
        this.verification = verification;
    }

    public static FakeRecordingSource generated(long seed, int nodes, int ops) {
        return new FakeRecordingSource(Path.of("fake-" + seed + ".weftlog"), generate(seed, nodes, ops), Verification.verified("0123456789abcdef"));
    }

    @Override public Path path() { return path; }

    @Override public LogHeader header() {
        return new LogHeader("{}", "weft-log", 2, 7, "latency=uniform:1000-20000", 0, LogMeta.EMPTY);
    }

    @Override public int size() { return records.size(); }
    @Override public LogRecord record(int op) { return records.get(op); }
    @Override public TimelineModel timeline() { return timeline; }
    @Override public dev.weft.timeline.ReportLog reports() {
        dev.weft.timeline.ReportLog.Builder b = new dev.weft.timeline.ReportLog.Builder();
        records.forEach(b::add);
        return b.build();
    }
    @Override public Verification verification() { return verification; }
    @Override public String canonicalJson(int op) { return "{\"op\":" + op + ",\"e\":\"" + records.get(op).event().kind() + "\"}"; }
    @Override public List<String> availableInvariants() { return List.of("per-channel-fifo", "no-duplicate-delivery"); }

    @Override public String eventLine(int op) {
        Event e = records.get(op).event();
        if (e instanceof Event.Send s) return "conn " + s.conn() + " send " + s.src() + " → " + s.dst() + " seq " + s.chanSeq() + ": " + s.outcome().kind();
        if (e instanceof Event.Recv r) return "conn " + r.conn() + " recv: " + r.outcome().kind();
        return e.kind() + " " + e.connOrNone();
    }

    @Override public StateSnapshot stateAt(int op) {
        stateCalls++;
        TreeMap<Long, StateSnapshot.Pending> pending = new TreeMap<>();
        TreeMap<VAddr, Long> bindings = new TreeMap<>();
        TreeMap<String, StateSnapshot.ChannelSeq> chans = new TreeMap<>();
        long sent = 0, dropped = 0;
        for (int i = 0; i <= op; i++) {
            Event e = records.get(i).event();
            if (e instanceof Event.Bind b) bindings.put(b.addr(), b.conn());
            if (e instanceof Event.Send s) {
                sent++;
                if (s.outcome() instanceof SendOutcome.Dropped) dropped++;
                chans.put(s.src() + ">" + s.dst(), new StateSnapshot.ChannelSeq(s.src(), s.dst(), s.chanSeq() + 1));
                if (s.outcome() instanceof SendOutcome.Enqueued q) {
                    pending.put(q.tie(), new StateSnapshot.Pending(q.toConn(), s.src(), s.dst(), q.delivNs(), q.tie(), s.payload()));
                }
            }
            if (e instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered d) pending.remove(d.tie());
        }
        return new StateSnapshot(op, records.get(op).vt(), 0, sent, dropped, new ArrayList<>(pending.values()),
                bindings.entrySet().stream().map(x -> new StateSnapshot.Binding(x.getKey(), x.getValue())).toList(),
                new ArrayList<>(chans.values()));
    }

    @Override public List<ViolationInfo> check(Set<String> invariants, Progress progress) {
        List<ViolationInfo> out = new ArrayList<>();
        if (!invariants.contains("per-channel-fifo")) return out;
        Map<Long, long[]> seqOfTie = new HashMap<>();   // tie -> {chanSeq}
        Map<Long, String> chanOfTie = new HashMap<>();
        Map<String, Long> max = new HashMap<>();
        for (LogRecord r : records) {
            Event e = r.event();
            if (e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) {
                seqOfTie.put(q.tie(), new long[] {s.chanSeq()});
                chanOfTie.put(q.tie(), s.src() + " → " + s.dst());
            } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d && seqOfTie.containsKey(d.tie())) {
                long s = seqOfTie.get(d.tie())[0];
                String key = d.src() + " → " + d.dst();
                Long m = max.get(key);
                if (m != null && s < m) {
                    out.add(new ViolationInfo("per-channel-fifo", r.op(), r.vt(), "channel " + key + ": datagram with send order " + s + " delivered after send order " + m + " (reordered)"));
                } else {
                    max.put(key, s);
                }
            }
        }
        return out;
    }

    /** Nodes 0..nodes-1 on conns 0..nodes-1, random sends/recvs with reordering, drops and no-receivers. */
    public static List<LogRecord> generate(long seed, int nodes, int ops) {
        return SyntheticRun.withReports(seed, nodes, ops);
    }
}
