package dev.weft.launcher.run;

import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.auth.TokenHandshake;
import dev.weft.text.Hex;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The master's side of one host agent ({@code weft hostd}): the control connection, the token proof, spawn and
 * signal requests, and one reader thread that turns the agent's events into node output, exits and — when the
 * channel ends while nodes still run there — a lost host.
 */
final class RemoteHost implements AutoCloseable {
    static final int CONNECT_TIMEOUT_MS = 5000;
    /** How long the agent may take to answer the handshake or to start a node. */
    static final int ANSWER_TIMEOUT_MS = 30_000;

    /** A host could not be used; the message is the one line for the user. */
    static final class HostException extends Exception {
        private static final long serialVersionUID = 1L;

        HostException(String message) {
            super(message);
        }
    }

    private final String address;
    private final long hostId;
    private final ControlChannel channel;
    private final Consumer<RemoteHost> onLost;
    private final Map<Long, RemoteNode> nodes = new TreeMap<>();
    private final Map<Long, CompletableFuture<ControlLine>> starting = new TreeMap<>();
    private volatile boolean closing;
    private volatile boolean lost;
    /** How the host was lost, for the run's one line ("lost mid-run" unless it went silent). */
    private volatile String lostHow = "lost mid-run";
    /** The silence bound, or null for an agent too old to answer pings (then only a closed channel counts). */
    private final PeerSilence silence;

    private RemoteHost(String address, long hostId, ControlChannel channel, Consumer<RemoteHost> onLost,
            PeerSilence silence) {
        this.address = address;
        this.hostId = hostId;
        this.channel = channel;
        this.onLost = onLost;
        this.silence = silence;
    }

    /** Connects, proves the token and starts the reader; the exception says why the host cannot be used. */
    static RemoteHost connect(String address, long hostId, SharedToken token, Consumer<RemoteHost> onLost)
            throws HostException {
        return connect(address, hostId, token, onLost, PeerSilence.from(System.getenv()));
    }

    /** As above with the bound on the agent's silence ({@link PeerSilence}: a stopped agent is named after it). */
    static RemoteHost connect(String address, long hostId, SharedToken token, Consumer<RemoteHost> onLost,
            PeerSilence bound) throws HostException {
        InetSocketAddress a = parse(address);
        Socket s = new Socket();
        ControlChannel ch;
        boolean pinging;
        try {
            s.connect(a, CONNECT_TIMEOUT_MS);
            s.setSoTimeout(ANSWER_TIMEOUT_MS);
            ch = new ControlChannel(s);
        } catch (IOException e) {
            closeQuietly(s);
            throw new HostException("host " + address + " unreachable: " + e.getMessage());
        }
        // each read has the timeout, and the whole handshake the same bound (an agent trickling bytes)
        dev.weft.broker.auth.HandshakeDeadline deadline = dev.weft.broker.auth.HandshakeDeadline.arm(s,
                ANSWER_TIMEOUT_MS);
        try (deadline) {
            ControlLine hello = ch.receive(ControlLine.MAX_HANDSHAKE_LINE);
            byte[] challenge = Hex.decode(hello.stringOr("challenge", ""));
            if (hello.stringOr("challenge", null) == null || challenge == null) {
                throw new HostException("host " + address + " is not a weft hostd (no challenge in its first line)");
            }
            // we prove the token, and ask the agent to prove it back: a node's command line and environment go
            // only to an agent that knows the token
            byte[] ours = TokenHandshake.challenge();
            ch.send(ControlLine.of("op", "auth", "answer",
                    Hex.encodeLower(token.answer(SharedToken.Role.MASTER, challenge)), "challenge",
                    Hex.encodeLower(ours), "silence_ms", bound.boundMs()));
            ControlLine verdict = ch.receive(ControlLine.MAX_HANDSHAKE_LINE);
            if (!"ready".equals(verdict.stringOr("event", ""))) {
                throw new HostException("host " + address + " refused us: " + verdict.stringOr("reason", "no reason")
                        + " (is the same token file given to weft hostd and weft run?)");
            }
            byte[] proof = Hex.decode(verdict.stringOr("proof", ""));
            if (proof == null || !token.accepts(SharedToken.Role.AGENT, ours, proof)) {
                throw new HostException("host " + address + " did not prove the token back ("
                        + (verdict.stringOr("proof", null) == null ? "no proof" : "wrong token")
                        + "; is it a weft hostd given the same token file?)");
            }
            pinging = hello.numberOr("hostd", 1) >= 2;
            s.setSoTimeout(pinging ? (int) bound.boundMs() : 0);
        } catch (SocketTimeoutException e) {
            ch.close();
            throw new HostException("host " + address + " did not answer within " + ANSWER_TIMEOUT_MS / 1000 + " s");
        } catch (IOException | ControlLine.BadLineException e) {
            ch.close();
            if (deadline.expired()) {
                throw new HostException("host " + address + " did not finish the handshake within "
                        + ANSWER_TIMEOUT_MS / 1000 + " s");
            }
            throw new HostException("host " + address + ": " + (e instanceof EOFException ? "closed the connection"
                    : e.getMessage()) + " during the handshake");
        } catch (HostException e) {
            ch.close();
            throw e;
        }
        RemoteHost h = new RemoteHost(address, hostId, ch, onLost, pinging ? bound : null);
        Thread t = new Thread(h::readEvents, "weft-host-" + hostId);
        t.setDaemon(true);
        t.start();
        if (pinging) {
            Thread p = new Thread(h::ping, "weft-host-ping-" + hostId);
            p.setDaemon(true);
            p.start();
        }
        return h;
    }

