package dev.weft.launcher.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node running on a host agent: alive until the agent reports its exit (after its last output line) or the
 * host is lost. Signals travel as control requests; the agent delivers them to the node's process group.
 */
final class RemoteNode implements RunningNode {
    /** The status of a node whose host was lost (its real status is unknowable); such a node counts as stopped. */
    static final int LOST_STATUS = 255;

    private final long nodeId;
    private final RemoteHost host;
    private final NodeProcess.LineSink sink;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile long pid = -1;
    private volatile int status;
    private volatile boolean killedOnPurpose;

    RemoteNode(long nodeId, RemoteHost host, NodeProcess.LineSink sink) {
        this.nodeId = nodeId;
        this.host = host;
        this.sink = sink;
    }

    void started(long pid) {
        this.pid = pid;
    }

    void output(boolean stderr, byte[] line) {
        sink.line(stderr, line, line.length);
    }

    void exited(int status) {
        this.status = status;
        ended.countDown();
    }

    void hostLost() {
        if (ended.getCount() > 0) {
            killedOnPurpose = true;
            status = LOST_STATUS;
            ended.countDown();
        }
    }

    RemoteHost host() {
        return host;
    }

    @Override
    public long nodeId() {
        return nodeId;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public boolean alive() {
        return ended.getCount() > 0;
    }

    @Override
    public boolean killedOnPurpose() {
        return killedOnPurpose;
    }

    @Override
    public void kill() {
        killedOnPurpose = true;
        host.signal(nodeId, "KILL");
    }

    @Override
    public void terminate() {
        killedOnPurpose = true;
        host.signal(nodeId, "TERM");
    }

    @Override
    public int waitFor() throws InterruptedException {
        ended.await();
        return status;
    }

    @Override
    public boolean waitFor(long time, TimeUnit unit) throws InterruptedException {
        return ended.await(time, unit);
    }

    @Override
    public void onExit(Runnable action) {
        Thread t = new Thread(() -> {
            try {
                ended.await();
            } catch (InterruptedException e) {
                return;
            }
            action.run();
        }, "weft-remote-node-" + nodeId);
        t.setDaemon(true);
        t.start();
    }
}
