package dev.weft.launcher.run;

import dev.weft.history.HistoryEvent;
import dev.weft.history.HistoryFile;
import dev.weft.history.HistoryFormatException;
import dev.weft.io.AtomicFile;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Collects the history lines ({@code WEFT-HISTORY {…}}, docs/history.md) the nodes of a recorded cluster run print
 * on stdout into {@code <recording>.history.jsonl}: each event stamped with the node that printed it, all of them
 * ordered by the virtual time the program put in {@code time}, then node id, then the node's own print order —
 * never by when a line reached this JVM, so a run whose nodes behave the same writes the same bytes.
 *
 * <p>Why the program's time: only the node's shim knows its virtual clock when the operation happened; the line
 * reaches us later, through a pipe. In a windowed run the nodes' clocks are one timeline (the broker orders every
 * operation by them), so times compare across nodes; in a plain run each node's clock runs on its own, so times
 * compare only within a node, and a note says so when a plain run's history spans several nodes.
 *
 * <p>History lines are taken out of the node output echoed to the terminal while a recording is made (they are
 * data, and the file keeps them); without {@code --record} nothing is collected and they are printed as any line.
 */
final class HistoryCollector {

    /** One collected event and where it sorts. */
    private record Collected(long time, long node, long seq, String line) {
    }

    private final Path file;
    private final PrintStream err;
    /** Guarded by this. */
    private final List<Collected> events = new ArrayList<>();
    /** Lines seen per node so far (guarded by this): each node's print order. */
    private final Map<Long, Long> printed = new TreeMap<>();

    private HistoryCollector(Path file, PrintStream err) {
        this.file = file;
        this.err = err;
    }

    /** The collector of a run recording to {@code recording}; null: a run without a recording collects nothing. */
    static HistoryCollector of(Path recording, PrintStream err) {
        return new HistoryCollector(recording == null ? null : HistoryFile.beside(recording), err);
    }

    /** {@code echo}, with node {@code nodeId}'s history lines taken out and collected (when collecting). */
    NodeProcess.LineSink tap(long nodeId, NodeProcess.LineSink echo) {
        if (file == null) {
            return echo;
        }
        return (stderr, line, length) -> {
            if (stderr || !HistoryFile.isHistoryLine(line, length)) {
                echo.line(stderr, line, length);
                return;
            }
            collect(nodeId, line, length);
        };
    }

    private void collect(long nodeId, byte[] line, int length) {
        int end = length;
        while (end > 0 && (line[end - 1] == '\n' || line[end - 1] == '\r')) {
            end--;
        }
        byte[] json = Arrays.copyOfRange(line, HistoryFile.PREFIX.length(), end);
        long seq;
        synchronized (this) {
            seq = printed.merge(nodeId, 1L, Long::sum);
        }
        HistoryEvent e;
        try {
            e = HistoryFile.parse(json);
        } catch (HistoryFormatException ex) {
            err.println("weft run: node " + nodeId + ": history line " + seq + " ignored: " + ex.getMessage() + ": "
                    + new String(json, StandardCharsets.UTF_8));
            return;
        }
        HistoryEvent stamped = new HistoryEvent(0, nodeId, e.process(), e.type(), e.f(), e.key(), e.value(), e.time());
        synchronized (this) {
            events.add(new Collected(e.time(), nodeId, seq, HistoryFile.line(stamped)));
        }
    }

    /**
     * Writes the history beside the recording (atomically), or, when no node printed one, removes a history left
     * there by an earlier run (it described the recording this run replaced).
     */
    void write(boolean windowed) {
        if (file == null) {
            return;
        }
        List<Collected> sorted;
        synchronized (this) {
            sorted = new ArrayList<>(events);
        }
        try {
            if (sorted.isEmpty()) {
                Files.deleteIfExists(file);
                return;
            }
            sorted.sort(Comparator.comparingLong(Collected::time).thenComparingLong(Collected::node)
                    .thenComparingLong(Collected::seq));
            StringBuilder sb = new StringBuilder(sorted.size() * 96);
            TreeSet<Long> nodes = new TreeSet<>();
            for (Collected c : sorted) {
                sb.append(c.line());
                nodes.add(c.node());
            }
            AtomicFile.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
            err.println("history: " + sorted.size() + " event(s) from node(s) " + join(nodes) + " to " + file
                    + " (check: weft check history " + file + " --model M)");
            if (!windowed && nodes.size() > 1) {
                err.println("weft run: note: a plain run's nodes keep their own virtual clocks: the history's times"
                        + " compare across nodes only in windowed runs (--window; docs/history.md)");
            }
        } catch (IOException e) {
            err.println("weft run: cannot write the history " + file + ": " + OsErrorText.of(e));
        }
    }

    /** The run was discarded with its recording: no history is kept either. */
    void discard() {
        if (file == null) {
            return;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            err.println("weft run: cannot remove the history " + file + ": " + OsErrorText.of(e));
        }
    }

    private static String join(TreeSet<Long> nodes) {
        StringBuilder sb = new StringBuilder();
        for (Long n : nodes) {
            sb.append(sb.length() == 0 ? "" : ",").append(n);
        }
        return sb.toString();
    }
}
