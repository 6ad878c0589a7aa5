package dev.weft.launcher.run;

import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.auth.TokenHandshake;
import dev.weft.broker.hostd.BrokerRelay;
import dev.weft.text.Hex;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@code weft hostd}: the host agent. It accepts masters ({@code weft run --hosts}) on a TCP control channel of
 * JSON lines, makes each prove the shared token (a fresh challenge answered with HMAC-SHA256; nothing is run for a
 * master that fails), and then, per spawn request, starts a node under this host's own shim — in its own process
 * group, with this host's isolation wrappers — pointed at a local {@link BrokerRelay} that carries its broker
 * connections to the master's broker. It streams each node's output lines back, reports exits, signals a node on
 * request, and kills every node of a master whose channel ends (a master that crashed leaves nothing running).
 *
 * <p>What the network may set is limited: the program and its arguments (running them is the agent's job, for an
 * authenticated master only) and the node's environment, except the deny-list of {@link NodeEnvironment#never}:
 * never {@code LD_*}, {@code PATH} or weft's per-node variables, and never the broker endpoint the node uses. A
 * master that sends {@code env_complete} sends everything the node gets; the agent then keeps only its own machine's
 * variables ({@link NodeEnvironment#agentKeeps}), so nothing of the agent's environment leaks into a node.
 */
final class HostAgent implements AutoCloseable {
    /**
     * The control protocol's version, in the agent's first line. 2: a master may announce {@code silence_ms} in its
     * auth line, then pings ({@code op ping}, answered {@code event pong}) and is dropped after that long silent.
     */
    static final long PROTOCOL = 2;

    private final SharedToken token;
    private final Path shim;
    private final java.util.Optional<Path> weftExec;
    private final Map<String, String> env;
    private final PrintStream log;
    private final ServerSocket server;
    private final Optional<Path> setsid;
    private final Optional<Path> setpriv;
    private final Optional<Path> sh;
    private final Optional<Path> prlimit;
    /** This agent's umask and soft limits (what a node started here would inherit unless the master's differ). */
    private final ProcessInputs inputs = ProcessInputs.ofThisProcess();
    /**
     * Every node is started from this one long-lived thread: the parent-death signal (setpriv --pdeathsig) fires
     * when the thread that started a process ends, so it must be a thread that lives as long as the agent.
     */
    private final ExecutorService starter = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "weft-hostd-starter");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;
    /** Bounds the sessions one address may have in the handshake at a time. */
    private final dev.weft.broker.auth.PeerGate handshakes = new dev.weft.broker.auth.PeerGate();

    HostAgent(SharedToken token, Path shim, Map<String, String> env, PrintStream log, InetSocketAddress listen)
            throws IOException {
        this.token = token;
        this.shim = shim;
        this.env = Map.copyOf(env);
        this.log = log;
        this.setsid = NodeProcess.setsid(env.get("PATH"));
        this.setpriv = TargetIsolation.find("setpriv", env.get("PATH"));
        this.sh = TargetIsolation.find("sh", env.get("PATH"));
        this.prlimit = TargetIsolation.find("prlimit", env.get("PATH"));
        // the isolation wrapper shipped with this host's shim (one exec per node), if any
        this.weftExec = new ShimLocator(env, ShimLocator.ownLocation().orElse(null)).locateTool(ShimLocator.EXEC, shim);
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 64);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** Serves masters until closed. */
    void serve() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                log.println("weft hostd: accept failed: " + e.getMessage());
                continue;
            }
            java.net.InetAddress from = s.getInetAddress();
            if (!handshakes.enter(from)) {
                log.println("weft hostd: refused master " + from.getHostAddress() + ":" + s.getPort() + ": "
                        + handshakes.refusal());
                try {
                    s.close();
                } catch (IOException e) {
                    // nothing more to say to it
                }
                continue;
            }
            Thread t = new Thread(() -> new Session(s, () -> handshakes.leave(from)).run(), "weft-hostd-session");
            t.setDaemon(true);
            t.start();
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        starter.shutdownNow();
    }

    /** One master's connection: handshake, then spawn / signal requests until the channel ends. */
    private final class Session {
        private final Socket socket;
        private final Map<Long, NodeProcess> nodes = new TreeMap<>();
        private final Map<String, BrokerRelay> relays = new HashMap<>();
        private ControlChannel channel;
        private String peer;
        /** The master's silence bound, if it announced one (protocol 2); none: wait as long as the channel lives. */
        private PeerSilence silence;

        /** Called once the handshake has ended, whichever way (the per-peer bound counts only handshakes). */
        private final Runnable handshakeOver;

        Session(Socket socket, Runnable handshakeOver) {
            this.socket = socket;
            this.handshakeOver = handshakeOver;
        }

        void run() {
            boolean counted = true;
            try {
                channel = new ControlChannel(socket);
                peer = channel.peer();
                boolean admitted;
                try {
                    admitted = authenticate();
                } finally {
                    counted = false;
                    handshakeOver.run();
                }
                if (!admitted) {
                    return;
                }
                log.println("weft hostd: master " + peer + " connected");
                while (true) {
                    ControlLine m = channel.receive();
                    String op = m.stringOr("op", "");
                    switch (op) {
                        case "spawn" -> spawn(m);
                        case "signal" -> signal(m);
                        case "ping" -> channel.send(ControlLine.of("event", "pong"));
                        default -> throw new ControlLine.BadLineException("unknown op \"" + op + "\"");
                    }
                }
            } catch (java.net.SocketTimeoutException e) {
                log.println("weft hostd: master " + peer + " silent for " + silence.text() + " (stopped, or the network"
                        + " is cut); killing its node(s)");
            } catch (EOFException | SocketException e) {
                // the master ended the run (or went away): nothing of it may keep running here
            } catch (IOException e) {
                log.println("weft hostd: master " + peer + ": " + e.getMessage());
            } catch (ControlLine.BadLineException e) {
                log.println("weft hostd: master " + peer + ": bad control line: " + e.getMessage()
                        + "; connection closed");
            } finally {
                if (counted) {
                    handshakeOver.run();
                }
                end();
            }
        }

        /**
         * Mutual challenge/answer with the shared token: the master answers our challenge, then we answer the one it
         * sent with its answer (only once it has proved itself, so a stranger cannot use us to compute answers). A
         * master that fails is told, logged in one line and dropped.
         */
        private boolean authenticate() throws IOException, ControlLine.BadLineException {
            socket.setSoTimeout(TokenHandshake.TIMEOUT_MS);
            byte[] challenge = TokenHandshake.challenge();
            channel.send(ControlLine.of("hostd", PROTOCOL, "challenge", Hex.encodeLower(challenge)));
            String reason;
            byte[] masterChallenge = null;
            long announcedSilenceMs = 0;
            // each read has the timeout, and the whole exchange the same bound (a master trickling bytes)
            try (dev.weft.broker.auth.HandshakeDeadline deadline = dev.weft.broker.auth.HandshakeDeadline.arm(socket,
                    TokenHandshake.TIMEOUT_MS)) {
                ControlLine m;
                try {
                    m = channel.receive(ControlLine.MAX_HANDSHAKE_LINE);
                } catch (IOException e) {
                    if (!deadline.expired()) {
                        throw e;
                    }
                    log.println("weft hostd: refused master " + peer + ": missing token (no answer within "
                            + TokenHandshake.TIMEOUT_MS / 1000 + " s)");
                    return false;
                }
                announcedSilenceMs = m.numberOr("silence_ms", 0);
                byte[] answer = Hex.decode(m.stringOr("answer", ""));
                masterChallenge = Hex.decode(m.stringOr("challenge", ""));
                reason = !"auth".equals(m.stringOr("op", "")) || answer == null ? "missing token"
                        : !token.accepts(SharedToken.Role.MASTER, challenge, answer) ? "wrong token"
                        : masterChallenge == null || masterChallenge.length != SharedToken.LENGTH
                                ? "no challenge for us to answer (a master older than this agent?)" : null;
            } catch (java.net.SocketTimeoutException e) {
                reason = "missing token (no answer within " + TokenHandshake.TIMEOUT_MS / 1000 + " s)";
            } catch (ControlLine.BadLineException e) {
                reason = "missing token (" + e.getMessage() + ")";
            }
            if (reason != null) {
                log.println("weft hostd: refused master " + peer + ": " + reason);
                channel.send(ControlLine.of("event", "refused", "reason", reason));
                return false;
            }
            silence = announcedSilenceMs > 0 ? PeerSilence.of(announcedSilenceMs) : null;
            socket.setSoTimeout(silence == null ? 0 : (int) silence.boundMs());
            channel.send(ControlLine.of("event", "ready", "host", hostName(), "proof",
                    Hex.encodeLower(token.answer(SharedToken.Role.AGENT, masterChallenge))));
            return true;
        }

        private void spawn(ControlLine m) throws IOException, ControlLine.BadLineException {
            long node = m.number("node");
            long hostId = m.number("host_id");
            String broker = m.string("broker");
            List<String> argv = m.strings("argv");
            Map<String, String> vars = m.stringMap("env");
            String refusal = refusal(argv, vars);
            synchronized (this) {
                NodeProcess old = nodes.get(node);
                if (refusal == null && old != null && old.alive()) {
                    refusal = "node " + node + " is already running here";
                }
            }
            if (refusal != null) {
                channel.send(ControlLine.of("event", "failed", "node", node, "reason", refusal));
                return;
            }
            NodeProcess n;
            List<String> notes = new ArrayList<>();
            // a node's output and exit are reported only after its "started" (its pumps run from the first byte)
            java.util.concurrent.CountDownLatch announced = new java.util.concurrent.CountDownLatch(1);
            try {
                BrokerRelay relay = relayTo(broker);
                Map<String, String> e = new HashMap<>(env);
                e.keySet().removeIf(k -> k.startsWith("WEFT_"));
                if (m.flag("env_complete")) {
                    e.keySet().removeIf(k -> !NodeEnvironment.agentKeeps(k));
                }
                String previous = e.get("LD_PRELOAD");
                e.put("LD_PRELOAD", shim + (previous == null || previous.isEmpty() ? "" : ":" + previous));
                e.putAll(vars);
                e.put("WEFT_BROKER", relay.socketPath().toString());
                e.put("WEFT_NODE_ID", Long.toString(node));
                e.put("WEFT_HOST_ID", Long.toString(hostId));
                TargetIsolation.Plan plan = TargetIsolation.wrap(argv, e.get("LD_PRELOAD"), m.flag("pid_namespace"),
                        m.flag("aslr_off"), env.get("PATH"), weftExec);
                if (!plan.command().equals(argv)) {
                    e.remove("LD_PRELOAD"); // the wrapper's final exec sets it
                }
                List<String> cmd = new ArrayList<>();
                setpriv.ifPresent(p -> cmd.addAll(List.of(p.toString(), "--pdeathsig", "KILL")));
                // the master's umask and soft limits, where they differ from ours (a node there would inherit them)
                ProcessInputs wanted = new ProcessInputs(m.stringOr("umask", "").isEmpty() ? null : m.stringOr("umask", ""),
                        new java.util.TreeMap<>(m.has("limits") ? m.stringMap("limits") : Map.of()));
                cmd.addAll(inputs.prefixFor(wanted, sh, prlimit, notes));
                cmd.addAll(plan.command());
                ProcessBuilder pb = new ProcessBuilder(cmd);
                // the master's working directory when this machine has it (a shared file system), else ours
                java.io.File cwd = new java.io.File(m.stringOr("cwd", ""));
                if (cwd.isAbsolute() && cwd.isDirectory()) {
                    pb.directory(cwd);
                } else if (!m.stringOr("cwd", "").isEmpty()) {
                    notes.add("runs in " + System.getProperty("user.dir") + ": the master's working directory "
                            + m.stringOr("cwd", "") + " does not exist here");
                }
                pb.environment().clear();
                pb.environment().putAll(e);
                Future<NodeProcess> started = starter.submit(() -> NodeProcess.start(node, pb, setsid,
                        (stderr, line, length) -> forward(announced, node, stderr, line, length)));
                n = started.get();
            } catch (java.util.concurrent.ExecutionException e) {
                channel.send(ControlLine.of("event", "failed", "node", node, "reason",
                        "cannot start: " + e.getCause().getMessage()));
                return;
            } catch (InterruptedException e) {
                announced.countDown();
                Thread.currentThread().interrupt();
                return;
            }
            synchronized (this) {
                nodes.put(node, n);
            }
            try {
                channel.send(notes.isEmpty() ? ControlLine.of("event", "started", "node", node, "pid", n.pid())
                        : ControlLine.of("event", "started", "node", node, "pid", n.pid(), "note", String.join("; ", notes)));
            } finally {
                announced.countDown();
            }
            NodeProcess started = n;
            n.onExit(() -> reportExit(announced, started));
        }

        /** Why a spawn request is not acceptable, or null. */
        private String refusal(List<String> argv, Map<String, String> vars) {
            if (argv.isEmpty()) {
                return "no program given";
            }
            for (String k : vars.keySet()) {
                if (NodeEnvironment.never(k)) {
                    return "variable " + k + " cannot be set by a master (the loader's, PATH and weft's per-node"
                            + " variables stay this host's)";
                }
            }
            return null;
        }

        private BrokerRelay relayTo(String broker) throws IOException {
            synchronized (relays) {
                BrokerRelay r = relays.get(broker);
                if (r == null) {
                    int colon = broker.lastIndexOf(':');
                    if (colon <= 0) {
                        throw new IOException("bad broker address \"" + broker + "\"");
                    }
                    InetSocketAddress a = new InetSocketAddress(broker.substring(0, colon),
                            Integer.parseInt(broker.substring(colon + 1)));
                    r = BrokerRelay.start(Path.of(System.getProperty("java.io.tmpdir")), a, token, log::println);
                    relays.put(broker, r);
                }
                return r;
            }
        }

        private void forward(java.util.concurrent.CountDownLatch announced, long node, boolean stderr, byte[] line,
                int length) {
            try {
                announced.await();
                channel.send(ControlLine.of("event", "out", "node", node, "stream", stderr ? "err" : "out", "data",
                        Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(line, length))));
            } catch (IOException e) {
                // the master is gone; the session's end kills the node
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void reportExit(java.util.concurrent.CountDownLatch announced, NodeProcess n) {
            try {
                announced.await();
                int rc = n.waitFor(); // its output lines first
                channel.send(ControlLine.of("event", "exit", "node", n.nodeId(), "status", (long) rc));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the master is gone
            }
        }

        private void signal(ControlLine m) throws ControlLine.BadLineException {
            long node = m.number("node");
            String sig = m.string("signal");
            NodeProcess n;
            synchronized (this) {
                n = nodes.get(node);
            }
            if (n == null || !n.alive()) {
                return;
            }
            if (sig.equals("KILL")) {
                n.kill();
            } else {
                n.terminate();
            }
        }

        /** The master's channel ended: kill what it left running here, then close the relays. */
        private void end() {
            List<NodeProcess> left;
            synchronized (this) {
                left = new ArrayList<>(nodes.values());
            }
            for (NodeProcess n : left) {
                if (n.alive()) {
                    n.kill();
                }
            }
            for (NodeProcess n : left) {
                try {
                    n.waitFor(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (relays) {
                relays.values().forEach(BrokerRelay::close);
                relays.clear();
            }
            if (channel != null) {
                channel.close();
            }
            if (peer != null && !left.isEmpty()) {
                log.println("weft hostd: master " + peer + " finished (" + left.size() + " node(s) ran here)");
            }
        }
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Keeps insertion order of a map for messages (spawn env is sorted by the master). */
    static Map<String, String> sorted(Map<String, String> m) {
        return new LinkedHashMap<>(new TreeMap<>(m));
    }
}
