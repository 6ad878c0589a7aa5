package dev.weft.app.source;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogMeta;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.timeline.TimelineModel;
import dev.weft.vm.Json;
import dev.weft.vm.RecordedRun;
import dev.weft.vm.RunAssertions;
import dev.weft.vm.RunFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A SimFerret run directory ({@code weft vm record}) shown as a recording: one lane per guest process (the
 * agent, each server generation, the client, the checker), one op per normalized event of events.jsonl, in
 * console order (vt is the event number: guest timestamps are not part of the normalized events). Events are
 * mapped onto the timeline's marks: a request is a send, the server's echo the matching receive (drawn as an
 * arrow), a refused attempt a send without receiver, a lost answer a dropped send, process starts and exits
 * lifecycle marks, and the planned kill a violation mark on the run lane, so the failure stands out and the
 * violation bar jumps to it. The run's assertions are the invariants: checking them lists the failed ones.
 */
public final class RunDirectorySource implements RecordingSource {

    /** Fixed lane order for the known programs; other programs follow in order of appearance. */
    private static final List<String> KNOWN_LANES = List.of("agent", "server gen 1", "server gen 2", "client", "checker");

    private final Path dir;
    private final LogHeader header;
    private final List<String> lines;
    private final List<LogRecord> records;
    private final TimelineModel timeline;
    private final Verification verification;
    private final Map<String, RunAssertions.Assertion> assertions;

    private RunDirectorySource(Path dir, LogHeader header, List<String> lines, List<LogRecord> records, TimelineModel timeline,
            Verification verification, Map<String, RunAssertions.Assertion> assertions) {
        this.dir = dir;
        this.header = header;
        this.lines = lines;
        this.records = records;
        this.timeline = timeline;
        this.verification = verification;
        this.assertions = assertions;
    }

    /** True when the path is a run directory (it holds a SimFerret manifest and events). */
    public static boolean isRunDirectory(Path p) {
        return RecordedRun.isRunDirectory(p);
    }

    /** Opens the directory through vm's own reader ({@link RecordedRun}): its file names and formats are vm's. */
    public static RecordingSource open(Path dir, Progress progress) throws RecordingOpener.OpenException {
        RecordedRun run;
        try {
            run = RecordedRun.read(dir);
        } catch (RecordedRun.NotARun e) {
            throw new RecordingOpener.OpenException(e.getMessage());
        } catch (IOException e) {
            throw new RecordingOpener.OpenException(dir + ": " + e.getMessage());
        }
        List<String> lines = run.eventLines();
        Map<String, RunAssertions.Assertion> assertions = new LinkedHashMap<>();
        for (RunAssertions.Assertion a : run.assertions()) {
            assertions.put(a.name(), a);
        }
        Mapper mapper = new Mapper();
        List<LogRecord> records = new ArrayList<>(lines.size());
        TimelineModel.Builder builder = new TimelineModel.Builder(lines.size() + 1);
        for (int i = 0; i < lines.size(); i++) {
            JsonNode e;
            try {
                e = Json.MAPPER.readTree(lines.get(i));
            } catch (IOException bad) {
                throw new RecordingOpener.OpenException(dir.resolve(RunFiles.EVENTS) + ":" + (i + 1) + ": not JSON");
            }
            LogRecord r = new LogRecord(i, i, mapper.event(e), 0, i + 1);
            records.add(r);
            builder.add(r);
        }
        mapper.lanes.forEach((name, conn) -> builder.connectionLabel(conn, name));
        LogHeader header = new LogHeader(Json.compact(run.identity()), "simferret-run", 1, run.seed(), "guest", 0,
                LogMeta.label("SimFerret run " + run.runId()));
        String outcome = run.outcomeDigest();
        // The directory as recorded; `weft vm replay` is what verifies it against QEMU.
        Verification v = Verification.verified(outcome.startsWith("sha256:") ? outcome.substring(7, 23) : outcome);
        return new RunDirectorySource(dir, header, lines, List.copyOf(records), builder.build(), v, assertions);
    }

    /** Guest event to timeline event, with one connection (lane) per guest process. */
    private static final class Mapper {
        final Map<String, Long> lanes = new LinkedHashMap<>();
        private final Map<String, Long> pendingRequest = new HashMap<>(); // request id -> tie of its latest attempt
        private long nextTie = 1;

        Mapper() {
            for (String name : KNOWN_LANES) {
                lanes.put(name, (long) lanes.size() + 1);
            }
        }

