package dev.weft.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A recorder stand-in for tests of following a log while it is written: a thread appends the bytes of a finished
 * recording to a file in seeded random pieces (often ending mid-line) with short pauses, and can hold at a byte
 * offset until the test lets it go on ({@link #release()}), so a test can look at a half-written recording.
 */
public final class GrowingFile {

    private final byte[] content;
    private final Path file;
    private final long seed;
    private final int[] holds;
    private final CountDownLatch[] held;
    private final CountDownLatch[] released;
    private int nextRelease;
    private final Thread thread;
    private volatile Throwable failure;

    private GrowingFile(byte[] content, Path file, long seed, int[] holds, int maxPiece, int pauseMillis) {
        this.content = content;
        this.file = file;
        this.seed = seed;
        this.holds = holds.clone();
        held = new CountDownLatch[holds.length];
        released = new CountDownLatch[holds.length];
        for (int i = 0; i < holds.length; i++) {
            held[i] = new CountDownLatch(1);
            released[i] = new CountDownLatch(1);
        }
        thread = new Thread(() -> write(maxPiece, pauseMillis), "test-growing-file");
        thread.setDaemon(true);
    }

    /**
     * Starts writing {@code content} to {@code file} (created empty now): pieces of 1..{@code maxPiece} bytes, a pause
     * of up to {@code pauseMillis} after each; it stops at each of the increasing byte offsets {@code holds} until
     * {@link #release()}.
     */
    public static GrowingFile start(byte[] content, Path file, long seed, int maxPiece, int pauseMillis, int... holds)
            throws IOException {
        Files.write(file, new byte[0]);
        GrowingFile g = new GrowingFile(content, file, seed, holds, maxPiece, pauseMillis);
        g.thread.start();
        return g;
    }

    /** The byte offset just after the {@code n}-th newline of {@code content} (n complete lines), or its length. */
    public static int afterLines(byte[] content, int n) {
        int lines = 0;
        for (int i = 0; i < content.length; i++) {
            if (content[i] == '\n' && ++lines == n) return i + 1;
        }
        return content.length;
    }

    private void write(int maxPiece, int pauseMillis) {
        SplittableRandom rnd = new SplittableRandom(seed);
        try (OutputStream out = Files.newOutputStream(file, StandardOpenOption.APPEND)) {
            int at = 0;
            int hold = 0;
            while (at < content.length) {
                if (hold < holds.length && at == holds[hold]) {
                    held[hold].countDown();
                    released[hold].await();
                    hold++;
                }
                int end = Math.min(content.length, at + 1 + rnd.nextInt(Math.max(1, maxPiece)));
                if (hold < holds.length && at < holds[hold] && end > holds[hold]) end = holds[hold];
                out.write(content, at, end - at);
                out.flush();
                at = end;
                if (pauseMillis > 0) Thread.sleep(rnd.nextInt(pauseMillis + 1));
            }
        } catch (Throwable e) {
            failure = e;
        } finally {
            for (CountDownLatch h : held) h.countDown();
        }
    }

    /** Waits until the writer holds at the next offset not yet released (or has finished); false on timeout. */
    public boolean awaitHeld(long seconds) throws InterruptedException {
        return nextRelease >= held.length || held[nextRelease].await(seconds, TimeUnit.SECONDS);
    }

    /** Lets the writer go on from where it holds (or will hold next) to its next offset or the end. */
    public void release() {
        if (nextRelease < released.length) released[nextRelease++].countDown();
    }

    /** Releases every hold, waits for the writer to finish and rethrows what stopped it. */
    public void join(long seconds) throws InterruptedException {
        while (nextRelease < released.length) release();
        thread.join(TimeUnit.SECONDS.toMillis(seconds));
        if (thread.isAlive()) throw new AssertionError("the writer of " + file + " did not finish in " + seconds + " s");
        if (failure != null) throw new AssertionError("the writer of " + file + " failed", failure);
    }
}
