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
 * authenticated master only), and the shim's {@code WEFT_*} variables (plus {@code OPENSSL_ia32cap}); never
 * {@code LD_PRELOAD}, {@code PATH} or any other variable, and never the broker endpoint the node uses.
 */
final class HostAgent implements AutoCloseable {
    /** The control protocol's version, in the agent's first line. */
    static final long PROTOCOL = 1;

    private final SharedToken token;
    private final Path shim;
    private final java.util.Optional<Path> weftExec;
    private final Map<String, String> env;
    private final PrintStream log;
    private final ServerSocket server;
    private final Optional<Path> setsid;
    private final Optional<Path> setpriv;
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

    HostAgent(SharedToken token, Path shim, Map<String, String> env, PrintStream log, InetSocketAddress listen)
            throws IOException {
        this.token = token;
        this.shim = shim;
        this.env = Map.copyOf(env);
        this.log = log;
        this.setsid = NodeProcess.setsid(env.get("PATH"));
        this.setpriv = TargetIsolation.find("setpriv", env.get("PATH"));
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
            Thread t = new Thread(() -> new Session(s).run(), "weft-hostd-session");
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

        Session(Socket socket) {
            this.socket = socket;
        }

        void run() {
            try {
                channel = new ControlChannel(socket);
                peer = channel.peer();
                if (!authenticate()) {
                    return;
                }
                log.println("weft hostd: master " + peer + " connected");
                while (true) {
                    ControlLine m = channel.receive();
                    String op = m.stringOr("op", "");
                    switch (op) {
                        case "spawn" -> spawn(m);
                        case "signal" -> signal(m);
                        default -> throw new ControlLine.BadLineException("unknown op \"" + op + "\"");
                    }
                }
            } catch (EOFException | SocketException e) {
                // the master ended the run (or went away): nothing of it may keep running here
            } catch (IOException e) {
                log.println("weft hostd: master " + peer + ": " + e.getMessage());
            } catch (ControlLine.BadLineException e) {
                log.println("weft hostd: master " + peer + ": bad control line: " + e.getMessage()
                        + "; connection closed");
            } finally {
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
            try {
                ControlLine m = channel.receive();
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
            socket.setSoTimeout(0);
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
            // a node's output and exit are reported only after its "started" (its pumps run from the first byte)
            java.util.concurrent.CountDownLatch announced = new java.util.concurrent.CountDownLatch(1);
            try {
                BrokerRelay relay = relayTo(broker);
                Map<String, String> e = new HashMap<>(env);
                e.keySet().removeIf(k -> k.startsWith("WEFT_"));
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
                cmd.addAll(plan.command());
                ProcessBuilder pb = new ProcessBuilder(cmd);
                // the master's working directory when this machine has it (a shared file system), else ours
                java.io.File cwd = new java.io.File(m.stringOr("cwd", ""));
                if (cwd.isAbsolute() && cwd.isDirectory()) {
                    pb.directory(cwd);
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
                channel.send(ControlLine.of("event", "started", "node", node, "pid", n.pid()));
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
                boolean allowed = (k.startsWith("WEFT_") || k.equals("OPENSSL_ia32cap"))
                        && !k.equals("WEFT_BROKER") && !k.equals("WEFT_NODE_ID") && !k.equals("WEFT_HOST_ID")
                        && !k.equals("WEFT_SHIM");
                if (!allowed) {
                    return "variable " + k + " cannot be set by a master (only the shim's WEFT_* variables)";
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
