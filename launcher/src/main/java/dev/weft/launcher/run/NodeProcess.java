package dev.weft.launcher.run;

import dev.weft.broker.os.ProcessGroups;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One running incarnation of a node: its process, started as the leader of a new process group, and two threads
 * copying its stdout and stderr line by line with the node's id in front.
 *
 * <p>Why {@code setsid(1)} and why it is race-free: Java cannot run code in the child between fork and exec, and a
 * {@code setpgid(pid, pid)} from the parent after the start races with the child forking first. Instead the
 * command starts with {@code setsid}, which calls {@code setsid()} in its own process and then execs the rest of
 * the chain in the same pid. The JVM's child is never a group leader (it is forked into the JVM's group), so
 * setsid(1) does not need to fork: the pid the JVM knows is the group id, and the group exists before the first
 * instruction of the target runs; everything the target forks inherits it. {@code kill(-pid)} then reaches the
 * node's whole tree, and a terminal's Ctrl-C (sent to the JVM's group only) does not — the launcher stops the
 * nodes itself and finishes the log.
 */
final class NodeProcess implements RunningNode {
    private final long nodeId;
    private final Process process;
    private final List<Thread> pumps = new ArrayList<>();
    private volatile boolean killedOnPurpose;

    private NodeProcess(long nodeId, Process process) {
        this.nodeId = nodeId;
        this.process = process;
    }

    /** The setsid(1) to put in front of a node's command, if this machine has one. */
    static Optional<Path> setsid(String pathVar) {
        return TargetIsolation.find("setsid", pathVar);
    }

    /** Where a node's output lines go: {@code line} is one whole line, its newline included. */
    interface LineSink {
        void line(boolean stderr, byte[] line, int length);
    }

    /** A sink printing each line to out or err with {@code [nI] } in front; lines of different nodes never interleave. */
    static LineSink prefixed(long nodeId, PrintStream out, PrintStream err) {
        byte[] pre = ("[n" + nodeId + "] ").getBytes(StandardCharsets.UTF_8);
        return (stderr, line, length) -> {
            PrintStream to = stderr ? err : out;
            synchronized (to) {
                to.write(pre, 0, pre.length);
                to.write(line, 0, length);
                to.flush();
            }
        };
    }

    static NodeProcess start(long nodeId, ProcessBuilder pb, Optional<Path> setsid, PrintStream out, PrintStream err)
            throws IOException {
        return start(nodeId, pb, setsid, prefixed(nodeId, out, err));
    }

    static NodeProcess start(long nodeId, ProcessBuilder pb, Optional<Path> setsid, LineSink sink)
            throws IOException {
        List<String> cmd = new ArrayList<>(pb.command());
        if (setsid.isPresent()) {
            if (Path.of(cmd.get(0)).endsWith(ShimLocator.EXEC)) {
                cmd.add(1, "--setsid"); // weft_exec calls setsid() itself before its exec: one exec fewer
            } else {
                cmd.add(0, setsid.get().toString());
            }
        }
        ProcessBuilder b = new ProcessBuilder(cmd);
        b.directory(pb.directory());
        b.environment().clear();
        b.environment().putAll(pb.environment());
        b.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = b.start();
        NodeProcess n = new NodeProcess(nodeId, p);
        n.pump(p.getInputStream(), sink, false, "out");
        n.pump(p.getErrorStream(), sink, true, "err");
        return n;
    }

    @Override
    public long nodeId() {
        return nodeId;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    @Override
    public boolean alive() {
        return process.isAlive();
    }

    @Override
    public boolean killedOnPurpose() {
        return killedOnPurpose;
    }

    @Override
    public boolean waitFor(long time, java.util.concurrent.TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(time);
        if (!process.waitFor(time, unit)) {
            return false;
        }
        // The process is gone, but what it printed last may still be in its pipes: the pumps hand it over within
        // the same budget (a run ended by the deadlock verdict printed its nodes' last lines, or not, by timing).
        for (Thread t : pumps) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedJoin(t, left);
        }
        return true;
    }

    @Override
    public void onExit(Runnable action) {
        process.onExit().thenRun(action);
    }

    @Override
    public void kill() {
        killedOnPurpose = true;
        ProcessGroups.killTree(process.toHandle());
    }

    @Override
    public void terminate() {
        killedOnPurpose = true;
        boolean leader = ProcessGroups.groupOf(process.pid()) == process.pid();
        if (!(leader && ProcessGroups.signalGroup(process.pid(), ProcessGroups.SIGTERM))) {
            process.destroy();
        }
    }

    @Override
    public int waitFor() throws InterruptedException {
        int rc = process.waitFor();
        for (Thread t : pumps) {
            t.join(2000);
        }
        return rc;
    }

    private void pump(InputStream in, LineSink sink, boolean stderr, String name) {
        Thread t = new Thread(() -> copyLines(in, sink, stderr), "weft-node-" + nodeId + "-" + name);
        t.setDaemon(true);
        pumps.add(t);
        t.start();
    }

    /** Copies whole lines (a last unterminated one gets a newline) to the sink. */
    static void copyLines(InputStream in, LineSink sink, boolean stderr) {
        byte[] buf = new byte[8192];
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    line.write(buf[i]);
                    if (buf[i] == '\n') {
                        sink.line(stderr, line.toByteArray(), line.size());
                        line.reset();
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone; pass on what we have
        }
        if (line.size() > 0) {
            line.write('\n');
            sink.line(stderr, line.toByteArray(), line.size());
        }
    }
}
