package dev.weft.app.vm;

import dev.weft.findings.RecordingHistory;
import dev.weft.findings.TcpSends;
import dev.weft.history.Finding;
import dev.weft.history.HistoryEvent;
import dev.weft.history.HistoryFile;
import dev.weft.history.HistoryFormatException;
import dev.weft.history.HistoryModel;
import dev.weft.history.HistoryText;
import dev.weft.history.Operation;
import dev.weft.timeline.TimelineModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The History tab (docs/workbench.md): the client history {@code weft run} wrote beside the recording, checked with
 * the model its operations imply, as one row per client of operation bars on virtual time, the findings, and each
 * operation linked to the recording's op at its virtual time: its node's first TCP write or connect at or after it
 * when the client speaks TCP, else the first op at or after it (an approximation in plain runs, whose record times
 * are the broker's).
 */
public final class HistoryLaneViewModel {

    /**
     * One operation: its client row, where it sits in the recording, the finding it belongs to (-1: none), and whether
     * the finding's words name it (the lost add and the read that misses it; every operation of a finding that names
     * none), which the lane draws strongest.
     */
    public record Row(Operation op, int client, int logOp, int finding, boolean named) {
        public String what() {
            return HistoryText.what(op);
        }

        public String line() {
            return HistoryText.line(op);
        }
    }

    private final Path file;
    private final String problem;
    /** The history read and judged, or null when it could not be read. */
    private final RecordingHistory history;
    private final String verdict;
    private final List<Row> rows;
    private final List<String> clients;

    private HistoryLaneViewModel(Path file, String problem, RecordingHistory history, String verdict, List<Row> rows,
                                 List<String> clients) {
        this.file = file;
        this.problem = problem;
        this.history = history;
        this.verdict = verdict;
        this.rows = rows;
        this.clients = clients;
    }

    /** The history beside {@code recording}, checked and placed on {@code timeline}; null when there is none. */
    public static HistoryLaneViewModel load(Path recording, TimelineModel timeline) {
        return load(recording, timeline, null);
    }

    /**
     * As {@link #load(Path, TimelineModel)}, and with the recording's records: an operation of a client that speaks
     * TCP is placed on its node's first write or connect made at or after its invocation (its request), not on
     * the first op recorded after that time (see {@link TcpSends}).
     */
    public static HistoryLaneViewModel load(Path recording, TimelineModel timeline,
                                            java.util.function.IntFunction<dev.weft.log.LogRecord> records) {
        if (recording == null) {
            return null;
        }
        Path file = HistoryFile.beside(recording);
        try {
            RecordingHistory h = RecordingHistory.beside(recording);
            if (h == null) {
                return null;
            }
            List<Operation> ops = h.operations();
            Map<String, Integer> clientIds = new LinkedHashMap<>();
            TreeSet<String> names = new TreeSet<>(java.util.Comparator.comparingLong(RecordingHistory::nodeOf)
                    .thenComparingLong(HistoryLaneViewModel::processOf));
            ops.forEach(o -> names.add(o.client()));
            for (String n : names) {
                clientIds.put(n, clientIds.size());
            }
            TcpSends sends = tcpSends(timeline, records);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                Operation op = ops.get(i);
                int logOp = RecordingHistory.placeOperation(op, sends, timeline::firstOpNotBeforeVt, timeline.size());
                rows.add(new Row(op, clientIds.get(op.client()), logOp, h.findingOf(i), h.named(i)));
            }
            String verdict = h.verdict().text().lines().filter(l -> l.startsWith("verdict")).findFirst().orElse("")
                    .replaceFirst("^verdict\\s*:\\s*", "");
            return new HistoryLaneViewModel(file, null, h, verdict, rows, List.copyOf(clientIds.keySet()));
        } catch (HistoryFormatException e) {
            return new HistoryLaneViewModel(file, e.getMessage(), null, "unreadable", List.of(), List.of());
        }
    }

    /** The recording's TCP writes and connects by node, read from every record once; none when it has no TCP. */
    private static TcpSends tcpSends(TimelineModel timeline, java.util.function.IntFunction<dev.weft.log.LogRecord> records) {
        if (records == null || !timeline.hasTcp()) {
            return TcpSends.NONE;
        }
        TcpSends.Builder b = new TcpSends.Builder();
        for (int op = 0; op < timeline.size(); op++) {
            b.add(records.apply(op));
        }
        return b.build();
    }

    private static long processOf(String client) {
        String[] w = client.split(" ");
        return Long.parseLong(w[w.length - 1]);
    }

    /**
     * The model a history's operations imply (the file does not name one): list-append if it appends, set if it
     * adds, kv if its operations name keys, else cas-register (which judges read/write histories as a register).
     */
    public static HistoryModel inferModel(List<HistoryEvent> events) {
        return RecordingHistory.inferModel(events);
    }

    public Path file() { return file; }

    /** The file's problem (one line naming file and line), or null when it was read. */
    public String problem() { return problem; }

    public HistoryModel model() { return history == null ? null : history.model(); }

    /** "OK — linearizable", "VIOLATION — 1 object not linearizable", … */
    public String verdict() { return verdict; }

    public List<Finding> findings() { return history == null ? List.of() : history.findings(); }

    /**
     * The findings as ranked findings of the recording, at the ops {@link #logOpOf} gives ({@link
     * RecordingHistory#asFindings}, which {@code weft explain} lists too).
     */
    public List<dev.weft.findings.Finding> asFindings(TimelineModel timeline) {
        if (history == null) return List.of();
        return history.asFindings(i -> rows.get(i).logOp(), timeline::vt, timeline.size());
    }

    /** Every operation in invocation order. */
    public List<Row> rows() { return rows; }

    /** The client of each row index ("node 0 process 1"), in node then process order. */
    public List<String> clients() { return clients; }

    /** The rows of finding {@code i}. */
    public List<Row> rowsOf(int finding) {
        return rows.stream().filter(r -> r.finding() == finding).toList();
    }

    /** The recording's op to show for finding {@code i}: where its last named operation was invoked. */
    public int logOpOf(int finding) {
        List<Row> rs = rowsOf(finding).stream().filter(Row::named).toList();
        return rs.isEmpty() ? -1 : rs.get(rs.size() - 1).logOp();
    }

    /**
     * Where virtual time {@code t} sits on the lane, from 0 to 1. The axis is the history's order of instants, each
     * distinct invocation or completion time one equal step (times between two instants are placed proportionally):
     * a linear axis would squeeze a burst of quick operations into a pixel beside one slow read.
     */
    public double position(long t) {
        long[] instants = instants();
        if (instants.length < 2) {
            return 0;
        }
        int i = java.util.Arrays.binarySearch(instants, t);
        if (i >= 0) {
            return (double) i / (instants.length - 1);
        }
        int after = -i - 1;
        if (after == 0) {
            return 0;
        }
        if (after >= instants.length) {
            return 1;
        }
        double within = (double) (t - instants[after - 1]) / (instants[after] - instants[after - 1]);
        return (after - 1 + within) / (instants.length - 1);
    }

    private long[] instantsCache;

    private long[] instants() {
        if (instantsCache == null) {
            TreeSet<Long> all = new TreeSet<>();
            for (Row r : rows) {
                all.add(r.op().invokeTime());
                if (!r.op().indeterminate()) {
                    all.add(r.op().completeTime());
                }
            }
            instantsCache = all.stream().mapToLong(Long::longValue).toArray();
        }
        return instantsCache;
    }
}
