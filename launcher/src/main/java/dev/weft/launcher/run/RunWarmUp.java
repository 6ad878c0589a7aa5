package dev.weft.launcher.run;

import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * Work a live run will need in a few milliseconds, begun on daemon threads while the main thread reads the inputs,
 * creates the recording and starts the broker (docs/benchmarks.md, "Issue 24, third round"):
 * <ul>
 *   <li>the JDK's Unix-domain socket class draws a {@code SecureRandom} when first used (for names of sockets bound
 *       without one), and setting up the security providers for it was the largest single item before the broker
 *       listened;</li>
 *   <li>{@code weft_exec --probe} (one exec per launcher JVM) decides the nodes' isolation flags.</li>
 * </ul>
 * Nothing here changes what the run does or prints: the main thread asks for the same things and, when a warm-up is
 * still under way, waits for it (a class's initialisation, the probe's cache entry).
 */
final class RunWarmUp {
    private RunWarmUp() {
    }

    /** Begins both warm-ups; {@code weftExec} is the isolation helper the nodes will use, if any. */
    static void begin(Optional<Path> weftExec) {
        daemon("weft-warm-random", () -> {
            try {
                SecureRandom.getInstance("NativePRNGNonBlocking"); // the algorithm the JDK's socket class asks for
            } catch (NoSuchAlgorithmException e) {
                new SecureRandom(); // its fallback
            }
        });
        weftExec.ifPresent(exec -> daemon("weft-warm-probe", () -> TargetIsolation.probe(exec)));
    }

    private static void daemon(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
    }
}
