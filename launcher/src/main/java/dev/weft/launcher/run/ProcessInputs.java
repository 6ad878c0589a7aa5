package dev.weft.launcher.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The inputs of a node's process that are not its command line or environment: the umask and the soft resource
 * limits a child inherits. A node started here inherits this JVM's; one started by a host agent would inherit the
 * agent's, so the master sends its own and the agent applies them (docs/broker.md, "What travels with a node").
 * Read from /proc/self (Linux); values are strings as they appear there ("unlimited" included).
 *
 * @param umask  four octal digits, or null when unknown
 * @param limits soft limits by prlimit(1) name ({@code core}, {@code nofile}, {@code stack}), in that tool's units
 */
record ProcessInputs(String umask, SortedMap<String, String> limits) {
    /** /proc/self/limits row → prlimit(1) option name. */
    private static final Map<String, String> LIMITS = Map.of("Max core file size", "core", "Max open files", "nofile",
            "Max stack size", "stack");

    static ProcessInputs ofThisProcess() {
        return read(Path.of("/proc/self/status"), Path.of("/proc/self/limits"));
    }

    static ProcessInputs read(Path status, Path limitsFile) {
        String umask = null;
        SortedMap<String, String> limits = new TreeMap<>();
        try {
            for (String l : Files.readAllLines(status)) {
                if (l.startsWith("Umask:")) {
                    umask = l.substring(6).strip();
                }
            }
            for (String l : Files.readAllLines(limitsFile)) {
                for (Map.Entry<String, String> e : LIMITS.entrySet()) {
                    if (l.startsWith(e.getKey())) {
                        String[] cols = l.substring(e.getKey().length()).strip().split("\\s+");
                        limits.put(e.getValue(), cols[0]);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: nothing to send, the agent keeps its own
        }
        return new ProcessInputs(umask, limits);
    }

    /**
     * The agent's side: what to put in front of a node's command so it starts with {@code wanted}'s umask and limits
     * where they differ from this process's ({@code sh -c 'umask M && exec "$@"'}, {@code prlimit --NAME=SOFT: --}).
     * A difference that cannot be applied (no sh or prlimit) goes to {@code notes}.
     */
    List<String> prefixFor(ProcessInputs wanted, Optional<Path> sh, Optional<Path> prlimit, List<String> notes) {
        List<String> prefix = new ArrayList<>();
        if (wanted.umask() != null && wanted.umask().matches("[0-7]{3,4}") && !wanted.umask().equals(umask)) {
            if (sh.isPresent()) {
                prefix.addAll(List.of(sh.get().toString(), "-c", "umask " + wanted.umask() + " && exec \"$@\"", "sh"));
            } else {
                notes.add("umask " + umask + " here, not the master's " + wanted.umask() + " (no sh(1) to set it)");
            }
        }
        List<String> limitOptions = new ArrayList<>();
        for (Map.Entry<String, String> e : wanted.limits().entrySet()) {
            String v = e.getValue();
            if (LIMITS.containsValue(e.getKey()) && v.matches("[0-9]{1,20}|unlimited") && !v.equals(limits.get(e.getKey()))) {
                limitOptions.add("--" + e.getKey() + "=" + v + ":");
            }
        }
        if (!limitOptions.isEmpty()) {
            if (prlimit.isPresent()) {
                prefix.add(prlimit.get().toString());
                prefix.addAll(limitOptions);
                prefix.add("--");
            } else {
                notes.add("resource limits differ from the master's (" + String.join(" ", limitOptions)
                        + "): no prlimit(1) here to set them");
            }
        }
        return prefix;
    }
}
