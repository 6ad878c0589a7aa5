package dev.weft.launcher.run;

import dev.weft.broker.BrokerServer;
import dev.weft.broker.OpSequencer;
import dev.weft.broker.SingleHostSequencer;
import dev.weft.broker.WindowedSequencer;
import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.record.LogRecorder;
import dev.weft.broker.record.Recorder;
import dev.weft.net.FateSource;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanException;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanSidecar;
import dev.weft.net.NetSpecException;
import dev.weft.scenario.FilesystemFaults;
import dev.weft.scenario.NodeSpec;
import dev.weft.scenario.RustFloatText;
import dev.weft.scenario.Scenario;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import dev.weft.scenario.ScenarioException;
import dev.weft.scenario.Scenarios;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code weft run --net …} and {@code weft run SCENARIO.json}: hosts the live broker in this JVM, starts the nodes
 * (each with {@code WEFT_NODE_ID}, {@code WEFT_BROKER}, {@code WEFT_NET} and the seed environment, in its own
 * process group), copies their output with the node id in front, and ends the run — normally when every node has
 * exited, or on Ctrl-C, or by the watchdog — by stopping what still runs, recording the disconnects and the
 * {@code end} record, and combining the exit statuses.
 */
final class ClusterRun {
    /** Exit status when the watchdog stopped a hung run (as timeout(1)). */
    static final int WATCHDOG_EXIT = 124;
    /** Exit status after Ctrl-C (128 + SIGINT). */
    static final int INTERRUPTED_EXIT = 130;
    /** Exit status of a windowed run that had to be discarded (killed node, deadlock, protocol violation, watchdog). */
    static final int DISCARDED_EXIT = 3;

    /** One node to run: its id, command and its own variables on top of the run's. */
    record NodePlan(long id, List<String> command, Map<String, String> extraEnv) {
    }

    private final RunOptions options;
    private final RunOptions.Cluster cluster;
    private final PrintStream out;
    private final PrintStream err;
    private final OpSequencer sequencer;
    /** The single-host sequencer (scenario runs need it), or null in a windowed run. */
    private final SingleHostSequencer singleHost;
    private final Recorder recorder;
    private final BrokerServer server;
    private final Map<Long, ProcessBuilder> builders = new TreeMap<>();
    private final Optional<Path> setsid;
    /** The current incarnation of each node (guarded by this). */
    private final Map<Long, RunningNode> current = new TreeMap<>();
    /** Final status per node of incarnations that ended by themselves (guarded by this). */
    private final Map<Long, Integer> statuses = new TreeMap<>();
    private ScenarioDriver driver;
    private boolean finished;
    private int forcedExit = -1;
    /** Why a windowed run was discarded (guarded by this), or null. */
    private String discardReason;
    /** The host agents of a multi-host run, by host id (empty: every node runs here). */
    private final Map<Long, RemoteHost> hosts = new TreeMap<>();
    /** Each remote node's spawn: its command and shim variables (the agent adds its own shim and broker relay). */
    private final Map<Long, RemoteSpawn> remoteSpawns = new TreeMap<>();
    /** The first host lost mid-run (guarded by this), or null. */
    private String hostLoss;

    /** What a host agent needs to start a node. */
    record RemoteSpawn(List<String> command, Map<String, String> env) {
    }

    private ClusterRun(RunOptions options, PrintStream out, PrintStream err, OpSequencer sequencer,
            Recorder recorder, BrokerServer server, Optional<Path> setsid) {
        this.options = options;
        this.cluster = options.cluster();
        this.out = out;
        this.err = err;
        this.sequencer = sequencer;
        this.singleHost = sequencer instanceof SingleHostSequencer s ? s : null;
        this.recorder = recorder;
        this.server = server;
        this.setsid = setsid;
    }

