package dev.weft.launcher.run;

import dev.weft.net.NetSpec;
import dev.weft.text.SeedText;
import dev.weft.net.NetSpecException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed command line of {@code weft run}:
 * {@code --seed N [--strategy random|rr] [--no-sched] [--trace] [--stats] [--shim P]
 * [--fsync-lies] [--enospc-after BYTES] [--torn-writes PPM] [--strict] [--keep-aslr] [--host-pids] [--rdtsc]
 * [--no-proc-sched] [--net SPEC [--nodes K] [--record LOG] [--watchdog S] [--listen [HOST:]PORT]] -- prog args...}, or
 * {@code [--record LOG] [--stats] [--watchdog S] [--listen [HOST:]PORT] SCENARIO.json}.
 *
 * @param cluster the simulated network run ({@code --net} or a scenario); null for a single process without one
 * @param remoteBroker a node started by hand for a broker elsewhere ({@code --broker}), or null
 * @param rdtsc   {@code --rdtsc}: rdtsc/rdtscp answered from virtual time ({@code WEFT_RDTSC=1})
 * @param procSched the processes of the tree take turns with a seeded run token ({@code WEFT_PROC_SCHED=1}): the
 *                  default for a single process tree under the thread scheduler; off with {@code --no-proc-sched},
 *                  {@code --no-sched}, {@code --net}, {@code --broker} or a scenario ({@code --proc-sched} is the
 *                  explicit form of the default)
 */
