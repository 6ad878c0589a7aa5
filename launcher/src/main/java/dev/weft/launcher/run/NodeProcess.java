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
final class NodeProcess {
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

    static NodeProcess start(long nodeId, ProcessBuilder pb, Optional<Path> setsid, PrintStream out, PrintStream err)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        setsid.ifPresent(s -> cmd.add(s.toString()));
        cmd.addAll(pb.command());
        ProcessBuilder b = new ProcessBuilder(cmd);
        b.environment().clear();
        b.environment().putAll(pb.environment());
        b.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = b.start();
        NodeProcess n = new NodeProcess(nodeId, p);
        String prefix = "[n" + nodeId + "] ";
        n.pump(p.getInputStream(), out, prefix, "out");
        n.pump(p.getErrorStream(), err, prefix, "err");
        return n;
    }

    long nodeId() {
        return nodeId;
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** True if the launcher killed it on purpose (scenario crash, Ctrl-C, watchdog): its status is not the run's. */
    boolean killedOnPurpose() {
        return killedOnPurpose;
    }

    /** SIGKILL to the node's whole process group. */
    void kill() {
        killedOnPurpose = true;
        ProcessGroups.killTree(process.toHandle());
    }

    /** SIGTERM to the node's whole process group (a polite stop before {@link #kill()}). */
    void terminate() {
        killedOnPurpose = true;
        boolean leader = ProcessGroups.groupOf(process.pid()) == process.pid();
        if (!(leader && ProcessGroups.signalGroup(process.pid(), ProcessGroups.SIGTERM))) {
            process.destroy();
        }
    }

    /** Waits for the exit and for the last output lines to be copied; a signal death N is 128+N. */
    int waitFor() throws InterruptedException {
        int rc = process.waitFor();
        for (Thread t : pumps) {
            t.join(2000);
        }
        return rc;
    }

    private void pump(InputStream in, PrintStream to, String prefix, String name) {
        Thread t = new Thread(() -> copyLines(in, to, prefix), "weft-node-" + nodeId + "-" + name);
        t.setDaemon(true);
        pumps.add(t);
        t.start();
    }

    /** Copies whole lines with the prefix; lines of different nodes never interleave within a line. */
    static void copyLines(InputStream in, PrintStream to, String prefix) {
        byte[] pre = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] buf = new byte[8192];
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        try (in) {
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    line.write(buf[i]);
                    if (buf[i] == '\n') {
                        emit(to, pre, line);
                    }
                }
            }
        } catch (IOException e) {
            // the process is gone; print what we have
        }
        if (line.size() > 0) {
            line.write('\n');
            emit(to, pre, line);
        }
    }

    private static void emit(PrintStream to, byte[] pre, java.io.ByteArrayOutputStream line) {
        synchronized (to) {
            to.write(pre, 0, pre.length);
            to.write(line.toByteArray(), 0, line.size());
            to.flush();
        }
        line.reset();
    }
}