    static int run(RunOptions o, Map<String, String> env, PrintStream out, PrintStream err) {
        RunOptions.Cluster c = o.cluster();
        RunOptions opts = o;
        String net;
        List<NodePlan> plans = new ArrayList<>();
        List<ScenarioEvent> events = List.of();
        if (c.scenario() != null) {
            Scenario s;
            try {
                s = Scenarios.load(c.scenario());
                ScenarioDriver.validate(s.events());
            } catch (IOException e) {
                err.println("weft run: " + c.scenario() + ": " + OsErrorText.of(e));
                return RunCommand.USAGE_ERROR;
            } catch (ScenarioException | NetSpecException e) {
                err.println("weft run: " + c.scenario() + ": " + e.getMessage());
                return RunCommand.USAGE_ERROR;
            }
            opts = o.withSeed(s.seed());
            net = netSpec(s);
            plans = scenarioNodes(s);
            events = s.events();
        } else {
            net = c.net();
            for (long i = 0; i < c.nodes(); i++) {
                plans.add(new NodePlan(i, o.command(), Map.of()));
            }
        }
        Path shim;
        try {
            shim = RunCommand.locateShim(opts, env);
        } catch (ShimLocator.ShimNotFoundException e) {
            err.println("weft run: " + e.getMessage());
            return RunCommand.USAGE_ERROR;
        }
        FateSource fault;
        byte[] planDocument = null;
        if (c.plan() != null) {
            try {
                planDocument = Files.readAllBytes(c.plan());
                FaultPlan plan = FaultPlanJson.parse(planDocument);
                if (!plan.net().equals(net)) {
                    err.println("weft run: --plan " + c.plan() + ": member net: \"" + plan.net() + "\" is not --net \""
                            + net + "\" (the plan's baseline comes from its net spec)");
                    return RunCommand.USAGE_ERROR;
                }
                fault = plan;
            } catch (IOException e) {
                err.println("weft run: --plan " + c.plan() + ": cannot read: " + OsErrorText.of(e));
                return RunCommand.USAGE_ERROR;
            } catch (FaultPlanException e) {
                err.println("weft run: --plan " + c.plan() + ": " + e.getMessage());
                return RunCommand.USAGE_ERROR;
            }
        } else {
            try {
                fault = FaultModel.of(opts.seed(), net);
            } catch (NetSpecException e) {
                err.println("weft run: --net: " + e.getMessage());
                return RunCommand.USAGE_ERROR;
            }
        }
        if (c.windowNs() > 0 && c.scenario() != null) {
            for (ScenarioEvent e : events) {
                if (e.action() instanceof ScenarioAction.Crash || e.action() instanceof ScenarioAction.Start) {
                    err.println("weft run: " + c.scenario() + ": --window: a windowed run cannot have crash or start"
                            + " events (t=" + Long.toUnsignedString(e.timeNs()) + "): a node that ends without"
                            + " Goodbye discards a windowed run, and a restarted node's clock starts over; partition"
                            + " events are fine");
                    return RunCommand.USAGE_ERROR;
                }
            }
        }
        if (c.windowNs() > 0) {
            String problem = WindowedSequencer.lookaheadProblem(fault, c.windowNs());
            if (problem != null) {
                err.println("weft run: --window " + c.windowNs() + ": " + problem + "; refusing to start (use a"
                        + " window of at most the minimum latency)");
                return RunCommand.USAGE_ERROR;
            }
        }
        Placement placement = c.placement();
        SharedToken token = null;
        if (!placement.isLocal() || c.listen() != null) {
            try {
                token = SharedToken.resolve(c.tokenFile(), env).orElse(null);
            } catch (SharedToken.InvalidTokenFileException e) {
                err.println("weft run: --token-file " + e.getMessage());
                return RunCommand.USAGE_ERROR;
            }
            if (token == null && !placement.isLocal()) {
                err.println("weft run: --hosts needs the shared token of its host agents (--token-file FILE or "
                        + SharedToken.ENV + "): weft hostd runs nothing for a master that cannot prove it");
                return RunCommand.USAGE_ERROR;
            }
        }
        ClusterRun[] self = new ClusterRun[1];
        Map<Long, RemoteHost> agents = new TreeMap<>();
        for (int h = 0; h < placement.hosts().size(); h++) {
            long hostId = h + 1;
            try {
                agents.put(hostId, RemoteHost.connect(placement.address(hostId), hostId, token,
                        lost -> {
                            ClusterRun r = self[0];
                            if (r != null) {
                                r.hostLost(lost); // before the run exists, a lost host fails its first spawn
                            }
                        }));
            } catch (RemoteHost.HostException e) {
                err.println("weft run: " + e.getMessage() + "; nothing was started");
                agents.values().forEach(RemoteHost::close);
                return DISCARDED_EXIT;
            }
        }
        InetSocketAddress listen = c.listen();
        if (listen == null && !agents.isEmpty()) {
            // the agents must reach the broker: listen on our address on the route to the first of them
            listen = new InetSocketAddress(agents.values().iterator().next().localAddress(), 0);
        }
        Recorder recorder = Recorder.NONE;
        if (c.record() != null) {
            try {
                if (planDocument != null) {
                    // beside the recording, where weft replay looks for it; the header names its digest
                    Files.write(PlanSidecar.of(c.record()), planDocument);
                }
                recorder = LogRecorder.create(c.record(), opts.seed(), net, c.windowNs(),
                        placement.isLocal() ? null : placement.hostMap(plans.stream().map(NodePlan::id).toList()),
                        planDocument == null ? null : FaultPlanJson.digest(planDocument), err::println);
            } catch (IOException e) {
                err.println("weft run: cannot record to " + c.record() + ": " + OsErrorText.of(e));
                agents.values().forEach(RemoteHost::close);
                return RunCommand.USAGE_ERROR;
            }
        }
        OpSequencer sequencer;
        if (c.windowNs() > 0) {
            Map<Long, Long> ids = new TreeMap<>();
            plans.forEach(p -> ids.put(p.id(), placement.hostId(p.id())));
            // the sequencer reports a discard under its own lock: hand it to another thread (lock order)
            WindowedSequencer windowed = new WindowedSequencer(fault, recorder, c.windowNs(), ids, c.windowOps(),
                    reason -> {
                        Thread t = new Thread(() -> self[0].discardedByBroker(reason), "weft-run-discard");
                        t.setDaemon(true);
                        t.start();
                    });
            windowed.setPartitionSchedule(partitionSchedule(events));
            sequencer = windowed;
        } else {
            sequencer = new SingleHostSequencer(fault, recorder);
        }
        BrokerServer server;
        try {
            server = BrokerServer.start(sequencer, Path.of(System.getProperty("java.io.tmpdir")), listen, token,
                    opts.stats(), err::println);
        } catch (IOException e) {
            err.println("weft run: cannot start the broker: " + OsErrorText.of(e));
            recorder.close();
            agents.values().forEach(RemoteHost::close);
            return RunCommand.USAGE_ERROR;
        }
        ClusterRun run = new ClusterRun(opts, out, err, sequencer, recorder, server,
                NodeProcess.setsid(env.get("PATH")));
        run.hosts.putAll(agents);
        self[0] = run;
        return run.execute(plans, events, net, shim, env);
    }

