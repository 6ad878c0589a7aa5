package dev.weft.launcher.run;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * A run that ends once some nodes have exited ({@code --end-when-exited}, a scenario's {@code end_when_exited}):
 * tracks which listed nodes have exited by themselves, and when all have, stops every other node — SIGTERM, then
 * SIGKILL after the grace. The grace is virtual time; while a node waits, virtual time runs at most
 * {@code WEFT_NET_SPEEDUP} (default 10) times faster than real time (docs/shim.md, the pacing rule), so the real
 * wait is grace / WEFT_NET_SPEEDUP. Such stopped nodes are not failures (their status is not the run's).
 */
final class RunEnding {
    private final RunOptions.RunEnd end;
    private final long realGraceNanos;
    private final TreeSet<Long> exited = new TreeSet<>();

    RunEnding(RunOptions.RunEnd end, Map<String, String> env) {
        this.end = end;
        long speedup = 10;
        String s = env.get("WEFT_NET_SPEEDUP");
        if (s != null && s.matches("[1-9][0-9]{0,8}")) {
            speedup = Long.parseLong(s);
        }
        this.realGraceNanos = Long.divideUnsigned(end.graceNs(), speedup);
    }

    boolean active() {
        return end.active();
    }

    boolean listed(long nodeId) {
        return end.nodes().contains(nodeId);
    }

    List<Long> listedNodes() {
        return end.nodes();
    }

    /** A listed node exited by itself; true if it was the last of them (the run ends now). Caller synchronizes. */
    boolean exited(long nodeId) {
        return listed(nodeId) && exited.add(nodeId) && exited.containsAll(end.nodes());
    }

    /**
     * Stops every node still running: one line naming them, SIGTERM to each (its whole process group), SIGKILL to
     * those still running after the grace. {@code endVt} is the recording's end (-1: not known, a plain run).
     */
    void stopOthers(List<RunningNode> running, long endVt, PrintStream err) {
        List<RunningNode> alive = new ArrayList<>();
        for (RunningNode n : running) {
            if (n.alive()) {
                alive.add(n);
            }
        }
        err.println("weft run: node(s) " + join(end.nodes()) + " exited; the run ends"
                + (endVt >= 0 ? " at vt " + Long.toUnsignedString(endVt) : "")
                + (alive.isEmpty() ? "" : ": SIGTERM to node(s) " + join(alive.stream().map(RunningNode::nodeId).toList())
                + ", SIGKILL after a grace of " + Long.toUnsignedString(end.graceNs()) + " ns virtual"));
        for (RunningNode n : alive) {
            n.terminate();
        }
        long deadline = System.nanoTime() + realGraceNanos;
        for (RunningNode n : alive) {
            try {
                if (!n.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    n.kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                n.kill();
            }
        }
    }

    static String join(List<Long> ids) {
        StringBuilder sb = new StringBuilder();
        for (Long n : ids) {
            sb.append(sb.length() == 0 ? "" : ", ").append(n);
        }
        return sb.toString();
    }
}
