package dev.weft.launcher.shrink;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Runs a shrink so that Ctrl-C ends it cleanly: a shutdown hook stops the live runs and then holds the JVM until the
 * shrink has written its best plan so far (the shrink sees its runs stopped and writes; the exit status is then the
 * signal's, 130).
 */
final class Interruptible {
    /** Long enough for the last outputs to be renamed into place; a hung writer must not keep the JVM forever. */
    private static final long WRITE_WAIT_SECS = 120;

    interface Body {
        int call() throws IOException, ShrinkException;
    }

    private final Runnable stop;

    Interruptible(Runnable stop) {
        this.stop = stop;
    }

    /** The body's exit status, or {@code error}'s for the one-line message of an I/O or shrink problem. */
    int call(Body body, Function<String, Integer> error) {
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.run();
            try {
                done.await(WRITE_WAIT_SECS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "shrink-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return body.call();
        } catch (IOException e) {
            return error.apply(dev.weft.text.OsErrorText.of(e));
        } catch (ShrinkException e) {
            return error.apply(e.getMessage());
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down (Ctrl-C): the hook is running and now lets it exit
            }
        }
    }
}
