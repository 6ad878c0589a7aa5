package dev.weft.broker.auth;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Bounds the connections one peer address may hold open before it has proved the token: each costs a thread and
 * a socket until its handshake ends (answered, refused or timed out), so without a bound one host could open
 * thousands and starve a run. A peer at the bound is refused at once; its authenticated connections are not
 * counted.
 */
public final class PeerGate {
    /** Unauthenticated connections one address may have at a time (docs/security.md). */
    public static final int MAX_UNAUTHENTICATED_PER_PEER = 16;

    private final int limit;
    private final Map<InetAddress, Integer> pending = new HashMap<>();

    public PeerGate() {
        this(MAX_UNAUTHENTICATED_PER_PEER);
    }

    public PeerGate(int limit) {
        this.limit = limit;
    }

    /** True if {@code peer} may start one more handshake (then {@link #leave} must follow); false at the bound. */
    public synchronized boolean enter(InetAddress peer) {
        int n = pending.getOrDefault(peer, 0);
        if (n >= limit) {
            return false;
        }
        pending.put(peer, n + 1);
        return true;
    }

    /** The handshake {@link #enter} admitted has ended, whichever way. */
    public synchronized void leave(InetAddress peer) {
        pending.computeIfPresent(peer, (k, n) -> n <= 1 ? null : n - 1);
    }

    /** The refusal line's reason for a peer at the bound. */
    public String refusal() {
        return limit + " connections from this address are still in the token handshake (the bound per peer)";
    }
}
