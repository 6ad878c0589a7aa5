package dev.weft.launcher.run;

import java.util.concurrent.TimeUnit;

/** One running incarnation of a node, on this machine ({@link NodeProcess}) or on a host agent ({@link RemoteNode}). */
interface RunningNode {
    long nodeId();

    /** The process id on the machine it runs on. */
    long pid();

    boolean alive();

    /** True if the launcher stopped it on purpose (scenario crash, Ctrl-C, watchdog, a lost host): its status is not the run's. */
    boolean killedOnPurpose();

    /** SIGKILL to the node's whole process group. */
    void kill();

    /** SIGTERM to the node's whole process group (a polite stop before {@link #kill()}). */
    void terminate();

    /** Waits for the exit and for its last output lines; a signal death N is 128+N. */
    int waitFor() throws InterruptedException;

    /** Waits at most the given time for the exit; true if it ended. */
    boolean waitFor(long time, TimeUnit unit) throws InterruptedException;

    /** Runs {@code action} once the node has ended (at once if it already has). */
    void onExit(Runnable action);
}
