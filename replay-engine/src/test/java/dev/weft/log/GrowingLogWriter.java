package dev.weft.log;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test recorder: a thread that appends a log's bytes to a file in random pieces (often ending mid-line) with
 * random pauses, seeded, publishing how many bytes it is about to have written before it writes them.
 */
public final class GrowingLogWriter {

    private GrowingLogWriter() {
    }

    /** An unstarted thread appending {@code log} to {@code file}; {@code written} never trails the file's length. */
    public static Thread of(byte[] log, Path file, long seed, AtomicLong written) {
        return new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
                int at = 0;
                while (at < log.length) {
                    int n = Math.min(log.length - at, 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 6000));
                    written.set(at + n); // published first: the file never holds more than this
                    out.write(log, at, n);
                    out.flush();
                    at += n;
                    if (rnd.nextInt(4) == 0) {
                        Thread.sleep(rnd.nextInt(4));
                    }
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "test-log-writer");
    }
}
