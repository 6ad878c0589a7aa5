package dev.weft.launcher.campaign;

import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;

/**
 * Progress on stderr: runs done, rate, ETA and hits per cell. On a terminal one line is redrawn in place; otherwise
 * a line is printed at most every 10 s (and at the end), so logs of batch jobs stay short. Wall-clock figures go
 * only here, never into the report.
 */
final class CampaignProgress {
    private final PrintStream err;
    private final boolean terminal = System.console() != null;
    private final long total;
    private final long before;
    private final long start = System.nanoTime();
    private long lastPrint;
    /** The tallies so far: runs done in this process, and hits per cell. */
    private long done;
    private final Map<String, Integer> hits = new TreeMap<>();

    CampaignProgress(PrintStream err, long total, long before) {
        this.err = err;
        this.total = total;
        this.before = before;
    }

    synchronized void done(String cell, String verdict) {
        done++;
        hits.merge(cell, verdict.equals("VIOLATION") ? 1 : 0, Integer::sum);
        long now = System.nanoTime();
        if (terminal || now - lastPrint > 10_000_000_000L || done == total) {
            lastPrint = now;
            print();
        }
    }

    private void print() {
        double secs = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        double rate = done / secs;
        long eta = rate > 0 ? Math.round((total - done) / rate) : 0;
        StringBuilder sb = new StringBuilder();
        sb.append(before + done).append('/').append(before + total).append(" runs, ")
                .append(String.format(java.util.Locale.ROOT, "%.2f", rate)).append(" runs/s, ETA ")
                .append(eta / 60).append('m').append(String.format("%02d", eta % 60)).append("s, hits");
        hits.forEach((c, n) -> sb.append(' ').append(c).append(':').append(n));
        if (terminal) {
            err.print("\r\033[K" + sb);
        } else {
            err.println("campaign: " + sb);
        }
    }

    synchronized void finish() {
        if (terminal && done > 0) { // on a terminal every run done redrew the line: end it
            err.println();
        }
    }
}
