package dev.weft.fuzz;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** {@code record(...)} of fuzz.md §4 — waits for the log writer (branch log); until then no file is written. */
public final class Reproducer {

    private Reproducer() {
    }

    public static void record(Path path, long seed, String net, List<Op> ops, List<String> invariants, String label)
            throws IOException {
        throw new IOException("the weft-log writer is not available yet");
    }
}
