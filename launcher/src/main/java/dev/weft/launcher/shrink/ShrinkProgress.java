package dev.weft.launcher.shrink;

import java.io.PrintStream;

/**
 * Progress on stderr, one line per live run: {@code shrink: run R, D deviation(s) of N} (R runs done, D the size of
 * the smallest failing plan so far, N the original plan's). This line is a contract: the workbench's Tools ▸ Shrink…
 * parses it. On a terminal the line is redrawn in place; otherwise every run prints its own line.
 */
final class ShrinkProgress {
    private final PrintStream err;
    private final boolean terminal;
    private final int total;
    private int runs;
    private int size;
    private boolean open;

    ShrinkProgress(PrintStream err, boolean terminal, int total) {
        this.err = err;
        this.terminal = terminal;
        this.total = total;
        this.size = total;
    }

    /** The progress line, as printed. */
    static String line(int runs, int size, int total) {
        return "shrink: run " + runs + ", " + size + " deviation(s) of " + total;
    }

    /** A live run finished (of a candidate of {@code candidateSize} deviations). */
    synchronized void ran(int candidateSize, boolean fails) {
        runs++;
        print();
    }

    /** The smallest failing plan now has {@code size} deviations. */
    synchronized void adopted(int size) {
        this.size = size;
    }

    synchronized int runs() {
        return runs;
    }

    /** Counts the runs made before shrinking (recording the seed, the whole plan's run). */
    synchronized void ranBeforeShrinking() {
        runs++;
    }

    /** A message of its own line (ends a redrawn progress line first). */
    synchronized void say(String message) {
        finish();
        err.println(message);
    }

    private void print() {
        String l = line(runs, size, total);
        if (terminal) {
            err.print("\r\033[K" + l);
            open = true;
        } else {
            err.println(l);
        }
    }

    synchronized void finish() {
        if (open) {
            err.println();
            open = false;
        }
    }
}
