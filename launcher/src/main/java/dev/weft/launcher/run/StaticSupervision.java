package dev.weft.launcher.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A statically linked target (no dynamic loader, so LD_PRELOAD cannot reach it; static Go
 * binaries included) runs under {@code weft_super}, the seccomp user-notification supervisor of
 * docs/shim.md "Static binaries", which answers its clock, sleeps, CPU time, getrandom, random
 * devices, getcpu and file times from the same seeded engine. The "not reached" warning becomes a one-line note saying what is seeded and
 * what still escapes. Without a supervisor (not built, not shipped) the warnings stay as they were.
 * Dynamically linked Go binaries keep their warning: the supervisor leaves dynamically linked
 * images to the shim.
 */
final class StaticSupervision {
    static final String SEEDED = "getrandom, /dev/urandom, AT_RANDOM, clock_gettime, gettimeofday, time (system calls"
            + " and the vDSO), times, getrusage, nanosleep, getcpu and stat's file times are seeded";
    static final String ESCAPES = "rdtsc, rdrand, other waits' timeouts and thread interleaving are not";

    private StaticSupervision() {
    }

    /** The one-line note for a target run under the supervisor. */
    static String note(BinaryInspector.Findings found) {
        return "weft run: note: " + found.file() + (found.go() ? " is a statically linked Go binary" : " is statically linked")
                + "; it runs under weft_super: " + SEEDED + "; " + ESCAPES
                + (found.go() ? ", nor goroutine scheduling, and Go's timers wait in real time, so its times are not"
                        + " run-stable" : "") + " (docs/shim.md \"Static binaries\")";
    }

    /**
     * What goes before the whole command (the isolation wrappers included: the supervisor then reads
     * /proc in its own PID namespace): the supervisor for a static target, else nothing. Every warning
     * or note for the target goes to {@code notes}.
     */
    static List<String> prefix(BinaryInspector.Findings found, Optional<Path> supervisor, Consumer<String> notes) {
        if (!found.staticLinked() || supervisor.isEmpty()) {
            found.warnings().forEach(notes);
            return List.of();
        }
        // a setuid file still warns: no_new_privs (which the filter needs) runs it without its privileges
        new BinaryInspector.Findings(found.file(), found.setuid(), false, false).warnings().forEach(notes);
        notes.accept(note(found));
        return List.of(supervisor.get().toString(), "--");
    }

    static List<String> around(List<String> prefix, List<String> command) {
        List<String> out = new ArrayList<>(prefix);
        out.addAll(command);
        return out;
    }
}