    static InetSocketAddress parse(String address) throws HostException {
        try {
            return RunOptions.listenAddress(address);
        } catch (RunOptions.UsageException e) {
            throw new HostException("host \"" + address + "\": expected PORT or HOST:PORT");
        }
    }

    String address() {
        return address;
    }

    long hostId() {
        return hostId;
    }

    /** Our address on the route to this host (where it can reach a broker listening on every interface). */
    InetAddress localAddress() {
        return channel.socket().getLocalAddress();
    }

    boolean lost() {
        return lost;
    }

    /** Node ids placed here, ascending. */
    synchronized List<Long> nodeIds() {
        return new ArrayList<>(nodes.keySet());
    }

    /** This process's umask and soft limits, sent with every spawn (a node here would inherit them). */
    private static final ProcessInputs INPUTS = ProcessInputs.ofThisProcess();
    /** Where the agent's notes about a started node go (one line each); set by the run. */
    private java.util.function.Consumer<String> notes = line -> { };

    void onNote(java.util.function.Consumer<String> lines) {
        this.notes = lines;
    }

    /** Asks the agent to start a node and waits for it to have started. */
    RemoteNode spawn(long nodeId, List<String> argv, Map<String, String> env, boolean pidNamespace, boolean aslrOff,
            String broker, NodeProcess.LineSink sink) throws HostException {
        CompletableFuture<ControlLine> answer = new CompletableFuture<>();
        RemoteNode n = new RemoteNode(nodeId, this, sink);
        synchronized (this) {
            starting.put(nodeId, answer);
            nodes.put(nodeId, n);
        }
        try {
            channel.send(ControlLine.of("op", "spawn", "node", nodeId, "host_id", hostId, "broker", broker,
                    "argv", argv, "env", HostAgent.sorted(env), "pid_namespace", pidNamespace, "aslr_off", aslrOff,
                    "cwd", System.getProperty("user.dir"), "env_complete", true, "umask", INPUTS.umask() == null
                    ? "" : INPUTS.umask(), "limits", INPUTS.limits()));
            ControlLine a = answer.get(ANSWER_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (!"started".equals(a.stringOr("event", ""))) {
                throw new HostException("host " + address + " could not start node " + nodeId + ": "
                        + a.stringOr("reason", "no reason given"));
            }
            n.started(a.number("pid"));
            String note = a.stringOr("note", "");
            if (!note.isEmpty()) {
                notes.accept("weft run: host " + hostId + " (" + address + "): node " + nodeId + ": " + note);
            }
            return n;
        } catch (IOException | ExecutionException e) {
            throw new HostException("host " + address + " lost while starting node " + nodeId);
        } catch (TimeoutException e) {
            throw new HostException("host " + address + " did not start node " + nodeId + " within "
                    + ANSWER_TIMEOUT_MS / 1000 + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HostException("interrupted while starting node " + nodeId);
        } catch (ControlLine.BadLineException e) {
            throw new HostException("host " + address + ": " + e.getMessage());
        } finally {
            synchronized (this) {
                starting.remove(nodeId);
            }
        }
    }

    void signal(long nodeId, String signal) {
        try {
            channel.send(ControlLine.of("op", "signal", "node", nodeId, "signal", signal));
        } catch (IOException e) {
            // the host is gone: its reader reports that
        }
    }

    private void readEvents() {
        try {
            while (true) {
                ControlLine m = channel.receive();
                long node = m.numberOr("node", -1); // an event of a later agent may name no node
                RemoteNode n;
                CompletableFuture<ControlLine> waiting;
                synchronized (this) {
                    n = nodes.get(node);
                    waiting = starting.get(node);
                }
                switch (m.stringOr("event", "")) {
                    case "started", "failed" -> {
                        if (waiting != null) {
                            waiting.complete(m);
                        }
                    }
                    case "out" -> {
                        if (n != null) {
                            byte[] line = Base64.getDecoder().decode(m.string("data"));
                            n.output("err".equals(m.stringOr("stream", "out")), line);
                        }
                    }
                    case "exit" -> {
                        if (n != null) {
                            n.exited((int) m.number("status"));
                        }
                    }
                    default -> {
                        // a pong (any line proves the agent alive), or a later agent's event: nothing to do
                    }
                }
            }
        } catch (SocketTimeoutException e) {
            if (!closing) {
                lostHow = "silent for " + silence.text() + " (a stopped agent or a cut network)";
                channel.close(); // a resumed agent then sees the end and kills what it runs for us
            }
        } catch (IOException | ControlLine.BadLineException | IllegalArgumentException e) {
            // the channel ended (or the agent spoke nonsense): the host is gone
        }
        List<RemoteNode> all;
        List<CompletableFuture<ControlLine>> waiting;
        synchronized (this) {
            all = new ArrayList<>(nodes.values());
            waiting = new ArrayList<>(starting.values());
        }
        waiting.forEach(f -> f.completeExceptionally(new EOFException()));
        boolean anyRunning = all.stream().anyMatch(RemoteNode::alive);
        if (!closing) {
            lost = true;
            // the run learns of the loss before its nodes stop counting as running, or it could take the loss
            // for a normal end (every node gone)
            if (anyRunning || !waiting.isEmpty()) {
                onLost.accept(this);
            }
            all.forEach(RemoteNode::hostLost);
        }
    }

    /** Keeps an idle channel talking, so only a stopped or unreachable agent stays silent past the bound. */
    private void ping() {
        while (!closing && !lost) {
            try {
                Thread.sleep(silence.pingMs());
                channel.send(ControlLine.of("op", "ping"));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                return; // the reader reports the end of the channel
            }
        }
    }

    /** How the host was lost ("lost mid-run", or the silence that ended it), for the run's message. */
    String lostHow() {
        return lostHow;
    }

    /** Ends the control channel; the agent kills whatever of this run still runs there. */
    @Override
    public void close() {
        closing = true;
        channel.close();
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // nothing to close
        }
    }
}