    private int execute(List<NodePlan> plans, List<ScenarioEvent> events, String net, Path shim,
            Map<String, String> env) {
        InetSocketAddress tcp = server.tcpAddress();
        if (tcp != null) {
            err.println("weft run: the broker also accepts nodes on tcp " + tcp.getHostString() + ":" + tcp.getPort()
                    + (tcp.getAddress().isLoopbackAddress() ? "" : " (not loopback: any host that reaches it can join;"
                    + " TCP peers are not uid-checked)") + (server.tcpTokenRequired() ? "; peers must prove the token"
                    : ""));
        }
        if (!hosts.isEmpty()) {
            err.println("weft run: nodes placed: " + cluster.placement().describe()
                    + (cluster.placement().hostOf().size() < plans.size() ? "; the others run here (host 0)" : ""));
        }
        if (setsid.isEmpty()) {
            err.println("weft run: note: setsid(1) not found; a node's child processes may outlive it");
        }
        Set<String> notes = new LinkedHashSet<>();
        try {
            for (NodePlan p : plans) {
                long hostId = cluster.placement().hostId(p.id());
                if (hostId != 0) {
                    // the agent sets its own shim path and broker relay; it gets only the shim's variables
                    Map<String, String> vars = new TreeMap<>();
                    RunCommand.applyEnvironment(options, shim, vars);
                    vars.remove("LD_PRELOAD");
                    vars.put("WEFT_NET", net);
                    if (cluster.windowNs() > 0) {
                        vars.put("WEFT_WINDOW_NS", Long.toUnsignedString(cluster.windowNs()));
                    }
                    vars.putAll(p.extraEnv());
                    remoteSpawns.put(p.id(), new RemoteSpawn(p.command(), vars));
                    continue;
                }
                Map<String, String> extra = new LinkedHashMap<>();
                extra.put("WEFT_BROKER", server.socketPath().toString());
                extra.put("WEFT_NODE_ID", Long.toString(p.id()));
                extra.put("WEFT_NET", net);
                if (cluster.windowNs() > 0) {
                    extra.put("WEFT_WINDOW_NS", Long.toUnsignedString(cluster.windowNs()));
                }
                extra.putAll(p.extraEnv());
                builders.put(p.id(), RunCommand.build(options, shim, p.command(), env, extra, notes::add));
            }
        } catch (RunCommand.RefusedException e) {
            err.println("weft run: " + e.getMessage());
            shutdown();
            return RunCommand.USAGE_ERROR;
        }
        notes.forEach(err::println);
        if (!events.isEmpty() && cluster.windowNs() > 0) {
            // partitions only (checked): the windowed broker applies them by each send's virtual time
            for (ScenarioEvent e : events) {
                err.println("[weft] scenario t=" + Long.toUnsignedString(e.timeNs()) + ": "
                        + (e.action() instanceof ScenarioAction.ActivatePartition p ? "partition " + p.spec()
                        : "partition cleared") + " (windowed: cuts the sends whose local_vt is at or after t)");
            }
        } else if (!events.isEmpty()) {
            driver = new ScenarioDriver(events, singleHost, new ScenarioDriver.Actions() {
                @Override
                public void crash(long nodeId, long timeNs) {
                    crashNode(nodeId, timeNs);
                }

                @Override
                public void start(long nodeId, long timeNs) {
                    Thread t = new Thread(() -> restartNode(nodeId, timeNs), "weft-scenario-start");
                    t.setDaemon(true);
                    t.start();
                }

                @Override
                public void note(String line) {
                    err.println(line);
                }
            });
            singleHost.setClockListener(driver);
        }
        Thread hook = new Thread(() -> {
            synchronized (this) {
                if (finished) {
                    return;
                }
                forcedExit = INTERRUPTED_EXIT;
            }
            err.println("weft run: interrupted; stopping every node");
            finish();
        }, "weft-run-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        for (NodePlan p : plans) {
            if (!startNode(p.id())) {
                synchronized (this) {
                    forcedExit = RunCommand.CANNOT_EXECUTE;
                }
                break;
            }
        }
        waitForTheEnd();
        int rc = finish();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down (Ctrl-C): the hook finished the run
        }
        return rc;
    }

    private boolean startNode(long id) {
        RunningNode n;
        long hostId = cluster.placement().hostId(id);
        if (hostId != 0) {
            RemoteHost h = hosts.get(hostId);
            RemoteSpawn spec = remoteSpawns.get(id);
            InetSocketAddress tcp = server.tcpAddress();
            String broker = (tcp.getAddress().isAnyLocalAddress() ? h.localAddress() : tcp.getAddress())
                    .getHostAddress() + ":" + tcp.getPort();
            try {
                n = h.spawn(id, spec.command(), spec.env(), !options.hostPids(), !options.keepAslr(), broker,
                        NodeProcess.prefixed(id, out, err));
            } catch (RemoteHost.HostException e) {
                err.println("weft run: " + e.getMessage());
                return false;
            }
        } else {
            try {
                n = NodeProcess.start(id, builders.get(id), setsid, out, err);
            } catch (IOException e) {
                err.println("weft run: cannot start node " + id + ": " + OsErrorText.of(e));
                return false;
            }
        }
        synchronized (this) {
            if (finished) {
                // Ctrl-C or the watchdog ended the run while this node was starting: it must not outlive it
                n.kill();
                return false;
            }
            current.put(id, n);
            statuses.remove(id);
        }
        n.onExit(() -> exited(n));
        return true;
    }

    private void exited(RunningNode n) {
        int rc;
        try {
            rc = n.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        synchronized (this) {
            if (!n.killedOnPurpose() && current.get(n.nodeId()) == n) {
                statuses.put(n.nodeId(), rc);
            }
            notifyAll();
        }
    }

    private void crashNode(long id, long timeNs) {
        RunningNode n;
        synchronized (this) {
            n = current.get(id);
        }
        if (n == null || !n.alive()) {
            err.println("[weft] scenario t=" + Long.toUnsignedString(timeNs) + ": crash node " + id
                    + ": not running, nothing to do");
            return;
        }
        n.kill();
        err.println("[weft] scenario t=" + Long.toUnsignedString(timeNs) + ": crash node " + id + " (pid " + n.pid()
                + ", SIGKILL to its process group)");
    }

    private void restartNode(long id, long timeNs) {
        RunningNode old;
        synchronized (this) {
            if (finished) {
                return;
            }
            old = current.get(id);
        }
        // A node crashed by the scenario may still be dying (SIGKILL sent, not yet reaped: milliseconds on a loaded
        // machine, while the start may come 10 ms of real time later); it is waited for below, not "running".
        if (old != null && old.alive() && !old.killedOnPurpose()) {
            err.println("[weft] scenario t=" + Long.toUnsignedString(timeNs) + ": start node " + id
                    + ": already running (pid " + old.pid() + "), nothing to do");
            return;
        }
        if (old != null) {
            try {
                old.waitFor(); // its output is copied before the new incarnation starts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (startNode(id)) {
            RunningNode n;
            synchronized (this) {
                n = current.get(id);
            }
            err.println("[weft] scenario t=" + Long.toUnsignedString(timeNs) + ": start node " + id + " (new pid "
                    + n.pid() + ")");
        }
    }

    /** Waits until every node has ended and no scenario start is pending, or the watchdog fires. */
    private void waitForTheEnd() {
        long watchdogNanos = TimeUnit.SECONDS.toNanos(cluster.watchdog());
        while (true) {
            boolean anyRunning;
            synchronized (this) {
                if (forcedExit >= 0) {
                    return;
                }
                anyRunning = current.values().stream().anyMatch(RunningNode::alive);
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (watchdogNanos > 0 && anyRunning && System.nanoTime() - sequencer.lastOpNanos() > watchdogNanos) {
                if (cluster.windowNs() > 0) {
                    discarded("watchdog: no network operation for " + cluster.watchdog() + " s");
                    return;
                }
                err.println("weft run: watchdog: no network operation for " + cluster.watchdog()
                        + " s; stopping every node (the recording is kept)");
                synchronized (this) {
                    forcedExit = WATCHDOG_EXIT;
                }
                return;
            }
            if (driver != null && driver.pending()) {
                driver.advanceIfQuiet(!anyRunning);
                continue;
            }
            if (!anyRunning && (driver == null || !driver.startPending())) {
                return;
            }
        }
    }

    /** Stops every node, finishes the log and prints the summary; runs once (normal end or Ctrl-C). */
    private int finish() {
        List<RunningNode> all;
        synchronized (this) {
            if (finished) {
                return exitStatus();
            }
            finished = true;
            all = new ArrayList<>(current.values());
        }
        for (RunningNode n : all) {
            if (n.alive()) {
                n.terminate();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        for (RunningNode n : all) {
            try {
                long left = deadline - System.nanoTime();
                if (!n.waitFor(Math.max(0, left), TimeUnit.NANOSECONDS)) {
                    n.kill();
                }
                n.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        hosts.values().forEach(RemoteHost::close); // an agent kills whatever of this run is left there
        shutdown();
        if (options.stats()) {
            sequencer.statsLines().forEach(err::println);
        }
 String why;
        synchronized (this) {
            why = discardReason;
        }
        if (why != null) {
            if (cluster.record() != null) {
                try {
                    java.nio.file.Files.deleteIfExists(cluster.record());
                } catch (IOException e) {
                    err.println("weft run: cannot remove the discarded recording " + cluster.record() + ": "
                            + OsErrorText.of(e));
                }
            }
        } else if (cluster.record() != null) {
            err.println("recorded to " + cluster.record() + " (verify: weft replay " + cluster.record() + ")");
        }
        return exitStatus();
    }

    /**
     * The windowed broker discarded the run. When a host agent dies, its nodes' broker connections end at the same
     * moment as its control channel, and either may be noticed first; the lost host is the real cause, so a
     * multi-host run waits briefly for it before naming the broker's reason.
     */
    private void discardedByBroker(String reason) {
        synchronized (this) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(hosts.isEmpty() ? 0 : 500);
            while (hostLoss == null && !hosts.isEmpty() && System.nanoTime() < deadline) {
                try {
                    wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (hostLoss != null) {
                reason = hostLoss;
            }
        }
        discarded(reason);
    }

    /** A host agent's control channel ended while nodes ran there: the run cannot be completed, exit 3. */
    private void hostLost(RemoteHost h) {
        String what = "host " + h.hostId() + " (" + h.address() + ") lost mid-run; its node(s) "
                + join(h.nodeIds()) + " stopped";
        synchronized (this) {
            if (finished || hostLoss != null) {
                return;
            }
            hostLoss = what;
            notifyAll();
        }
        if (cluster.windowNs() > 0) {
            discarded(what);
            return;
        }
        synchronized (this) {
            if (forcedExit >= 0) {
                return;
            }
            forcedExit = DISCARDED_EXIT;
            notifyAll();
        }
        err.println("weft run: " + what + "; stopping the run" + (cluster.record() != null
                ? " (the recording keeps what reached the broker)" : ""));
    }

    private static String join(List<Long> ids) {
        StringBuilder sb = new StringBuilder();
        for (Long n : ids) {
            sb.append(sb.length() == 0 ? "" : ", ").append(n);
        }
        return sb.toString();
    }

    /** A windowed run cannot go on (its one line says why): stop every node, keep no recording, exit 3. */
    private void discarded(String reason) {
        synchronized (this) {
            if (discardReason != null || finished) {
                return;
            }
            discardReason = reason;
            forcedExit = DISCARDED_EXIT;
            notifyAll();
        }
        err.println("weft run: run discarded: " + reason + (cluster.record() != null ? "; no recording kept" : ""));
    }

    private void shutdown() {
        server.close();
        recorder.close();
    }

    /** Watchdog/Ctrl-C first; else the first node (by id) that failed; else 1 if the recording broke; else 0. */
    private synchronized int exitStatus() {
        if (forcedExit >= 0) {
            return forcedExit;
        }
        for (Map.Entry<Long, Integer> e : statuses.entrySet()) {
            if (e.getValue() != 0) {
                err.println("weft run: node " + e.getKey() + " exited with status " + e.getValue());
                return e.getValue();
            }
        }
        return recorder.healthy() ? 0 : 1;
    }

    // ---- scenarios ----

    /** A windowed scenario's partition events by time (null: cleared); later events at one time win. */
    static Map<Long, java.util.function.BiPredicate<dev.weft.log.VAddr, dev.weft.log.VAddr>> partitionSchedule(
            List<ScenarioEvent> events) throws IllegalStateException {
        Map<Long, java.util.function.BiPredicate<dev.weft.log.VAddr, dev.weft.log.VAddr>> m = new LinkedHashMap<>();
        for (ScenarioEvent e : events) {
            if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                try {
                    m.put(e.timeNs(), ScenarioDriver.cutOf(p.spec()));
                } catch (NetSpecException ex) {
                    throw new IllegalStateException("validated when loaded", ex);
                }
            } else if (e.action() instanceof ScenarioAction.ClearPartition) {
                m.put(e.timeNs(), null);
            }
        }
        return m;
    }

    /** The scenario's network object as a net spec (the header's {@code net}); empty for a reliable network. */
    static String netSpec(Scenario s) {
        List<String> clauses = new ArrayList<>();
        if (s.network() != null) {
            if (s.network().latency() != null) {
                clauses.add("latency=" + s.network().latency().strip());
            }
            if (s.network().loss() != null) {
                clauses.add("loss=" + RustFloatText.display(s.network().loss()));
            }
            if (s.network().bandwidth() != null) {
                clauses.add("bw=" + Long.toUnsignedString(s.network().bandwidth()));
            }
            if (s.network().partitions() != null && !s.network().partitions().strip().isEmpty()) {
                clauses.add("partition=" + s.network().partitions().strip());
            }
        }
        return String.join(",", clauses);
    }

    /** Each node's command and variables: file faults (existing shim variables) and clock skew. */
    static List<NodePlan> scenarioNodes(Scenario s) {
        List<NodePlan> plans = new ArrayList<>();
        for (NodeSpec n : s.nodes()) {
            List<String> cmd = new ArrayList<>();
            cmd.add(n.program());
            cmd.addAll(n.args());
            Map<String, String> extra = new LinkedHashMap<>();
            FilesystemFaults f = s.filesystem() == null ? null : s.filesystem().get(n.nodeId());
            if (f != null) {
                if (f.fsyncLies()) {
                    extra.put("WEFT_FSYNC_LIES", "1");
                }
                if (f.enospcAfterBytes() != null) {
                    extra.put("WEFT_ENOSPC_BYTES", Long.toUnsignedString(f.enospcAfterBytes()));
                }
                if (f.tornWriteProbability() != null && f.tornWriteProbability() > 0) {
                    extra.put("WEFT_TORN_WRITES_PPM", Long.toString(Math.round(f.tornWriteProbability() * 1_000_000)));
                }
            }
            Long skew = s.timeSkew() == null ? null : s.timeSkew().get(n.nodeId());
            if (skew != null && skew != 0) {
                extra.put("WEFT_CLOCK_SKEW_NS", Long.toString(skew));
            }
            plans.add(new NodePlan(n.nodeId(), cmd, extra));
        }
        return plans;
    }
}
