package dev.weft.launcher.run;

import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.hostd.BrokerRelay;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft run}: runs one program under libweft_shim.so with the WEFT_* environment of
 * wire-and-abi.md §5, with inherited standard streams, and returns its exit status (a death by
 * signal N is returned as 128+N, like a shell).
 */
public final class RunCommand {
    /** Exit status for a command-line mistake or a missing shim (nothing was run). */
    public static final int USAGE_ERROR = 2;
    /** Exit status when the program could not be started. */
    public static final int CANNOT_EXECUTE = 127;

    /**
     * OpenSSL's capability mask with RDRAND (bit 62 of the first word) and RDSEED (bit 18 of the
     * leaf-7 EBX word) cleared, so OpenSSL draws only from getrandom, which the shim serves.
     */
    static final String OPENSSL_NO_RDRAND = "~0x4000000000000000:~0x40000";

    /** {@code --strict} refused a target the shim cannot reach; nothing was run. */
    public static final class RefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    private RunCommand() {
    }

    public static int run(String[] args) {
        return run(args, System.getenv(), System.err);
    }

    static int run(String[] args, Map<String, String> env, PrintStream err) {
        return run(args, env, System.out, err);
    }

    /** As {@link #run(String[])} with the given environment and streams (node output goes to out/err); tests run it in process. */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        RunOptions parsed;
        try {
            parsed = RunOptions.parse(args);
        } catch (RunOptions.UsageException e) {
            return usageError(err, e);
        }
        if (parsed.cluster() != null) {
            // how a kept recording was made, for the workbench's What if? (RunRecipe): beside it, never inside it.
            // Written by the run's own end, which an interrupt waits for, so a Ctrl-C cannot cut it short.
            java.util.function.Consumer<Path> recipe = parsed.cluster().scenario() != null ? log -> { } : log -> {
                try {
                    new RunRecipe(Path.of("").toAbsolutePath(), RunRecipe.withoutOutputs(args), env.get("PATH")).writeBeside(log);
                } catch (IOException e) {
                    err.println("weft run: cannot write " + RunRecipe.of(log) + ": " + e.getMessage());
                }
            };
            return ClusterRun.run(parsed, env, out, err, recipe);
        }
        ProcessBuilder pb;
        BrokerRelay relay = null;
        try {
            RunOptions.RemoteBroker rb = parsed.remoteBroker();
            Map<String, String> extra = new java.util.LinkedHashMap<>();
            Path shim = locateShim(parsed, env);
            if (rb != null) {
                String endpoint = rb.address();
                SharedToken token = SharedToken.resolve(rb.tokenFile(), env).orElse(null);
                if (token != null) {
                    if (!isTcp(endpoint)) {
                        err.println("weft run: --token-file: the token is for TCP brokers; \"" + endpoint
                                + "\" is a Unix socket path (wire-and-abi.md §1)");
                        return USAGE_ERROR;
                    }
                    // the shim cannot answer the broker's token challenge: a local relay does it for each socket
                    relay = BrokerRelay.start("weft run", Path.of(System.getProperty("java.io.tmpdir")),
                            RunOptions.listenAddress(endpoint), token, err::println);
                    endpoint = relay.socketPath().toString();
                }
                extra.put("WEFT_BROKER", endpoint);
                extra.put("WEFT_NODE_ID", Long.toString(rb.nodeId()));
                if (rb.hostId() != 0) {
                    extra.put("WEFT_HOST_ID", Long.toString(rb.hostId()));
                }
                if (rb.windowNs() != 0) {
                    extra.put("WEFT_WINDOW_NS", Long.toUnsignedString(rb.windowNs()));
                }
            }
            pb = build(parsed, shim, parsed.command(), env, extra, err::println);
        } catch (SharedToken.InvalidTokenFileException e) {
            err.println("weft run: --token-file " + e.getMessage());
            return USAGE_ERROR;
        } catch (IOException e) {
            err.println("weft run: --broker: cannot start the token relay: " + e.getMessage());
            return USAGE_ERROR;
        } catch (RunOptions.UsageException e) {
            err.println("weft run: --broker: " + e.getMessage().replaceFirst("^--listen ", ""));
            return USAGE_ERROR;
        } catch (ShimLocator.ShimNotFoundException | RefusedException e) {
            if (relay != null) {
                relay.close();
            }
            err.println("weft run: " + e.getMessage());
            return USAGE_ERROR;
        }
        try {
            return runToTheEnd(pb, err);
        } finally {
            if (relay != null) {
                relay.close();
            }
        }
    }

    /** A mistake on the command line: what is wrong, then the usage. */
    private static int usageError(PrintStream err, RunOptions.UsageException e) {
        err.println("weft run: " + e.getMessage());
        err.println(RunOptions.USAGE);
        return USAGE_ERROR;
    }

    private static int runToTheEnd(ProcessBuilder pb, PrintStream err) {
        pb.inheritIO();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            err.println("weft run: cannot start " + pb.command().get(0) + ": " + e.getMessage());
            return CANNOT_EXECUTE;
        }
        // weft run stopped by a signal (SIGTERM from `timeout` or a CI job, SIGHUP) takes the target's
        // tree with it: otherwise the wrappers (unshare, whose --kill-child acts only when it dies
        // itself) and everything under them went on running, re-parented to init.
        Thread stopTree = new Thread(() -> killTree(p), "weft-run-stop-tree");
        Runtime.getRuntime().addShutdownHook(stopTree);
        try {
            while (true) {
                try {
                    // On Linux the JDK already reports a signal death as 0x80 + signal number.
                    return p.waitFor();
                } catch (InterruptedException e) {
                    p.destroy();
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopTree);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run: nothing to remove
            }
        }
    }

    /** Kills the target's process and every descendant (a snapshot: the ones still alive now). */
    static void killTree(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    /**
     * Builds the process without starting it: the resolved command and its environment. Warnings
     * about targets the shim cannot reach go to {@code err}.
     */
    public static ProcessBuilder prepare(String[] args, Map<String, String> env, PrintStream err)
            throws RunOptions.UsageException, ShimLocator.ShimNotFoundException, RefusedException {
        RunOptions o = RunOptions.parse(args);
        Path shim = locateShim(o, env);
        return build(o, shim, o.command(), env, Map.of(), err::println);
    }

    static Path locateShim(RunOptions o, Map<String, String> env) throws ShimLocator.ShimNotFoundException {
        return new ShimLocator(env, ShimLocator.ownLocation().orElse(null)).locate(o.shim());
    }

    /**
     * The process for one program under the shim: {@code command} with the caller's environment, the shim's
     * variables for {@code o}, then {@code extra} (per-node variables), wrapped for PID and ASLR isolation.
     * Warnings and isolation notes go to {@code notes}.
     */
    static ProcessBuilder build(RunOptions o, Path shim, List<String> command, Map<String, String> env,
            Map<String, String> extra, java.util.function.Consumer<String> notes) throws RefusedException {
        Path program = resolveProgram(command.get(0), env.get("PATH"));
        List<String> supervisor = List.of();
        if (program != null) {
            BinaryInspector.Findings found = BinaryInspector.inspect(program);
            List<String> warnings = found.warnings();
            if (o.strict() && !warnings.isEmpty()) {
                throw new RefusedException("--strict: refusing to run " + program + ": "
                        + warnings.get(0).replaceFirst("^weft run: warning: ", ""));
            }
            // a static target runs under the supervisor (weft_super) when there is one
            supervisor = StaticSupervision.prefix(found, found.staticLinked() ? locator(env).locateSupervisor(shim)
                    : Optional.empty(), notes);
        }
        Map<String, String> e = new java.util.HashMap<>(env);
        applyEnvironment(o, shim, e);
        e.putAll(extra);
        TargetIsolation.Plan plan = TargetIsolation.wrap(command, e.get("LD_PRELOAD"), !o.hostPids(), !o.keepAslr(),
                env.get("PATH"), locator(env).locateTool(ShimLocator.EXEC, shim));
        plan.notes().forEach(notes);
        if (!plan.command().equals(command)) {
            // the final env(1) exec sets LD_PRELOAD; the wrappers before it run unsimulated
            e.remove("LD_PRELOAD");
        }
        ProcessBuilder pb = new ProcessBuilder(StaticSupervision.around(supervisor, plan.command()));
        pb.environment().clear();
        pb.environment().putAll(e);
        return pb;
    }

    private static ShimLocator locator(Map<String, String> env) {
        return new ShimLocator(env, ShimLocator.ownLocation().orElse(null));
    }

    /** Sets the variables the shim reads; stale WEFT_* switches from the caller are cleared. */
    static void applyEnvironment(RunOptions o, Path shim, Map<String, String> e) {
        String previous = e.get("LD_PRELOAD");
        e.put("LD_PRELOAD", shim.toString() + (previous == null || previous.isEmpty() ? "" : ":" + previous));
        e.put("WEFT_SEED", Long.toUnsignedString(o.seed()));
        e.put("WEFT_STRATEGY", o.strategy());
        for (String k : List.of("WEFT_TRACE", "WEFT_SCHED_STATS", "WEFT_SCHED", "WEFT_FSYNC_LIES",
                "WEFT_ENOSPC_BYTES", "WEFT_TORN_WRITES_PPM", "WEFT_BROKER", "WEFT_NODE_ID", "WEFT_NET",
                "WEFT_HOST_ID", "WEFT_WINDOW_NS", "WEFT_CLOCK_SKEW_NS", "WEFT_RDTSC", "WEFT_PROC", "WEFT_PROC_SCHED")) {
            e.remove(k);
        }
        if (o.trace()) {
            e.put("WEFT_TRACE", "1");
        }
        if (o.stats()) {
            e.put("WEFT_SCHED_STATS", "1");
        }
        if (o.noSched()) {
            e.put("WEFT_SCHED", "0");
        }
        if (o.fsyncLies()) {
            e.put("WEFT_FSYNC_LIES", "1");
        }
        if (o.enospcAfter() > 0) {
            e.put("WEFT_ENOSPC_BYTES", Long.toUnsignedString(o.enospcAfter()));
        }
        if (o.tornWritesPpm() > 0) {
            e.put("WEFT_TORN_WRITES_PPM", Long.toString(o.tornWritesPpm()));
        }
        if (o.rdtsc()) {
            e.put("WEFT_RDTSC", "1");
        }
        // explicit either way: the shim's own default is on, but a network node or --no-proc-sched must say off
        e.put("WEFT_PROC_SCHED", o.procSched() ? "1" : "0");
        // a mask the caller chose is kept; otherwise OpenSSL must not use the CPU's generator
        e.putIfAbsent("OPENSSL_ia32cap", OPENSSL_NO_RDRAND);
    }

    /** A {@code WEFT_BROKER} value names a TCP endpoint iff it starts with neither '/' nor '.' and has a ':' (§1). */
    static boolean isTcp(String endpoint) {
        return !endpoint.startsWith("/") && !endpoint.startsWith(".") && endpoint.contains(":");
    }

    /** The file the OS would execute for {@code name} (PATH search for bare names), or null. */
    static Path resolveProgram(String name, String pathVar) {
        if (name.contains("/")) {
            return Path.of(name);
        }
        if (pathVar == null) {
            return null;
        }
        for (String dir : pathVar.split(File.pathSeparator)) {
            Path c = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                return c;
            }
        }
        return null;
    }
}
