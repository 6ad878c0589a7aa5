package dev.weft.launcher.run;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Wraps the target's command so that what the preload cannot virtualise becomes a function of the
 * run: its PIDs (a fresh PID namespace, via util-linux {@code unshare}) and its address-space layout
 * (ASLR off, via util-linux {@code setarch -R}, i.e. {@code personality(ADDR_NO_RANDOMIZE)} before
 * exec, inherited by every child).
 *
 * <p>The command becomes
 * {@code unshare --user --map-current-user --pid --fork --kill-child -- setarch -R sh -c <INIT_SCRIPT>
 * weft-init env LD_PRELOAD=<shim> prog args...}: {@code sh} is PID 1 of the namespace (it reaps
 * orphans and keeps the init-only signal rules away from the target), the target is always PID 2,
 * and its children get 3, 4, ... in creation order. Only the final {@code env} exec carries
 * LD_PRELOAD, so the wrappers run unsimulated and print nothing. Each piece is left out (with a note)
 * when the machine cannot provide it.
 */
final class TargetIsolation {
    /** What {@link #wrap} decided: the full command and one note per missing piece. */
    record Plan(List<String> command, List<String> notes) {
    }

    /**
     * PID 1's script: run the target in a subshell (never exec it from PID 1 itself, or the target
     * would be PID 1 with init's signal rules) and exit with its status. The shell's own stderr
     * goes to /dev/null so it adds no "Aborted" line when the target dies by a signal; the
     * subshell restores the real stderr and execs the target as PID 2.
     */
    static final String INIT_SCRIPT = "exec 3>&2 2>/dev/null; (exec 2>&3 3>&-; exec \"$@\"); exit $?";

    /** Flags that create a working PID namespace here, found once per PATH (empty: none works). */
    private static final Map<String, Optional<List<String>>> PID_NS_FLAGS = new ConcurrentHashMap<>();
    /** Whether {@code setarch -R true} works, per setarch path (a seccomp filter may forbid personality). */
    private static final Map<String, Boolean> SETARCH_WORKS = new ConcurrentHashMap<>();

    private TargetIsolation() {
    }

    /**
     * @param command   the target and its arguments
     * @param preload   the LD_PRELOAD value the target gets
     * @param pidNs     give the target its own PID namespace when the machine allows it
     * @param noAslr    turn address-space randomisation off for the target
     * @param pathVar   PATH used to find unshare, setarch, sh and env
     */
    static Plan wrap(List<String> command, String preload, boolean pidNs, boolean noAslr, String pathVar) {
        return wrap(command, preload, pidNs, noAslr, pathVar, Optional.empty());
    }

    /**
     * As above, with {@code weft_exec} (shipped with the shim) when there is one: the same namespace, /proc,
     * kill-child, ASLR and LD_PRELOAD guarantees in one small static exec per node, instead of six execs
     * (unshare, setarch, sh, env and their probes) that each load their own libraries.
     */
    static Plan wrap(List<String> command, String preload, boolean pidNs, boolean noAslr, String pathVar,
            Optional<Path> weftExec) {
        if (weftExec.isPresent()) {
            Optional<int[]> probe = probe(weftExec.get());
            if (probe.isPresent()) {
                return viaExec(command, preload, pidNs, noAslr, weftExec.get(), probe.get());
            }
        }
        List<String> notes = new ArrayList<>();
        List<String> out = new ArrayList<>();
        Optional<Path> unshare = find("unshare", pathVar);
        Optional<Path> setarch = find("setarch", pathVar);
        Optional<Path> sh = find("sh", pathVar);
        Optional<Path> env = find("env", pathVar);
        if (env.isEmpty()) {
            // no env(1): nothing can be placed before the target, so set LD_PRELOAD on the process itself
            notes.add("weft run: warning: env(1) not found on PATH; PIDs and ASLR are not virtualised");
            return new Plan(List.copyOf(command), notes);
        }
        boolean namespace = false;
        if (pidNs) {
            Optional<List<String>> flags = unshare.flatMap(u -> pidNamespaceFlags(u, pathVar));
            if (flags.isPresent() && sh.isPresent()) {
                out.add(unshare.get().toString());
                out.addAll(flags.get());
                out.add("--");
                namespace = true;
            } else {
                notes.add("weft run: note: no PID namespace available (unshare --pid failed or is missing);"
                        + " the target sees real PIDs (use --host-pids to silence this)");
            }
        }
        if (noAslr) {
            if (setarch.isPresent() && setarchWorks(setarch.get(), pathVar)) {
                out.add(setarch.get().toString());
                out.add("-R");
            } else {
                notes.add("weft run: note: " + (setarch.isPresent() ? "setarch -R is not permitted here"
                        : "setarch not found") + "; ASLR stays on, so pointer-derived values vary"
                        + " (use --keep-aslr to silence this)");
            }
        }
        if (namespace) {
            out.addAll(List.of(sh.get().toString(), "-c", INIT_SCRIPT, "weft-init"));
        }
        out.add(env.get().toString());
        out.add("LD_PRELOAD=" + preload);
        out.addAll(command);
        return new Plan(List.copyOf(out), notes);
    }