        long lane(JsonNode e) {
            String p = e.path("p").asText("?");
            String name = p.equals("server") ? "server gen " + e.path("gen").asInt(1) : p;
            return lanes.computeIfAbsent(name, k -> (long) lanes.size() + 1);
        }

        Event event(JsonNode e) {
            long conn = lane(e);
            String kind = e.path("e").asText();
            String p = e.path("p").asText();
            VAddr self = VAddr.ofNode(conn, 7000);
            switch (p + "/" + kind) {
                case "client/req" -> {
                    long tie = nextTie++;
                    pendingRequest.put(e.path("id").asText(), tie);
                    return new Event.Send(conn, self, VAddr.ofNode(0, 7000), e.path("attempt").asLong(), 0,
                            e.path("payload").asText(), new SendOutcome.Enqueued(0, 0, tie));
                }
                case "server/echo" -> {
                    Long tie = pendingRequest.remove(e.path("id").asText());
                    return new Event.Recv(conn, true, new RecvOutcome.Delivered(VAddr.ofNode(lanes.get("client"), 7000), self, 0,
                            tie == null ? 0 : tie, e.path("id").asText()));
                }
                case "client/resp" -> {
                    return new Event.Recv(conn, true, new RecvOutcome.Delivered(self, self, 0, 0, e.path("got").asText()));
                }
                case "client/error" -> {
                    pendingRequest.remove(e.path("id").asText());
                    SendOutcome o = e.path("err").asText().equals("ECONNREFUSED") ? new SendOutcome.NoReceiver()
                            : new SendOutcome.Dropped();
                    return new Event.Send(conn, self, VAddr.ofNode(0, 7000), e.path("attempt").asLong(), 0, e.path("id").asText(), o);
                }
                case "server/listen" -> {
                    return new Event.Bind(conn, self);
                }
                case "agent/kill" -> {
                    return new Event.Violation("planned-failure", "the agent killed " + e.path("target").asText() + " (gen "
                            + e.path("gen").asInt() + ") with signal " + e.path("signal").asInt());
                }
                case "agent/end" -> {
                    return new Event.End(0, 0, 0);
                }
                case "agent/exit", "client/done", "checker/verdict" -> {
                    return new Event.Disconnect(conn);
                }
                default -> {
                    return new Event.Connect(conn);
                }
            }
        }
    }

    @Override public Path path() { return dir; }
    @Override public LogHeader header() { return header; }
    @Override public int size() { return records.size(); }
    @Override public LogRecord record(int op) { return records.get(op); }
    @Override public StateSnapshot stateAt(int op) { return StateSnapshot.empty(op); }
    @Override public TimelineModel timeline() { return timeline; }
    @Override public Verification verification() { return verification; }
    /** The normalized event exactly as events.jsonl holds it. */
    @Override public String canonicalJson(int op) { return lines.get(op); }

    /** "client req id=r0007 attempt=1 payload=…": the event's program and kind, then its fields. */
    @Override
    public String eventLine(int op) {
        try {
            JsonNode e = Json.MAPPER.readTree(lines.get(op));
            StringBuilder sb = new StringBuilder(e.path("p").asText()).append(' ').append(e.path("e").asText());
            e.fields().forEachRemaining(f -> {
                if (!f.getKey().equals("p") && !f.getKey().equals("e") && !f.getKey().equals("n")) {
                    sb.append(' ').append(f.getKey()).append('=').append(f.getValue().isTextual() ? f.getValue().asText() : f.getValue());
                }
            });
            return sb.toString();
        } catch (IOException e) {
            return lines.get(op);
        }
    }

    /** The failed assertions among the chosen ones, each at the last event (assertions judge the whole run). */
    @Override
    public List<ViolationInfo> check(Set<String> invariants, Progress progress) {
        List<ViolationInfo> out = new ArrayList<>();
        int last = Math.max(0, records.size() - 1);
        for (Map.Entry<String, RunAssertions.Assertion> a : assertions.entrySet()) {
            if (invariants.contains(a.getKey()) && !a.getValue().ok()) {
                out.add(new ViolationInfo(a.getKey(), last, last, a.getValue().detail()));
            }
        }
        return out;
    }

    /** The run's assertions (assertions.json), in file order. */
    @Override
    public List<String> availableInvariants() {
        return List.copyOf(assertions.keySet());
    }
}
