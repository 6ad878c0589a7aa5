package dev.weft.launcher.run;

import java.util.Map;

/**
 * How long a master and a host agent wait on each other in real time before calling the other side gone (a stopped
 * process, a cut network): the master pings every {@link #pingMs()} and gives up after {@link #boundMs()} without
 * a word from the agent; it tells the agent the same bound, after which the agent kills that master's nodes. A
 * killed peer is seen at once (the connection ends); only a silent one needs the bound. docs/broker.md.
 */
record PeerSilence(long boundMs) {
    /** Our variable overriding the bound, in milliseconds (documented in docs/broker.md and docs/security.md). */
    static final String ENV = "WEFT_PEER_TIMEOUT_MS";
    static final long DEFAULT_MS = 10_000;
    /** A bound below this would take a busy machine's pause for a dead peer. */
    static final long MIN_MS = 200;

    /** The bound from {@code env} ({@link #ENV}), else the default; a value out of range is clamped. */
    static PeerSilence from(Map<String, String> env) {
        String v = env.get(ENV);
        long ms = DEFAULT_MS;
        if (v != null && v.matches("[0-9]{1,9}")) {
            ms = Long.parseLong(v);
        }
        return of(ms);
    }

    static PeerSilence of(long ms) {
        return new PeerSilence(Math.max(MIN_MS, Math.min(ms, 3_600_000)));
    }

    /** A ping at a quarter of the bound keeps an idle but live peer well inside it. */
    long pingMs() {
        return Math.max(50, boundMs / 4);
    }

    /** The bound as the message says it: seconds, with a decimal below 10 s. */
    String text() {
        return boundMs % 1000 == 0 ? boundMs / 1000 + " s" : String.format("%.1f s", boundMs / 1000.0);
    }
}
