package dev.weft.launcher.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftMainAccess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code weft} ends its process (WeftMain): exit 0 by returning from main when nothing else would keep the JVM
 * alive (cheaper than System.exit on JDK 21+), System.exit for any other code or a lingering worker; and the AOT
 * training entry (StartupTraining) that runs a file of command lines in one JVM.
 */
class ProcessExitTest {

    private static final Path SAMPLE = Path.of("..", "examples", "recordings", "sample.weftlog").toAbsolutePath();

    @Test
    void aLiveUserThreadMeansSystemExitADaemonDoesNot() throws Throwable {
        // In a thread group of its own: the check lists the caller's group, so other tests' threads cannot interfere.
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread checker = new Thread(new ThreadGroup("exit-check"), () -> {
            try {
                checkThreads();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "exit-checker");
        checker.start();
        checker.join(30_000);
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static void checkThreads() throws InterruptedException {
        assertTrue(WeftMainAccess.noOtherUserThreads(), "only the checking thread");
        CountDownLatch release = new CountDownLatch(1);
        Thread daemon = new Thread(() -> await(release), "daemon-worker");
        daemon.setDaemon(true);
        daemon.start();
        assertTrue(WeftMainAccess.noOtherUserThreads(), "a daemon thread does not keep the JVM alive");
        Thread worker = new Thread(() -> await(release), "user-worker");
        worker.start();
        try {
            assertFalse(WeftMainAccess.noOtherUserThreads(), "a running non-daemon thread does");
        } finally {
            release.countDown();
            worker.join(10_000);
            daemon.join(10_000);
        }
        assertTrue(WeftMainAccess.noOtherUserThreads(), "ended threads do not count");
    }

    @Test
    void exitCodesThroughMainAreTheCommandsOwn() throws Exception {
        assertEquals(0, java("dev.weft.launcher.WeftMain", "--version").code);
        Run check = java("dev.weft.launcher.WeftMain", "replay", SAMPLE.toString(), "--check", "fifo,dup");
        assertEquals(2, check.code, "violations: exit 2 (core-and-replay.md §5), through System.exit");
        assertTrue(check.stdout.endsWith("22 invariant violation(s)\n"), check.stdout);
        assertEquals(1, java("dev.weft.launcher.WeftMain", "no-such-command").code);
    }

    @Test
    void trainingRunsEveryCommandLineOfItsFileInOneJvm(@TempDir Path dir) throws Exception {
        Path commands = dir.resolve("training.txt");
        Files.writeString(commands, "# the help texts\n--version\n\nreplay " + SAMPLE + " --check fifo,dup\n"
                + "no-such-command\n", StandardCharsets.UTF_8);
        Run r = java("dev.weft.launcher.StartupTraining", commands.toString());
        assertEquals(0, r.code, "the commands' own exit codes are ignored: " + r.stderr);
        assertTrue(r.stdout.startsWith("weft 0.0.2\n"), r.stdout);
        assertTrue(r.stdout.contains("\nreplay identical: "), r.stdout);
        assertTrue(r.stdout.endsWith("22 invariant violation(s)\n"), r.stdout);
        assertTrue(r.stderr.contains("weft: unknown command 'no-such-command'"), r.stderr);
    }

    private record Run(int code, String stdout, String stderr) {
    }

    private static Run java(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                mainClass));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "finished");
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
