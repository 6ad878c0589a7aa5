package dev.weft.app.vm;

import dev.weft.app.source.RecordingSource;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Event lines for the table and the hover text without reading the file on the UI thread: a bounded LRU of
 * blocks of {@link #BLOCK} consecutive lines, each block read in the background the first time a missing op
 * is asked for. Callers get null (show {@link #PLACEHOLDER}) and redraw when {@link #revisionProperty()} moves.
 *
 * <p>All methods are for the UI thread; only the block reads run on the worker. When the user scrolls faster
 * than blocks are read, requests that fell more than {@link #KEEP_LATEST} requests behind are dropped (the
 * revision still moves, so a row that is still on screen asks again).
 */
public final class EventLines {

    public static final String PLACEHOLDER = "…";
    public static final int BLOCK = 256;
    /** 64 blocks of 256 lines: enough for several screens around the view, a few MB at most. */
    public static final int DEFAULT_MAX_BLOCKS = 64;
    static final int KEEP_LATEST = 8;

    private final RecordingSource source;
    private final TaskRunner runner;
    private final LinkedHashMap<Integer, String[]> blocks;
    private final Map<Integer, Long> inFlight = new HashMap<>();   // block -> request number
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper(this, "revision", 0);
    private long requests;
    private volatile long latestRequest;

    public EventLines(RecordingSource source, TaskRunner runner) {
        this(source, runner, DEFAULT_MAX_BLOCKS);
    }

    public EventLines(RecordingSource source, TaskRunner runner, int maxBlocks) {
        this.source = source;
        this.runner = runner;
        this.blocks = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, String[]> eldest) {
                return size() > maxBlocks;
            }
        };
    }

    /** Moves (on the UI thread) each time a block arrives or a request is dropped: redraw what shows a placeholder. */
    public ReadOnlyLongProperty revisionProperty() { return revision.getReadOnlyProperty(); }

    /** The event line of op if cached; otherwise null, and its block is requested. Never touches the source. */
    public String lineOrRequest(int op) {
        if (op < 0 || op >= source.size()) return null;
        int block = op / BLOCK;
        String[] lines = blocks.get(block);
        if (lines != null) return lines[op - block * BLOCK];
        request(block);
        return null;
    }

    /** Blocks held now (for tests: the cache stays bounded). */
    public int cachedBlocks() { return blocks.size(); }

    private void request(int block) {
        long n = ++requests;
        latestRequest = n;
        Long queued;
        synchronized (inFlight) {   // the worker reads it to decide whether a queued request is stale
            queued = inFlight.put(block, n);
        }
        if (queued != null) return;   // already queued; now counts as recent
        runner.background(() -> {
            if (latestRequest - n >= KEEP_LATEST && !stillWanted(block)) {
                runner.ui(() -> arrived(block, null));
                return;
            }
            String[] lines = read(block);
            runner.ui(() -> arrived(block, lines));
        });
    }

    /** Read from the worker: true when the block was asked for again recently (its entry was renewed). */
    private boolean stillWanted(int block) {
        Long last;
        synchronized (inFlight) {
            last = inFlight.get(block);
        }
        return last != null && latestRequest - last < KEEP_LATEST;
    }

    private String[] read(int block) {
        int from = block * BLOCK;
        int to = Math.min(source.size(), from + BLOCK);
        try {
            return source.eventLines(from, to); // one read for the whole block where the source can
        } catch (RuntimeException blockFailed) {
            // Fall back op by op so one unreadable record does not blank its neighbours.
            String[] lines = new String[to - from];
            for (int op = from; op < to; op++) {
                try {
                    lines[op - from] = source.eventLine(op);
                } catch (RuntimeException e) {
                    lines[op - from] = "(cannot read op " + op + ": " + e.getMessage() + ")";
                }
            }
            return lines;
        }
    }

    private void arrived(int block, String[] lines) {
        synchronized (inFlight) {
            inFlight.remove(block);
        }
        if (lines != null) blocks.put(block, lines);
        revision.set(revision.get() + 1);
    }
}