public record RunOptions(long seed, String strategy, boolean noSched, boolean trace, boolean stats,
        Optional<Path> shim, boolean fsyncLies, long enospcAfter, long tornWritesPpm, boolean strict,
        boolean keepAslr, boolean hostPids, List<String> command, Cluster cluster, RemoteBroker remoteBroker,
        boolean rdtsc, boolean procSched) {

    /** The same options with another seed (a scenario's own seed replaces the command line's). */
    public RunOptions withSeed(long newSeed) {
        return new RunOptions(newSeed, strategy, noSched, trace, stats, shim, fsyncLies, enospcAfter, tornWritesPpm,
                strict, keepAslr, hostPids, command, cluster, remoteBroker, rdtsc, procSched);
    }

    /**
     * A node started by hand for a broker elsewhere ({@code --broker ADDR --node-id N [--host-id H] [--window NS]
     * [--token-file F]}): the program joins that broker's run as node N of host H.
     *
     * @param address   the broker endpoint ({@code WEFT_BROKER}: {@code host:port} for TCP, else a Unix socket path)
     * @param tokenFile the broker's shared token (then a local relay answers its challenge), or null
     */
    public record RemoteBroker(String address, long nodeId, long hostId, long windowNs, Path tokenFile) {
    }

    public static final String USAGE = "usage: weft run --seed N [--strategy random|rr] [--no-sched] [--trace] [--stats]"
            + " [--shim PATH] [--fsync-lies] [--enospc-after BYTES] [--torn-writes PPM] [--strict] [--keep-aslr]"
            + " [--host-pids] [--rdtsc] [--no-proc-sched] [--net SPEC [--nodes K] [--record LOG] [--watchdog S] [--listen [HOST:]PORT]"
            + " [--window NS [--window-ops N]] [--plan FILE] [--hosts A:PORT,... | --place RANGE@A:PORT,...] [--token-file F]"
            + " [--end-when-exited N[,M...] [--grace NS]] [--env K=V]... [--pass-env NAME]... [--dry-run]]"
            + " -- prog [args...]\n"
            + "       weft run --seed N [shim options] --broker HOST:PORT --node-id N [--host-id H] [--window NS]"
            + " [--token-file F] -- prog [args...]\n"
            + "       weft run [--seed N] [--record LOG] [--stats] [--watchdog S] [--listen [HOST:]PORT] [--window NS"
            + " [--window-ops N]] [--plan FILE] [--end-when-exited N[,M...]] [--grace NS] [--env K=V]... [--dry-run]"
            + " [--shim PATH] SCENARIO.json";

    /**
     * A run under the live broker.
     *
     * @param net      the network spec (verbatim; may be empty); null for a scenario (it has its own)
     * @param nodes    how many instances of the program to start (node ids 0..nodes-1)
     * @param record   where to write the weft-log, or null
     * @param watchdog seconds without any broker operation after which the run is stopped (0: no watchdog)
     * @param listen   TCP address to accept nodes on as well, or null (Unix socket only)
     * @param scenario the scenario file, or null
     * @param windowNs the virtual-time window of a windowed run (0: single-host, no windows)
     * @param windowOps the most sends one node may buffer in one window (0: no limit)
     * @param placement which nodes run on which host agent ({@code --hosts}, {@code --place}); LOCAL: all here
     * @param tokenFile the shared token ({@code --token-file}), or null (then WEFT_TOKEN_FILE, if set)
     * @param end      when the run ends before every node has exited ({@code --end-when-exited}, {@code --grace})
     * @param nodeEnv  {@code --env}, {@code --pass-env}, {@code --dry-run}
     * @param plan     {@code --plan}: the fault plan replacing the seeded fates, or null
     * @param scenarioSeed a scenario run's {@code --seed}, replacing the scenario's own seed (campaigns run one
     *                 scenario under many seeds), or null: the scenario's seed
     */
    public record Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen,
            Path scenario, long windowNs, long windowOps, Placement placement, Path tokenFile, RunEnd end,
            NodeEnv nodeEnv, Path plan, Long scenarioSeed) {
        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario,
                long windowNs, long windowOps, Placement placement, Path tokenFile, RunEnd end, NodeEnv nodeEnv,
                Path plan) {
            this(net, nodes, record, watchdog, listen, scenario, windowNs, windowOps, placement, tokenFile, end,
                    nodeEnv, plan, null);
        }

        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario,
                long windowNs, long windowOps, Placement placement, Path tokenFile, RunEnd end, NodeEnv nodeEnv) {
            this(net, nodes, record, watchdog, listen, scenario, windowNs, windowOps, placement, tokenFile, end,
                    nodeEnv, null);
        }

        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario,
                long windowNs, long windowOps, Placement placement, Path tokenFile, RunEnd end) {
            this(net, nodes, record, watchdog, listen, scenario, windowNs, windowOps, placement, tokenFile, end,
                    NodeEnv.NONE);
        }

        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario,
                long windowNs, long windowOps, Placement placement, Path tokenFile) {
            this(net, nodes, record, watchdog, listen, scenario, windowNs, windowOps, placement, tokenFile,
                    RunEnd.NONE);
        }

        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario) {
            this(net, nodes, record, watchdog, listen, scenario, 0, 0);
        }

        public Cluster(String net, int nodes, Path record, long watchdog, InetSocketAddress listen, Path scenario,
                long windowNs, long windowOps) {
            this(net, nodes, record, watchdog, listen, scenario, windowNs, windowOps, Placement.LOCAL, null);
        }
    }

    /**
     * {@code --end-when-exited N[,M…] [--grace NS]}: once every listed node has exited, the others are stopped
     * (SIGTERM, SIGKILL after the grace) and the run ends (docs/cli.md, "Runs that end").
     *
     * @param nodes   the listed node ids, ascending; empty: the run ends when every node has exited
     * @param graceNs the virtual grace between SIGTERM and SIGKILL
     * @param fromCommandLine the list came from the command line (it replaces a scenario's {@code end_when_exited})
     */
    public record RunEnd(List<Long> nodes, long graceNs, boolean fromCommandLine) {
        /** The default grace: one second of virtual time. */
        public static final long DEFAULT_GRACE_NS = 1_000_000_000L;
        public static final RunEnd NONE = new RunEnd(List.of(), DEFAULT_GRACE_NS, false);

        public RunEnd {
            nodes = List.copyOf(new java.util.TreeSet<>(nodes));
        }

        /** The same grace with a scenario's list (a command-line list wins). */
        RunEnd orScenario(List<Long> scenarioNodes) {
            return fromCommandLine || scenarioNodes == null ? this : new RunEnd(scenarioNodes, graceNs, false);
        }

        boolean active() {
            return !nodes.isEmpty();
        }
    }

    /**
     * The nodes' environment options (docs/broker.md, "What travels with a node").
     *
     * @param set     {@code --env K=V}: set for every node, here and on agents (later ones win)
     * @param pass    {@code --pass-env NAME}: forward a variable about this machine to agents after all
     * @param dryRun  {@code --dry-run}: print each node's host, directory, command and environment; run nothing
     */
    public record NodeEnv(java.util.SortedMap<String, String> set, java.util.SortedSet<String> pass, boolean dryRun) {
        public static final NodeEnv NONE = new NodeEnv(new java.util.TreeMap<>(), new java.util.TreeSet<>(), false);

        public NodeEnv {
            set = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(set));
            pass = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(pass));
        }
    }

    /** A user mistake on the command line; the message says what is wrong. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    public RunOptions {
        command = List.copyOf(command);
    }

    public static RunOptions parse(String[] args) throws UsageException {
        // the shim's options (the flags by name: --no-sched, --trace, --rdtsc, ...)
        Long seed = null;
        String strategy = "random";
        Path shim = null;
        long enospc = 0, torn = 0;
        Set<String> flags = new HashSet<>();
        // the simulated network run's options
        String net = null, hosts = null, place = null;
        Long nodes = null;
        Path record = null, tokenFile = null, plan = null;
        long watchdog = 0, window = 0, windowOps = 0;
        List<Long> endWhenExited = null;
        Long grace = null;
        java.util.SortedMap<String, String> envSet = new java.util.TreeMap<>();
        java.util.SortedSet<String> passEnv = new java.util.TreeSet<>();
        InetSocketAddress listen = null;
        // a node for a broker elsewhere
        String broker = null;
        Long nodeId = null, hostId = null;
        List<String> command = new ArrayList<>();
        int i = 0;
        while (i < args.length) {
            String a = args[i];
            if (a.equals("--")) {
                for (i++; i < args.length; i++) {
                    command.add(args[i]);
                }
                break;
            }
            String inlineValue = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                inlineValue = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--seed" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    try {
                        seed = SeedText.parse(v);
                    } catch (SeedText.InvalidSeedException e) {
                        throw new UsageException("--seed \"" + v + "\": " + e.getMessage());
                    }
                }
                case "--strategy" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    strategy = switch (v) {
                        case "random", "rand" -> "random";
                        case "rr", "round-robin", "roundrobin" -> "rr";
                        default -> throw new UsageException("--strategy \"" + v + "\": expected 'random' or 'rr'");
                    };
                }
                case "--shim" -> shim = Path.of(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--enospc-after" -> enospc = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--torn-writes" -> {
                    torn = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                    if (torn > 1_000_000) {
                        throw new UsageException("--torn-writes " + torn + ": at most 1000000 (parts per million)");
                    }
                }
                case "--net" -> {
                    net = inlineValue != null ? inlineValue : value(args, i++, a);
                    try {
                        NetSpec.parse(net);
                    } catch (NetSpecException e) {
                        throw new UsageException("--net: " + e.getMessage());
                    }
                }
                case "--nodes" -> {
                    nodes = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                    if (nodes < 1 || nodes > RunLimits.MAX_NODES) {
                        throw new UsageException("--nodes " + nodes + ": expected 1 to " + RunLimits.MAX_NODES);
                    }
                }
                case "--record" -> record = Path.of(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--plan" -> plan = Path.of(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--watchdog" -> watchdog = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--window" -> {
                    window = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                    if (window == 0) {
                        throw new UsageException("--window 0: a window is at least 1 ns (leave --window out for none)");
                    }
                }
                case "--window-ops" -> windowOps = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--broker" -> broker = inlineValue != null ? inlineValue : value(args, i++, a);
                case "--node-id" -> nodeId = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--host-id" -> hostId = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--hosts" -> hosts = inlineValue != null ? inlineValue : value(args, i++, a);
                case "--place" -> place = inlineValue != null ? inlineValue : value(args, i++, a);
                case "--end-when-exited" -> endWhenExited = nodeList(a,
                        inlineValue != null ? inlineValue : value(args, i++, a));
                case "--env" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    int at = v.indexOf('=');
                    if (at <= 0) {
                        throw new UsageException("--env \"" + v + "\": expected NAME=VALUE");
                    }
                    String name = v.substring(0, at);
                    if (NodeEnvironment.unsettable(name) != null) {
                        throw new UsageException("--env " + name + ": cannot be set for nodes ("
                                + NodeEnvironment.unsettable(name) + ")");
                    }
                    envSet.put(name, v.substring(at + 1));
                }
                case "--pass-env" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    for (String name : v.split(",")) {
                        if (name.isEmpty() || name.contains("=")) {
                            throw new UsageException("--pass-env \"" + v + "\": expected variable names (NAME[,NAME...])");
                        }
                        if (NodeEnvironment.never(name)) {
                            throw new UsageException("--pass-env " + name + ": never forwarded (the loader's, PATH"
                                    + " and weft's own variables stay on each machine; docs/broker.md)");
                        }
                        passEnv.add(name);
                    }
                }
                case "--grace" -> grace = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--token-file" -> tokenFile = Path.of(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--listen" -> listen = listenAddress(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--no-sched", "--trace", "--stats", "--fsync-lies", "--strict", "--keep-aslr", "--host-pids",
                        "--rdtsc", "--proc-sched", "--no-proc-sched", "--dry-run" -> flags.add(flag(a, inlineValue));
                default -> {
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    // the first non-option word starts the program (the "--" is optional)
                    for (; i < args.length; i++) {
                        command.add(args[i]);
                    }
                    continue;
                }
            }
            i++;
        }
        boolean scenario = net == null && command.size() == 1 && command.get(0).endsWith(".json");
        boolean singleTree = !scenario && net == null && broker == null;
        if (flags.contains("--proc-sched")) {
            if (!singleTree) {
                // each node of a network run is its own tree under the broker's schedule; the run token is not wired to it
                throw new UsageException("--proc-sched: process scheduling covers one process tree;"
                        + " not with " + (scenario ? "a scenario" : net != null ? "--net" : "--broker"));
            }
            if (flags.contains("--no-sched")) {
                throw new UsageException("--proc-sched needs the thread scheduler: leave out --no-sched");
            }
            if (flags.contains("--no-proc-sched")) {
                throw new UsageException("--proc-sched and --no-proc-sched: choose one");
            }
        }
        // the default: one scheduler for the whole tree whenever the thread scheduler is on and the run is one tree
        boolean procSched = singleTree && !flags.contains("--no-sched") && !flags.contains("--no-proc-sched");
        if (grace != null && endWhenExited == null && !scenario) {
            throw new UsageException("--grace needs --end-when-exited (or a scenario with \"end_when_exited\")");
        }
        if ((endWhenExited != null || grace != null) && !scenario && net == null) {
            throw new UsageException((endWhenExited != null ? "--end-when-exited" : "--grace")
                    + " needs --net (a simulated network) or a scenario");
        }
        RunEnd end = new RunEnd(endWhenExited == null ? List.of() : endWhenExited,
                grace == null ? RunEnd.DEFAULT_GRACE_NS : grace, endWhenExited != null);
        if ((!envSet.isEmpty() || !passEnv.isEmpty() || flags.contains("--dry-run")) && !scenario && net == null) {
            throw new UsageException((!envSet.isEmpty() ? "--env" : !passEnv.isEmpty() ? "--pass-env" : "--dry-run")
                    + " needs --net (a simulated network) or a scenario");
        }
        NodeEnv nodeEnv = new NodeEnv(envSet, passEnv, flags.contains("--dry-run"));
        if (plan != null && ((net == null && !scenario) || broker != null)) {
            // the plan replaces the seeded fates of the broker this run hosts (docs/fault-plans.md)
            throw new UsageException("--plan needs --net or a scenario (a simulated network this run hosts)");
        }
        Cluster cluster = null;
        RemoteBroker remoteBroker = null;
        if (scenario) {
            if (nodes != null) {
                throw new UsageException("--nodes: a scenario lists its own nodes");
            }
            if (windowOps != 0 && window == 0) {
                throw new UsageException("--window-ops needs --window");
            }
            if (hosts != null || place != null) {
                throw new UsageException((hosts != null ? "--hosts" : "--place") + ": scenario runs start every node"
                        + " on this machine (a scenario's crash and start need the node's process here)");
            }
            // without --seed the scenario's own seed replaces the placeholder when the run starts
            cluster = new Cluster(null, 0, record, watchdog, listen, Path.of(command.get(0)), window, windowOps,
                    Placement.LOCAL, tokenFile, end, nodeEnv, plan, seed);
            if (seed == null) seed = 0L;
            command.clear();
        } else if (seed == null) {
            throw new UsageException("--seed is required");
        } else if (command.isEmpty()) {
            throw new UsageException("no program given after --");
        } else if (broker != null || nodeId != null || hostId != null) {
            if (net != null) {
                throw new UsageException("--broker: a node for a broker elsewhere takes its network from that broker;"
                        + " leave out --net");
            }
            if (broker == null || nodeId == null) {
                throw new UsageException(broker == null ? (nodeId != null ? "--node-id" : "--host-id")
                        + " needs --broker ADDR" : "--broker needs --node-id N");
            }
            if (nodeId > 0xFFFF_FFFFL || (hostId != null && hostId > 0xFFFF_FFFFL)) {
                throw new UsageException((nodeId > 0xFFFF_FFFFL ? "--node-id" : "--host-id") + ": at most 4294967295");
            }
            if (nodes != null || record != null || watchdog != 0 || listen != null || hosts != null || place != null
                    || windowOps != 0) {
                throw new UsageException("--broker: " + (nodes != null ? "--nodes" : record != null ? "--record"
                        : watchdog != 0 ? "--watchdog" : listen != null ? "--listen" : hosts != null ? "--hosts"
                        : place != null ? "--place" : "--window-ops") + " belongs to the run that hosts the broker");
            }
            remoteBroker = new RemoteBroker(broker, nodeId, hostId == null ? 0 : hostId, window, tokenFile);
        } else if (net != null) {
            int k = nodes == null ? 1 : (int) (long) nodes;
            for (long id : end.nodes()) {
                if (id >= k) {
                    throw new UsageException("--end-when-exited " + id + ": no such node (--nodes " + k
                            + " runs nodes 0 to " + (k - 1) + ")");
                }
            }
            Placement placement = Placement.LOCAL;
            if (hosts != null || place != null) {
                try {
                    placement = Placement.parse(hosts, place, k);
                } catch (Placement.PlacementException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            cluster = new Cluster(net, k, record, watchdog, listen, null, window, windowOps, placement, tokenFile, end, nodeEnv,
                    plan);
        } else if (hosts != null || place != null || tokenFile != null) {
            throw new UsageException((hosts != null ? "--hosts" : place != null ? "--place" : "--token-file")
                    + " needs --net (a simulated network)");
        } else if (window != 0 || windowOps != 0) {
            throw new UsageException((window != 0 ? "--window" : "--window-ops") + " needs --net (a simulated network)");
        } else if (nodes != null || record != null || watchdog != 0 || listen != null) {
            throw new UsageException((nodes != null ? "--nodes" : record != null ? "--record"
                    : watchdog != 0 ? "--watchdog" : "--listen") + " needs --net (a simulated network)");
        }
        return new RunOptions(seed, strategy, flags.contains("--no-sched"), flags.contains("--trace"),
                flags.contains("--stats"), Optional.ofNullable(shim), flags.contains("--fsync-lies"), enospc, torn,
                flags.contains("--strict"), flags.contains("--keep-aslr"), flags.contains("--host-pids"), command,
                cluster, remoteBroker, flags.contains("--rdtsc"), procSched);
    }

    /** {@code PORT} (loopback) or {@code HOST:PORT}; a port of 0 picks a free one. */
    static InetSocketAddress listenAddress(String v) throws UsageException {
        int colon = v.lastIndexOf(':');
        String host = colon < 0 ? "127.0.0.1" : v.substring(0, colon);
        String port = colon < 0 ? v : v.substring(colon + 1);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65535 || host.isEmpty()) {
            throw new UsageException("--listen \"" + v + "\": expected PORT or HOST:PORT");
        }
        return new InetSocketAddress(host, Integer.parseInt(port));
    }

    /** {@code N[,M…]}: node ids (u32), at least one. */
    private static List<Long> nodeList(String option, String v) throws UsageException {
        List<Long> ids = new ArrayList<>();
        for (String part : v.split(",", -1)) {
            if (!part.strip().matches("[0-9]{1,10}") || Long.parseLong(part.strip()) > 0xFFFF_FFFFL) {
                throw new UsageException(option + " \"" + v + "\": expected node ids separated by commas (e.g. 0,2)");
            }
            ids.add(Long.parseLong(part.strip()));
        }
        return ids;
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i + 1 >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i + 1];
    }

    /** The flag's name, after checking it was not given a value ({@code --trace=1}). */
    private static String flag(String option, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(option + " takes no value");
        }
        return option;
    }

    private static long number(String option, String v) throws UsageException {
        if (!v.matches("\\+?[0-9]+")) {
            throw new UsageException(option + " \"" + v + "\": expected a non-negative integer");
        }
        try {
            return Long.parseUnsignedLong(v.startsWith("+") ? v.substring(1) : v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " \"" + v + "\": too large");
        }
    }
}
