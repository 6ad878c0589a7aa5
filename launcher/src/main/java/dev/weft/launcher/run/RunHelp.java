package dev.weft.launcher.run;

import java.util.Locale;

/**
 * The help text of {@code weft run} and the platform check in front of it: the shim is an LD_PRELOAD library for
 * Linux x86-64 (glibc), so on any other system {@code weft run} says so instead of failing on a missing library.
 */
public final class RunHelp {

    public static final String USAGE = "Usage: weft run --seed N [OPTIONS] -- PROGRAM [ARGS...]\n"
            + "       weft run [--seed N] [--plan FILE] [--record LOG] [--stats] [--watchdog S] [--listen [HOST:]PORT] [--window NS]\n"
            + "                [--end-when-exited N[,M...]] [--grace NS] SCENARIO.json\n"
            + "\n"
            + "Runs an unmodified Linux program under the deterministic shim (libweft_shim.so, LD_PRELOAD): the seed\n"
            + "decides every clock read, random byte and thread interleaving, so the same seed runs the same way.\n"
            + "Needs Linux x86-64 with glibc.\n"
            + "\n"
            + "Options:\n"
            + "  --seed <N>               the 64-bit seed (decimal or 0x hex), required\n"
            + "  --strategy <random|rr>   scheduler strategy (default random)\n"
            + "  --no-sched               threads run freely; clock and randomness stay seeded\n"
            + "  --trace                  one stderr line per intercepted call\n"
            + "  --stats                  scheduler statistics at exit\n"
            + "  --shim <PATH>            use this libweft_shim.so (default: WEFT_SHIM, then the bundled one)\n"
            + "  --fsync-lies             fsync and friends succeed without syncing (file fault)\n"
            + "  --enospc-after <BYTES>   writes fail with ENOSPC after BYTES bytes (file fault)\n"
            + "  --torn-writes <PPM>      tear writes with this probability in parts per million (file fault)\n"
            + "  --strict                 refuse targets the shim cannot reach (static, setuid/setgid, Go)\n"
            + "  --keep-aslr              keep address-space layout randomization on\n"
            + "  --host-pids              keep the host's PIDs (no PID namespace)\n"
            + "  --rdtsc                  answer rdtsc/rdtscp from the virtual clock (traps the instruction)\n"
            + "  --no-proc-sched          processes of the program's tree run freely (by default they take turns in a\n"
            + "                           seeded order, one scheduler for the tree: docs/shim.md); --proc-sched: the default\n"
            + "  --net <SPEC>             a simulated UDP network served by the live broker (docs/broker.md)\n"
            + "  --nodes <K>              with --net: start K instances of the program, node ids 0..K-1 (default 1, at most 1024)\n"
            + "  --record <LOG>           with --net or a scenario: record the run as a weft-log (.gz: gzipped)\n"
            + "  --watchdog <S>           stop the run after S seconds without a broker operation (exit 124)\n"
            + "  --listen <[HOST:]PORT>   also accept nodes over TCP (loopback unless HOST says otherwise)\n"
            + "  --window <NS>            with --net: a windowed run, same seed => same recorded bytes (docs/broker.md)\n"
            + "  --window-ops <N>         with --window: discard the run if a node buffers more than N sends in a window\n"
            + "  --end-when-exited <N,..> with --net or a scenario: once these nodes have exited, SIGTERM the others, SIGKILL\n"
            + "                           after the grace, and end the run (docs/broker.md, \"Runs that end\")\n"
            + "  --grace <NS>             virtual ns between that SIGTERM and SIGKILL (default 1000000000)\n"
            + "  --env <NAME=VALUE>       with --net or a scenario: set a variable for every node, here and on agents\n"
            + "  --pass-env <NAME,...>    forward these variables about this machine (HOME, USER, ...) to agents too\n"
            + "  --dry-run                print each node's host, directory, command and environment; start nothing\n"
            + "  --plan <FILE>            with --net: datagram fates from this fault plan, not the seed (docs/fault-plans.md)\n"
            + "  --hosts <A:PORT,...>     with --net: start the nodes round-robin on these `weft hostd` agents\n"
            + "  --place <R@A:PORT,...>   with --net: place node ranges on agents (0-2@A:PORT,3-6@B:PORT); others run here\n"
            + "  --token-file <FILE>      shared token for --hosts agents and --listen peers (default: WEFT_TOKEN_FILE)\n"
            + "  --broker <ADDR>          join a broker elsewhere (HOST:PORT, from its --listen) as a node started by hand\n"
            + "  --node-id <N>            with --broker: this node's id (required)\n"
            + "  --host-id <H>            with --broker: this machine's host id (WEFT_HOST_ID, default 0)\n"
            + "  -h, --help               print this help\n"
            + "\n"
            + "A SCENARIO.json (docs/broker.md, the scenario DSL) gives nodes, network, file faults, clock skew and timed\n"
            + "crash / start / partition events; our extensions \"end_when_exited\": [ids] and a node's \"env\".\n"
            + "--seed N replaces the scenario's seed (a campaign runs one scenario under many seeds); --plan FILE\n"
            + "applies a fault plan to its network (docs/fault-plans.md).\n"
            + "\n"
            + "Exit status: the program's (128+N after signal N), 2 usage error or no shim, 127 cannot execute;\n"
            + "with nodes, the lowest-numbered failing node's (with --end-when-exited: the listed nodes' first; nodes\n"
            + "stopped at the end never count), 124 after the watchdog, 130 after Ctrl-C;\n"
            + "3 when a windowed run was discarded (a node killed, protocol violation, watchdog) or a host\n"
            + "agent was unreachable, refused the token or was lost mid-run; 4 the deadlock verdict: every live node\n"
            + "waits with no deadline and nothing is in flight (one line names each node; docs/broker.md).\n";

    private RunHelp() {
    }

    /** True on Linux x86-64, the one platform the shim is built for. */
    public static boolean supportedHere() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"));
    }

    public static String unsupportedMessage() {
        return "weft run: runs programs under an LD_PRELOAD shim for Linux x86-64 (glibc); this is "
                + System.getProperty("os.name") + " " + System.getProperty("os.arch") + ".\n"
                + "  Everything else works here: weft replay, state, check, trace, fuzz, scenario and the workbench.\n"
                + "  To record a run, use a Linux x86-64 machine (or a Linux VM/container) and copy the .weftlog back.\n";
    }
}
