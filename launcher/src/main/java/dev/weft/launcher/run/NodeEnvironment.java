package dev.weft.launcher.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What of the master's environment travels with a node to a host agent (docs/broker.md, "What travels with a
 * node"): everything a node would get on the master, minus a deny-list of two kinds.
 *
 * <ul>
 * <li><b>Never</b> (the loader's and weft's own): {@code LD_*} (the agent loads its own shim, its loader its own
 *     libraries), {@code PATH} (the program is found through the agent's), and the variables weft sets per node or
 *     keeps secret: {@code WEFT_BROKER}, {@code WEFT_NODE_ID}, {@code WEFT_HOST_ID}, {@code WEFT_SHIM},
 *     {@code WEFT_PROC}, {@code WEFT_TOKEN_FILE}. An agent refuses these from the network.</li>
 * <li><b>The master's machine, not the program</b>: {@link #MACHINE} ({@code HOME}, {@code USER}, {@code TERM},
 *     {@code DISPLAY}, {@code SSH_*}, …). Not forwarded unless {@code --pass-env NAME} asks; the agent's own
 *     values are used.</li>
 * </ul>
 */
final class NodeEnvironment {
    /** Variables about the master's machine or session rather than the program. */
    static final Set<String> MACHINE = Set.of("HOME", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "SHLVL", "_",
            "HOSTNAME", "TERM", "DISPLAY", "XAUTHORITY", "MAIL", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_SESSION_ID",
            "DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "SSH_CLIENT", "SSH_CONNECTION", "SSH_TTY", "JAVA_HOME");
    private static final Set<String> WEFT_OWN = Set.of("WEFT_BROKER", "WEFT_NODE_ID", "WEFT_HOST_ID", "WEFT_SHIM",
            "WEFT_PROC", "WEFT_TOKEN_FILE");

    /** What weft run sets for every node itself (the shim's switches): --env and a scenario's env cannot set them. */
    private static final Set<String> SET_BY_RUN = Set.of("WEFT_SEED", "WEFT_STRATEGY", "WEFT_TRACE",
            "WEFT_SCHED_STATS", "WEFT_SCHED", "WEFT_FSYNC_LIES", "WEFT_ENOSPC_BYTES", "WEFT_TORN_WRITES_PPM", "WEFT_NET",
            "WEFT_WINDOW_NS", "WEFT_CLOCK_SKEW_NS", "WEFT_RDTSC", "WEFT_PROC_SCHED");

    private NodeEnvironment() {
    }

    /** Why {@code name} cannot be set by {@code --env} or a scenario node's {@code env}, or null if it can. */
    static String unsettable(String name) {
        if (never(name)) {
            return "the loader's, PATH and weft's per-node variables stay weft's";
        }
        if (SET_BY_RUN.contains(name)) {
            return "weft run sets it from its own options";
        }
        return null;
    }

    /** Never forwarded, never set from the network: the loader's, PATH, and weft's per-node and secret variables. */
    static boolean never(String name) {
        return name.startsWith("LD_") || name.equals("PATH") || WEFT_OWN.contains(name);
    }

    /** Why {@code name} is not forwarded by default (one line's reason), or null if it is. */
    static String heldBack(String name, Set<String> passEnv) {
        if (name.equals("PATH")) {
            return "each agent finds the program through its own PATH";
        }
        if (name.startsWith("LD_")) {
            return "the loader's: each agent loads its own shim and libraries";
        }
        if (WEFT_OWN.contains(name)) {
            return "weft's own: set per node, or secret";
        }
        if (MACHINE.contains(name) && !passEnv.contains(name)) {
            return "about this machine, not the program; --pass-env " + name + " forwards it";
        }
        return null;
    }

    /**
     * The variables a node on an agent gets from the master: {@code masterEnv} minus the deny-list (plus the
     * {@code --pass-env} names), then {@code overrides} (the shim's variables, {@code --env}, a node's own), sorted.
     */
    static SortedMap<String, String> forwarded(Map<String, String> masterEnv, Set<String> passEnv,
            Map<String, String> overrides) {
        SortedMap<String, String> out = new TreeMap<>();
        masterEnv.forEach((k, v) -> {
            if (heldBack(k, passEnv) == null) {
                out.put(k, v);
            }
        });
        out.putAll(overrides);
        out.keySet().removeIf(NodeEnvironment::never);
        return out;
    }

    /** One line per variable set on the master that nodes on agents do not get, sorted by name. */
    static List<String> notForwardedLines(Map<String, String> masterEnv, Set<String> passEnv) {
        List<String> lines = new ArrayList<>();
        for (String k : new TreeSet<>(masterEnv.keySet())) {
            String why = heldBack(k, passEnv);
            if (why != null) {
                lines.add("weft run: note: " + k + " is not forwarded to nodes on host agents (" + why + ")");
            }
        }
        return lines;
    }

    /** The agent's side: of its own environment, what a node keeps when the master sends a complete one. */
    static boolean agentKeeps(String name) {
        return MACHINE.contains(name) || name.equals("PATH") || (name.startsWith("LD_") && !name.equals("LD_PRELOAD"));
    }
}
