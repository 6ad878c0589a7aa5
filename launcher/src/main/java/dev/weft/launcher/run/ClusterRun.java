package dev.weft.launcher.run;

import dev.weft.broker.BrokerServer;
import dev.weft.broker.DeadlockVerdict;
import dev.weft.broker.OpSequencer;
import dev.weft.broker.SingleHostSequencer;
import dev.weft.broker.WindowedSequencer;
import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.record.LogRecorder;
import dev.weft.broker.record.Recorder;
import dev.weft.net.FateSource;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanSidecar;
import dev.weft.net.NetSpecException;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
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
    /** Exit status of a windowed run that had to be discarded (killed node, protocol violation, watchdog). */
    static final int DISCARDED_EXIT = 3;
    /** Exit status of the deadlock verdict: every live node waits with no deadline and nothing can wake them. */
    static final int DEADLOCK_EXIT = 4;

    private final RunOptions options;
    private final RunOptions.Cluster cluster;
    /** Counted down once {@link #finish()} has closed the recording and said its last line. */
    private final java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
    /** Given the kept recording at the end, before {@link #reported} (what the caller writes beside it). */
    private java.util.function.Consumer<Path> recorded = log -> { };
    /** Reports an interrupt until this run's own hook is in place. */
    private EarlyInterrupt early;
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
    /** Incarnations whose exit has been handled (status kept, signal death said; guarded by this). */
    private final Set<RunningNode> exitHandled = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Final status per node of incarnations that ended by themselves (guarded by this). */
    private final Map<Long, Integer> statuses = new TreeMap<>();
    /** Set before the nodes start; read by connection threads (the deadlock check). */
    private volatile ScenarioDriver driver;
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
    /** The nodes' history lines, written beside the recording at the end. */
    private final HistoryCollector history;
    /** --end-when-exited: which listed nodes have exited (guarded by this). */
    private final RunEnding runEnding;
    /** Every listed node has exited: the run ends now (guarded by this). */
    private boolean ending;
    /** The windowed sequencer, or null in a plain run. */
    private final WindowedSequencer windowed;
    /** The deadlock verdict once given (guarded by this), or null. */
    private DeadlockVerdict deadlock;
    /**
     * Scenario starts fired but not yet done (guarded by this): the restart thread may still be waiting for the
     * crashed incarnation or spawning the new one. The run does not end, and no deadlock verdict is given, meanwhile.
     */
    private int starting;

    /** What a host agent needs to start a node. */
    record RemoteSpawn(List<String> command, Map<String, String> env) {
    }

    private ClusterRun(RunOptions options, PrintStream out, PrintStream err, OpSequencer sequencer,
            Recorder recorder, BrokerServer server, Optional<Path> setsid, RunEnding runEnding) {
        this.runEnding = runEnding;
        this.windowed = sequencer instanceof WindowedSequencer w ? w : null;
        this.options = options;
        this.cluster = options.cluster();
        this.out = out;
        this.err = err;
        this.sequencer = sequencer;
        this.singleHost = sequencer instanceof SingleHostSequencer s ? s : null;
        this.recorder = recorder;
        this.server = server;
        this.setsid = setsid;
        this.history = HistoryCollector.of(cluster.record(), err);
    }

    static int run(RunOptions o, Map<String, String> env, PrintStream out, PrintStream err) {
        return run(o, env, out, err, log -> { });
    }

    /**
     * As {@link #run(RunOptions, Map, PrintStream, PrintStream)}; {@code recorded} is given the recording once it is
     * kept and complete, before the run's last word: a Ctrl-C waits for it (a file written after the run returned
     * could be cut short by the JVM's exit and leave its temporary file behind).
     */
    static int run(RunOptions o, Map<String, String> env, PrintStream out, PrintStream err,
            java.util.function.Consumer<Path> recorded) {
        EarlyInterrupt early = EarlyInterrupt.install(o.cluster().record(), err);
        try {
            return run(o, env, out, err, early, recorded);
        } finally {
            early.handOver();
        }
    }

    private static int run(RunOptions o, Map<String, String> env, PrintStream out, PrintStream err,
            EarlyInterrupt early, java.util.function.Consumer<Path> recorded) {
        RunInputs.Nodes nodes;
        Path shim;
        RunInputs.Fates fates;
        try {
            nodes = RunInputs.nodes(o);
            shim = locateShim(nodes.options(), env);
            if (!nodes.options().cluster().nodeEnv().dryRun()) {
                RunWarmUp.begin(new ShimLocator(env, ShimLocator.ownLocation().orElse(null))
                        .locateTool(ShimLocator.EXEC, shim));
            }
            if (o.cluster().nodeEnv().dryRun()) {
                return DryRun.print(nodes.options(), nodes.plans(), nodes.net(), shim, env, out, err);
            }
            fates = RunInputs.fates(nodes);
        } catch (RunInputs.Refused e) {
            err.println("weft run: " + e.getMessage());
            return RunCommand.USAGE_ERROR;
        }
        RunOptions.Cluster c = o.cluster();
        RunOptions opts = nodes.options();
        String net = nodes.net();
        List<NodePlan> plans = nodes.plans();
        List<ScenarioEvent> events = fates.events();
        RunOptions.RunEnd end = nodes.end();
        FateSource fault = fates.fault();
        byte[] planDocument = fates.planDocument();
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
            if (!early.beginRecording()) {
                agents.values().forEach(RemoteHost::close);
                return INTERRUPTED_EXIT; // interrupted before the log was begun, and that has been said
            }
            LogRecorder created = null;
            try {
                if (planDocument != null) {
                    // beside the recording, where weft replay looks for it; the header names its digest
                    Files.write(PlanSidecar.of(c.record()), planDocument);
                }
                created = LogRecorder.create(c.record(), opts.seed(), net, c.windowNs(),
                        placement.isLocal() ? null : placement.hostMap(plans.stream().map(NodePlan::id).toList()),
                        planDocument == null ? null : FaultPlanJson.digest(planDocument), err::println);
                recorder = created;
            } catch (IOException e) {
                err.println("weft run: cannot record to " + c.record() + ": " + OsErrorText.of(e));
                agents.values().forEach(RemoteHost::close);
                return RunCommand.USAGE_ERROR;
            } finally {
                early.recorder(created);
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
            windowed.setStreamPartitions(streamPartitions(events));
            windowed.endWhenExited(end.nodes());
            // given under the sequencer's lock: hand it to another thread (lock order)
            windowed.onDeadlock(v -> {
                Thread t = new Thread(() -> self[0].deadlocked(v), "weft-run-deadlock");
                t.setDaemon(true);
                t.start();
            });
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
                NodeProcess.setsid(env.get("PATH")), new RunEnding(end, env));
        run.hosts.putAll(agents);
        agents.values().forEach(h -> h.onNote(err::println));
        run.early = early;
        run.recorded = recorded;
        self[0] = run;
        if (run.singleHost != null) {
            run.singleHost.onForeverWait(run::checkDeadlock);
        }
        return run.execute(plans, events, net, shim, env);
    }

    private static Path locateShim(RunOptions o, Map<String, String> env) throws RunInputs.Refused {
        try {
            return RunCommand.locateShim(o, env);
        } catch (ShimLocator.ShimNotFoundException e) {
            throw new RunInputs.Refused(e.getMessage());
        }
    }

    private int execute(List<NodePlan> plans, List<ScenarioEvent> events, String net, Path shim,
            Map<String, String> env) {
        InetSocketAddress tcp = server.tcpAddress();
        if (tcp != null) {
            err.println("weft run: the broker also accepts nodes on tcp " + AddressText.of(cluster.listen(), tcp)
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
                Map<String, String> own = p.variables(options, net);
                if (cluster.placement().hostId(p.id()) != 0) {
                    // what the node would get here, minus the deny-list; the agent adds its shim and broker relay
                    remoteSpawns.put(p.id(),
                            new RemoteSpawn(p.command(), NodePlan.remoteVariables(options, shim, env, own)));
                    continue;
                }
                Map<String, String> extra = new LinkedHashMap<>(own);
                extra.put("WEFT_BROKER", server.socketPath().toString());
                extra.put("WEFT_NODE_ID", Long.toString(p.id()));
                builders.put(p.id(), RunCommand.build(options, shim, p.command(), env, extra, notes::add));
            }
        } catch (RunCommand.RefusedException e) {
            err.println("weft run: " + e.getMessage());
            shutdown();
            return RunCommand.USAGE_ERROR;
        }
        notes.forEach(err::println);
        if (!remoteSpawns.isEmpty()) {
            NodeEnvironment.notForwardedLines(env, cluster.nodeEnv().pass()).forEach(err::println);
        }
        if (!events.isEmpty() && cluster.windowNs() > 0) {
            // partitions only (checked): the windowed broker cuts datagrams by each send's virtual time, and stalls the
            // TCP segments sent across a partition until it heals (docs/tcp.md)
            for (ScenarioEvent e : events) {
                err.println("[weft] scenario t=" + Long.toUnsignedString(e.timeNs()) + ": "
                        + (e.action() instanceof ScenarioAction.ActivatePartition p ? "partition " + p.spec()
                        : "partition cleared") + " (windowed: cuts the datagrams sent at or after t; TCP segments"
                        + " sent across it stall)");
            }
        } else if (!events.isEmpty()) {
            driver = new ScenarioDriver(events, singleHost, new ScenarioDriver.Actions() {
                @Override
                public void crash(long nodeId, long timeNs) {
                    singleHost.crashStreams(nodeId, timeNs); // its peers see a reset, not the FIN of its exit
                    crashNode(nodeId, timeNs);
                }

                @Override
                public void start(long nodeId, long timeNs) {
                    synchronized (ClusterRun.this) { // (under the sequencer's lock, as crash takes ours: same order)
                        starting++;
                    }
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
            boolean ending;
            synchronized (this) {
                ending = finished;
                if (!ending) {
                    forcedExit = INTERRUPTED_EXIT;
                }
            }
            if (!ending) {
                err.println("weft run: interrupted; stopping every node");
                finish();
            }
            // Whoever runs finish() -- the run ending on its own, or the main thread that saw forcedExit and got
            // there before this hook (then the call above returns at once) -- its end record and last line must
            // come before the JVM goes, which it does as soon as this hook returns (bounded: a stuck end must not
            // keep a Ctrl-C waiting)
            try {
                reported.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "weft-run-interrupt");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            shutdown(); // interrupted just now: the early hook has said what the recording holds
            return INTERRUPTED_EXIT;
        }
        early.handOver(); // from here on the hook above reports an interrupt
        if (!startAll(plans)) {
            synchronized (this) {
                if (forcedExit < 0) { // (a start refused because the run already ended keeps that end's status)
                    forcedExit = RunCommand.CANNOT_EXECUTE;
                }
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

    /**
     * Starts every node of the plan: this host's concurrently ({@link ConcurrentStarts}), then, in id order, each
     * is registered and a remote one is spawned by its host agent (one at a time, as the agents' channels expect).
     * At the first node that cannot start (by id) that is said and no further remote node is spawned; the ones
     * already started are registered all the same, so the run's end stops them. False if a node could not start.
     */
    private boolean startAll(List<NodePlan> plans) {
        List<Long> localIds = plans.stream().map(NodePlan::id).filter(id -> cluster.placement().hostId(id) == 0)
                .toList();
        Map<Long, ConcurrentStarts.Started<NodeProcess>> local = new TreeMap<>();
        try {
            for (ConcurrentStarts.Started<NodeProcess> s : ConcurrentStarts.startAll(localIds, this::startLocal)) {
                local.put(s.nodeId(), s);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        boolean allStarted = true;
        for (NodePlan p : plans) {
            long id = p.id();
            ConcurrentStarts.Started<NodeProcess> s = local.get(id);
            if (s == null) {
                if (allStarted && !startNode(id)) {
                    allStarted = false;
                }
            } else if (s.process() != null) {
                if (!register(s.process())) { // (the run ended meanwhile: it was stopped at once)
                    allStarted = false;
                }
            } else if (allStarted) {
                err.println("weft run: cannot start node " + id + ": " + OsErrorText.of(s.failure()));
                allStarted = false;
            }
        }
        return allStarted;
    }

    private NodeProcess startLocal(long id) throws IOException {
        heldFromNow(id);
        return NodeProcess.start(id, builders.get(id), setsid, history.tap(id, NodeProcess.prefixed(id, out, err)));
    }

    /**
     * Before the process can say hello: from now until its exit the node holds the windowed frontier at its clock,
     * sockets open or not (docs/broker.md, "The windowed frontier"); a start that fails ends the run anyway.
     */
    private void heldFromNow(long id) {
        if (windowed != null) {
            windowed.nodeStarted(id);
        }
    }

    /** Starts one node (a scenario's restart, or a remote one) and registers it; false if it could not start. */
    private boolean startNode(long id) {
        RunningNode n;
        long hostId = cluster.placement().hostId(id);
        if (hostId != 0) {
            heldFromNow(id);
            RemoteHost h = hosts.get(hostId);
            RemoteSpawn spec = remoteSpawns.get(id);
            InetSocketAddress tcp = server.tcpAddress();
            String broker = (tcp.getAddress().isAnyLocalAddress() ? h.localAddress() : tcp.getAddress())
                    .getHostAddress() + ":" + tcp.getPort();
            try {
                n = h.spawn(id, spec.command(), spec.env(), !options.hostPids(), !options.keepAslr(), broker,
                        history.tap(id, NodeProcess.prefixed(id, out, err)));
            } catch (RemoteHost.HostException e) {
                err.println("weft run: " + e.getMessage());
                return false;
            }
        } else {
            try {
                n = startLocal(id);
            } catch (IOException e) {
                err.println("weft run: cannot start node " + id + ": " + OsErrorText.of(e));
                return false;
            }
        }
        return register(n);
    }

    /** Makes a started node the current incarnation of its id and watches its exit; false if the run ended meanwhile. */
    private boolean register(RunningNode n) {
        long id = n.nodeId();
        synchronized (this) {
            if (finished) {
                // Ctrl-C or the watchdog ended the run while this node was starting: it must not outlive it
                n.kill();
                return false;
            }
            current.put(id, n);
            statuses.remove(id);
        }
        n.onExit(() -> {
            try {
                exited(n);
                reportSignalDeath(n);
            } finally {
                synchronized (this) {
                    exitHandled.add(n);
                    notifyAll();
                }
            }
        });
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
        boolean listedExit = false;
        boolean tellBroker;
        synchronized (this) {
            boolean currentIncarnation = current.get(n.nodeId()) == n;
            if (!n.killedOnPurpose() && currentIncarnation) {
                statuses.put(n.nodeId(), rc);
                listedExit = runEnding.listed(n.nodeId());
                if (runEnding.exited(n.nodeId())) {
                    ending = true;
                }
            }
            // any node's exit (local, or reported by its host agent) ends its hold on the windowed frontier; a listed
            // node's counts only when it exited by itself, as the run's end counts only those
            tellBroker = runEnding.listed(n.nodeId()) ? listedExit : currentIncarnation;
            notifyAll();
        }
        if (tellBroker && windowed != null) {
            windowed.nodeExited(n.nodeId()); // outside our lock (lock order: the sequencer calls back)
        }
        checkDeadlock(); // the ones left may all be waiting for this node
    }

    /**
     * Plain runs: asks the broker whether every node whose process runs waits with no deadline (only the launcher
     * knows which processes run). Called when a node starts waiting forever and when a node exits; a scenario event
     * still to come, or a node not yet started, can change everything, so there is no verdict then.
     */
    private void checkDeadlock() {
        if (singleHost == null || cluster.listen() != null) {
            return; // (with --listen, nodes started by hand may still join)
        }
        ScenarioDriver d = driver;
        if (d != null && d.pending()) {
            return; // (asked before taking our lock: it takes the sequencer's, which fires events that take ours)
        }
        List<Long> live = new ArrayList<>();
        synchronized (this) {
            if (finished || forcedExit >= 0 || ending || starting > 0
                    || current.size() < builders.size() + remoteSpawns.size()) {
                return;
            }
            for (RunningNode n : current.values()) {
                if (n.alive()) {
                    live.add(n.nodeId());
                }
            }
        }
        DeadlockVerdict v = singleHost.deadlockOf(live);
        if (v != null) {
            deadlocked(v);
        }
    }

    /** The broker's deadlock verdict: one line, exit 4, the log completed (with the verdict) before the nodes stop. */
    private void deadlocked(DeadlockVerdict v) {
        synchronized (this) {
            if (finished || forcedExit >= 0) {
                return;
            }
            deadlock = v;
            forcedExit = DEADLOCK_EXIT;
            notifyAll();
        }
        err.println("weft run: " + v.line());
    }

    /**
     * After {@link #exited}: a node a signal ended without the run asking is named with its signal at that moment,
     * not only in the exit summary (a separate step, so the exit bookkeeping above stays one concern).
     */
    private void reportSignalDeath(RunningNode n) {
        Integer rc;
        synchronized (this) {
            rc = finished || n.killedOnPurpose() || current.get(n.nodeId()) != n ? null : statuses.get(n.nodeId());
        }
        String line = rc == null ? null : NodeDeath.line(n.nodeId(), rc);
        if (line != null) {
            err.println(line);
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
        try {
            restartNodeNow(id, timeNs);
        } finally {
            synchronized (this) {
                starting--;
                notifyAll(); // (waitForTheEnd asks for the verdict again within 50 ms)
            }
        }
    }

    private void restartNodeNow(long id, long timeNs) {
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
                if (forcedExit >= 0 || ending) {
                    return;
                }
                // a start on its way counts as running: the run must not end (or the clock jump) under it
                // (and a node's exit counts once it has been handled: its signal death is said before the end)
                anyRunning = starting > 0
                        || current.values().stream().anyMatch(n -> n.alive() || !exitHandled.contains(n));
                try {
                    if (anyRunning || driver != null) {
                        // (once every node has ended, the checks below end the wait at once: waiting here cost
                        // every run 50 ms after its last node's exit, the notify having come before this wait)
                        wait(50);
                    }
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
            checkDeadlock(); // (also asked at every forever-wait and exit; this catches a scenario's last event)
            if (!anyRunning && (driver == null || !driver.startPending())) {
                awaitConnectionEnds();
                return;
            }
        }
    }

    /**
     * Every node has ended: before the run finishes, the broker reads each connection's end (bounded: a daemon a
     * node left behind may keep one open). A windowed run whose node died without its Goodbye is discarded by the
     * connection thread that reads that end; finishing first would record the run instead (it did, once the end
     * stopped waiting a fixed 50 ms).
     */
    private void awaitConnectionEnds() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        try {
            while (server.liveConnections() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String why = windowed == null ? null : windowed.discardReason();
        if (why != null && hosts.isEmpty()) {
            // (the broker's own report comes through another thread, which this one may pass; with host agents
            // that thread first waits for a lost host, the real cause, so it is left to report)
            discarded(why);
        }
    }

    /** Stops every node, finishes the log and prints the summary; runs once (normal end or Ctrl-C). */
    private int finish() {
        List<RunningNode> all;
        boolean endNow;
        boolean verdict;
        synchronized (this) {
            if (finished) {
                return exitStatus();
            }
            finished = true;
            all = new ArrayList<>(current.values());
            endNow = ending && forcedExit < 0;
            verdict = deadlock != null;
        }
        if (verdict) {
            sequencer.finish(); // the verdict's record, the disconnects and end: before any node is stopped
        }
        if (endNow) {
            endTheRun(all);
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
            history.discard();
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
            history.write(cluster.windowNs() > 0);
            if (java.nio.file.Files.isRegularFile(cluster.record())) {
                recorded.accept(cluster.record());
            }
        }
        int rc = exitStatus();
        reported.countDown();
        return rc;
    }

    /**
     * Every listed node has exited: the recording ends first (a windowed run applies everything up to the listed
     * nodes' last virtual time, so the cut is the same on every run of a seed), then the others are stopped; their
     * ends are not recorded and discard nothing.
     */
    private void endTheRun(List<RunningNode> all) {
        long endVt = -1;
        if (windowed != null) {
            long settle = TimeUnit.SECONDS.toNanos(Math.max(10, cluster.watchdog()));
            String why = windowed.awaitEnd(settle);
            if (why != null) {
                synchronized (this) {
                    discardReason = why;
                    forcedExit = DISCARDED_EXIT;
                }
                err.println("weft run: run discarded: " + why + (cluster.record() != null ? "; no recording kept" : ""));
                return;
            }
            endVt = windowed.endVt();
        }
        java.util.Set<Long> exitedNodes;
        synchronized (this) {
            exitedNodes = java.util.Set.copyOf(statuses.keySet());
        }
        // a signal record for each node still connected whose process still runs, then end
        sequencer.finishWithSignals(exitedNodes);
        runEnding.stopOthers(all, endVt, err);
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
        String what = "host " + h.hostId() + " (" + h.address() + ") " + h.lostHow() + "; its node(s) "
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

    /**
     * Watchdog/Ctrl-C first; else the first listed node (--end-when-exited) that failed; else the first node (by id)
     * that failed by itself (nodes stopped at the run's end are not failures); else 1 if the recording broke; else 0.
     */
    private synchronized int exitStatus() {
        if (forcedExit >= 0) {
            return forcedExit;
        }
        for (Long id : runEnding.listedNodes()) {
            Integer rc = statuses.get(id);
            if (rc != null && rc != 0) {
                err.println("weft run: node " + id + " exited with status " + rc);
                return rc;
            }
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

    /** The scenario's partitions for the TCP streams by instant: the spec, or empty for a heal (the last of an instant wins). */
    static Map<Long, String> streamPartitions(List<ScenarioEvent> events) {
        Map<Long, String> m = new LinkedHashMap<>();
        for (ScenarioEvent e : events) {
            if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                m.put(e.timeNs(), p.spec());
            } else if (e.action() instanceof ScenarioAction.ClearPartition) {
                m.put(e.timeNs(), "");
            }
        }
        return m;
    }
}
