package dev.weft.broker;

import java.util.TreeSet;

/**
 * What the launcher told the windowed sequencer about the nodes' processes (docs/broker.md, "The windowed
 * frontier"): which have started and not exited yet, and which have exited. A node whose process runs may open a
 * socket at any moment, even with none open now (a client that reconnects, python's start-up), so it holds the
 * frontier at its clock; one whose process has exited never acts again. Nodes the launcher said nothing about
 * (hand-started ones, tests that drive the sequencer directly) are judged by their sockets alone, as before.
 * Not thread-safe: the sequencer calls it under its lock.
 */
final class NodeProcesses {
    private final TreeSet<Long> running = new TreeSet<>();
    private final TreeSet<Long> exited = new TreeSet<>();

    /** The node's process is about to start (told before it can say hello), or starts again after it exited. */
    void started(long node) {
        running.add(node);
        exited.remove(node);
    }

    void exited(long node) {
        running.remove(node);
        exited.add(node);
    }

    /** The node's process started and has not exited: it can still act at its clock. */
    boolean runs(long node) {
        return running.contains(node);
    }

    /** The node's process has exited (and not started again). */
    boolean hasExited(long node) {
        return exited.contains(node);
    }
}