    /** What {@code weft_exec --probe} found per helper: {namespace recipe (0: none), ASLR switch works (1)}. */
    private static final Map<Path, Optional<int[]>> EXEC_PROBES = new ConcurrentHashMap<>();

    /** {@code weft_exec --probe}'s finding, run once per helper and JVM (a run's warm-up may have asked already). */
    static Optional<int[]> probe(Path weftExec) {
        return EXEC_PROBES.computeIfAbsent(weftExec, k -> {
            try {
                Process p = new ProcessBuilder(k.toString(), "--probe").redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
                String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
                if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    p.destroyForcibly();
                    return Optional.empty();
                }
                var m = java.util.regex.Pattern.compile("pidns=([0-4]) aslr=([01])").matcher(out);
                return m.find() ? Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))})
                        : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
    }

    private static Plan viaExec(List<String> command, String preload, boolean pidNs, boolean noAslr, Path weftExec,
            int[] probe) {
        List<String> notes = new ArrayList<>();
        List<String> out = new ArrayList<>(List.of(weftExec.toString()));
        if (pidNs) {
            if (probe[0] > 0) {
                out.add("--pidns=" + probe[0]);
            } else {
                notes.add("weft run: note: no PID namespace available (unshare --pid failed or is missing);"
                        + " the target sees real PIDs (use --host-pids to silence this)");
            }
        }
        if (noAslr) {
            if (probe[1] == 1) {
                out.add("--no-aslr");
            } else {
                notes.add("weft run: note: setarch -R is not permitted here; ASLR stays on, so pointer-derived values"
                        + " vary (use --keep-aslr to silence this)");
            }
        }
        out.addAll(List.of("--preload", preload, "--"));
        out.addAll(command);
        return new Plan(List.copyOf(out), notes);
    }

    /**
     * Tries {@code unshare --user --map-current-user --pid --fork --kill-child} (unprivileged) and then
     * {@code unshare --pid --fork --kill-child} (root without user namespaces), each with
     * {@code --mount-proc} first (a /proc of the new namespace); the first that runs {@code true} wins.
     */
    static Optional<List<String>> pidNamespaceFlags(Path unshare, String pathVar) {
        return PID_NS_FLAGS.computeIfAbsent(unshare + File.pathSeparator + pathVar, k -> {
            Optional<Path> trueCmd = find("true", pathVar);
            if (trueCmd.isEmpty()) {
                return Optional.empty();
            }
            // --mount-proc first: without a /proc of the new namespace, /proc/<pid> of a PID the tree
            // sees (its own, a child's) names the host's process of that number (PID 2 is the host's
            // kthreadd), so `cat /proc/$$/stat` lies and the process scheduler's watchdog, which reads a
            // holder's CPU time there, took a computing child for a blocked one after 3 s.
            for (List<String> flags : List.of(
                    List.of("--user", "--map-current-user", "--pid", "--fork", "--kill-child", "--mount-proc"),
                    List.of("--user", "--map-current-user", "--pid", "--fork", "--kill-child"),
                    List.of("--pid", "--fork", "--kill-child", "--mount-proc"),
                    List.of("--pid", "--fork", "--kill-child"))) {
                List<String> probe = new ArrayList<>();
                probe.add(unshare.toString());
                probe.addAll(flags);
                probe.add("--");
                probe.add(trueCmd.get().toString());
                if (exitsZero(probe)) {
                    return Optional.of(flags);
                }
            }
            return Optional.empty();
        });
    }

    static boolean setarchWorks(Path setarch, String pathVar) {
        return SETARCH_WORKS.computeIfAbsent(setarch + File.pathSeparator + pathVar, k -> find("true", pathVar)
                .map(t -> exitsZero(List.of(setarch.toString(), "-R", t.toString()))).orElse(false));
    }

    private static boolean exitsZero(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static Optional<Path> find(String name, String pathVar) {
        if (pathVar == null) {
            return Optional.empty();
        }
        for (String dir : pathVar.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path c = Path.of(dir, name);
            if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
