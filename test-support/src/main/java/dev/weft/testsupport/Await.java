package dev.weft.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a real condition (a port listening, a file existing, a line printed, a process started) instead of
 * sleeping a guessed time. The bound is generous because the machines that run these tests are often loaded; it
 * only decides how long a broken test takes to fail, and the failure names what never happened.
 */
public final class Await {

    /** Generous default: a loaded two-core machine can take tens of seconds to start a JVM and a native node. */
    public static final Duration DEFAULT = Duration.ofSeconds(60);

    private static final long POLL_MILLIS = 10;

    private Await() {
    }

    /** Polls {@code condition} until it holds; fails with "never happened: {what}" after {@link #DEFAULT}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, DEFAULT, condition);
    }

    public static void until(String what, Duration bound, BooleanSupplier condition) throws InterruptedException {
        value(what, bound, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /** Polls {@code probe} until it gives a non-null value and returns it; fails naming {@code what} after the bound. */
    public static <T> T value(String what, Duration bound, Supplier<T> probe) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            T v = probe.get();
            if (v != null) {
                return v;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("never happened within " + bound.toSeconds() + " s: " + what);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    public static <T> T value(String what, Supplier<T> probe) throws InterruptedException {
        return value(what, DEFAULT, probe);
    }

    /**
     * True when some socket on this machine listens on TCP {@code port} (Linux /proc/net/tcp and tcp6). Looking
     * instead of connecting: a probe connection would be a stray client to the server under test.
     */
    public static boolean tcpListening(int port) {
        String local = String.format(Locale.ROOT, ":%04X", port);
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try {
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    // sl local_address rem_address st ...; st 0A is LISTEN
                    if (f.length > 3 && f[1].endsWith(local) && f[3].equals("0A")) {
                        return true;
                    }
                }
            } catch (NoSuchFileException e) {
                // no IPv6 table on this machine
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return false;
    }

    /** True when process {@code pid} has a socket open (Linux /proc/PID/fd); false once it is gone. */
    public static boolean hasSocket(long pid) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (IOException e) {
                    return false; // closed meanwhile
                }
            });
        } catch (IOException | UncheckedIOException e) {
            return false;
        }
    }
}
