package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.Await;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several hosts on one machine: {@code weft hostd} agents as separate processes on loopback TCP, driven by
 * {@code weft run --hosts}. Pins that a windowed cluster split over agents records exactly what it records on one
 * machine (and the same bytes on every run), and the failure modes: a wrong token, an unreachable host, an agent
 * killed mid-run (a clean discard, and its nodes die with it). Adds about 10 s of test time.
 */
class MultiHostRunTest {
    static final String NET = "latency=uniform:2000-10000";

    @RegisterExtension
    static final CompiledProgram PINGPONG = new CompiledProgram("examples/pingpong.c");
    static Path tokenFile;
    static Path badTokenFile;
    static HostdProcess first;
    static HostdProcess second;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    static void startAgents() throws Exception { // (PINGPONG has checked that the shim is built)
        tokenFile = HostdProcess.tokenFile(shared.resolve("token"), "a shared secret");
        badTokenFile = HostdProcess.tokenFile(shared.resolve("bad-token"), "not it");
        first = HostdProcess.start(tokenFile);
        second = HostdProcess.start(tokenFile);
    }

    @AfterAll
    static void stopAgents() throws Exception {
        if (first != null) {
            first.stop();
        }
        if (second != null) {
            second.stop();
        }
    }

    private static String hosts() {
        return first.port() + "," + second.port();
    }

    private ClusterRunTest.Out pingpong(Path log, String... extra) {
        List<String> a = new ArrayList<>(List.of("--seed", "44", "--net", NET, "--window", "1000", "--nodes", "2",
                "--watchdog", "20", "--record", log.toString()));
        a.addAll(Arrays.asList(extra));
        a.addAll(List.of("--", PINGPONG.path().toString()));
        return ClusterRunTest.weft(a.toArray(String[]::new));
    }

    /** What {@code weft replay LOG} prints on stdout (exit 0 asserted): the op count and the stream digest. */
    private static String replayLine(Path log) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int rc = dev.weft.launcher.replay.ReplayCommand.run(new String[] {log.toString()},
                new java.io.PrintStream(out, true, StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    /** A log's record lines (line 2 on) without their chain member, which the header's bytes feed (§8). */
    private static List<String> recordsAsideChain(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            String stripped = l.replaceFirst(",\"chain\":\"[0-9a-f]{16}\"}$", "}");
            assertFalse(stripped.equals(l), () -> "no chain member at the end of " + l);
            out.add(stripped);
        }
        return out;
    }

    @Test
    void aWindowedClusterOverTwoAgentsRecordsWhatOneMachineRecordsEveryTime() throws Exception {
        Path local = dir.resolve("local.weftlog");
        ClusterRunTest.Out one = pingpong(local);
        assertEquals(0, one.exit(), one.stderr());
        List<String> localLines = Files.readAllLines(local, StandardCharsets.UTF_8);
        String localHeader = localLines.get(0);
        assertFalse(localHeader.contains("hosts"), "a one-machine run's header has the spec's members only: "
                + localHeader);
        assertTrue(localHeader.endsWith(",\"meta\":{\"weft_version\":\"0.0.2\"}}"), localHeader);
        List<String> localRecords = recordsAsideChain(local);
        String localReplay = replayLine(local);
        assertTrue(localReplay.startsWith("replay identical: " + localRecords.size() + " op(s), stream digest "),
                localReplay);
        // round-robin (twice), then reversed (node 0 on host 2): where a node runs changes the header's host map
        // (and so every chain value) but not one record, nor the stream digest that `weft replay` prints
        String[] placed = {"node(s) 0; host 2 = 127.0.0.1:" + second.port() + ": node(s) 1",
            "node(s) 0; host 2 = 127.0.0.1:" + second.port() + ": node(s) 1",
            "node(s) 1; host 2 = 127.0.0.1:" + second.port() + ": node(s) 0"};
        String[] hostMap = {"1=0;2=1", "1=0;2=1", "1=1;2=0"};
        Path[] logs = new Path[3];
        for (int i = 0; i < 3; i++) {
            Path log = dir.resolve("hosts" + i + ".weftlog");
            logs[i] = log;
            ClusterRunTest.Out o = i < 2 ? pingpong(log, "--hosts", hosts(), "--token-file", tokenFile.toString())
                    : pingpong(log, "--hosts", hosts(), "--place", "0@" + second.port() + ",1@" + first.port(),
                            "--token-file", tokenFile.toString());
            assertEquals(0, o.exit(), o.stderr());
            assertTrue(o.stderr().contains("weft run: nodes placed: host 1 = 127.0.0.1:" + first.port() + ": "
                    + placed[i]), o.stderr());
            assertTrue(o.stderr().contains("peers must prove the token"), o.stderr());
            // the nodes' output travels back from the agents with the node id in front
            assertTrue(o.stdout().contains("[n0] server got: PING:"), o.stdout());
            assertTrue(o.stdout().contains("[n1] client got: PONG:"), o.stdout());
            String header = Files.readAllLines(log, StandardCharsets.UTF_8).get(0);
            assertEquals(localHeader.substring(0, localHeader.length() - 2) + ",\"hosts\":\"" + hostMap[i] + "\"}}",
                    header, "run " + i + ": the header is the one-machine header plus our host map");
            // a regression in the windowed key order (e.g. the host id leaking into it) shows here
            assertEquals(localRecords, recordsAsideChain(log), "run " + i + " over two agents recorded other"
                    + " operations than the one-machine run");
            assertEquals(localReplay, replayLine(log), "run " + i + ": weft replay reports the same ops and digest");
        }
        assertTrue(Arrays.equals(Files.readAllBytes(logs[0]), Files.readAllBytes(logs[1])),
                "two runs with the same placement recorded different bytes");
        assertFalse(Arrays.equals(Files.readAllBytes(logs[0]), Files.readAllBytes(logs[2])),
                "the host map is part of the header, so another placement gives other chain values");
        try (dev.weft.log.LogReader r = dev.weft.log.LogReader.open(logs[0])) {
            assertEquals("1=0;2=1", r.header().meta().hosts(), "our reader gives back the host map");
            assertEquals("0.0.2", r.header().meta().weftVersion());
        }
    }

    @Test
    void aMasterWithTheWrongTokenIsRefusedAndNothingRuns() throws Exception {
        ClusterRunTest.Out o = pingpong(dir.resolve("x.weftlog"), "--hosts", hosts(), "--token-file",
                badTokenFile.toString());
        assertEquals(ClusterRun.DISCARDED_EXIT, o.exit(), o.stderr());
        assertEquals("weft run: host 127.0.0.1:" + first.port() + " refused us: wrong token (is the same token file"
                + " given to weft hostd and weft run?); nothing was started\n", o.stderr());
        first.awaitPrinted("weft hostd: refused master 127.0.0.1:");
        first.awaitPrinted(": wrong token");
        ClusterRunTest.Out none = pingpong(dir.resolve("y.weftlog"), "--hosts", hosts());
        assertEquals(RunCommand.USAGE_ERROR, none.exit(), none.stderr());
        assertTrue(none.stderr().startsWith("weft run: --hosts needs the shared token of its host agents"),
                none.stderr());
    }

    @Test
    void anUnreachableHostIsOneLineAndExit3() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        ClusterRunTest.Out o = pingpong(dir.resolve("u.weftlog"), "--hosts", first.port() + "," + closedPort,
                "--token-file", tokenFile.toString());
        assertEquals(ClusterRun.DISCARDED_EXIT, o.exit(), o.stderr());
        assertEquals("weft run: host 127.0.0.1:" + closedPort + " unreachable: Connection refused; nothing was"
                + " started\n", o.stderr());
        assertFalse(Files.exists(dir.resolve("u.weftlog")) && Files.size(dir.resolve("u.weftlog")) > 0,
                "no log was started");
    }

    @Test
    void anAgentKilledMidRunDiscardsTheWindowedRunAndTakesItsNodesWithIt() throws Exception {
        HostdProcess doomed = HostdProcess.start(tokenFile);
        Path victim = dir.resolve("pp-victim");
        Files.copy(PINGPONG.path(), victim);
        victim.toFile().setExecutable(true);
        Path log = dir.resolve("lost.weftlog");
        // node 0 (the server, on the doomed agent) waits for a PING; node 1 (here) never connects and keeps running
        // (blocked opening a fifo nobody writes: had it exited, node 0's wait would be a deadlock verdict), so the
        // run cannot end by itself; the test then SIGKILLs the agent. Node 1 leaves a marker: the run starts its nodes
        // in order and node 0's start returns only once the agent has said "started", so the marker means the
        // master counts node 0 as running (a kill before that is "lost while starting", another test's matter).
        Path node1 = dir.resolve("node1-started");
        Path fifo = dir.resolve("never-written");
        ClusterRunTest.Out[] result = new ClusterRunTest.Out[1];
        Thread run = new Thread(() -> result[0] = ClusterRunTest.weft("--seed", "1", "--net", NET, "--window", "1000",
                "--nodes", "2", "--watchdog", "30", "--record", log.toString(), "--place", "0@" + doomed.port(),
                "--token-file", tokenFile.toString(), "--", "sh", "-c",
                "if [ \"$WEFT_NODE_ID\" = 0 ]; then exec " + victim + "; fi; : > " + node1 + "; mkfifo " + fifo
                        + " && exec cat " + fifo));
        run.start();
        ProcessHandle node = Await.value("the node starting on the agent (a process running " + victim + ")",
                () -> ProcessHandle.allProcesses()
                        .filter(h -> h.info().command().map(c -> c.equals(victim.toString())).orElse(false))
                        .findFirst().orElse(null));
        // the kill must come mid-run: once the master has node 0 running and the node holds its connection to the
        // broker (through the agent's relay)
        Await.until("the run starting node 1 (its marker " + node1 + ")", () -> Files.exists(node1));
        Await.until("node " + node.pid() + " connecting to the broker (a socket among its open files)",
                () -> Await.hasSocket(node.pid()));
        doomed.stop();
        run.join(TimeUnit.SECONDS.toMillis(30));
        ClusterRunTest.Out o = result[0];
        assertEquals(ClusterRun.DISCARDED_EXIT, o.exit(), o.stderr());
        List<String> discards = o.stderr().lines().filter(l -> l.startsWith("weft run: run discarded:")).toList();
        assertEquals(List.of("weft run: run discarded: host 1 (127.0.0.1:" + doomed.port() + ") lost mid-run; its"
                + " node(s) 0 stopped; no recording kept"), discards, o.stderr());
        assertFalse(Files.exists(log), "a discarded run leaves no half-written log");
        // the agent started it with a parent-death signal: it does not outlive the agent
        try {
            node.onExit().get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            node.destroyForcibly();
            throw new AssertionError("the node outlived its agent by 10 s", e);
        }
    }

    @Test
    void aNodeStartedByHandJoinsATokenBrokerThroughItsOwnRelay() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("hand.weftlog");
        // the master runs node 0 (the server) and accepts node 1 over TCP with the token
        ClusterRunTest.Out[] master = new ClusterRunTest.Out[1];
        Thread run = new Thread(() -> master[0] = ClusterRunTest.weft("--seed", "44", "--net", NET, "--nodes", "1",
                "--listen", Integer.toString(port), "--token-file", tokenFile.toString(), "--watchdog", "20",
                "--record", log.toString(), "--", PINGPONG.path().toString()));
        run.start();
        Await.until("the master listening on tcp port " + port, () -> Await.tcpListening(port));
        // a wrong token: the broker refuses the relay's connection (the shim then falls back to a real socket)
        ClusterRunTest.Out bad = ClusterRunTest.weft("--seed", "44", "--broker", "127.0.0.1:" + port, "--node-id", "1",
                "--token-file", badTokenFile.toString(), "--", PINGPONG.path().toString());
        assertEquals(1, bad.exit(), "pingpong's client gives up on its real socket: " + bad.stderr());
        assertTrue(bad.stderr().contains("weft run: broker 127.0.0.1:" + port + ": the broker refused our token"),
                bad.stderr());
        ClusterRunTest.Out node = ClusterRunTest.weft("--seed", "44", "--broker", "127.0.0.1:" + port, "--node-id",
                "1", "--host-id", "3", "--token-file", tokenFile.toString(), "--", PINGPONG.path().toString());
        assertEquals(0, node.exit(), node.stderr());
        run.join(TimeUnit.SECONDS.toMillis(30));
        assertEquals(0, master[0].exit(), master[0].stderr());
        assertTrue(master[0].stdout().contains("[n0] server got: PING:"), master[0].stdout());
        assertTrue(master[0].stderr().contains("the broker also accepts nodes on tcp 127.0.0.1:" + port
                + "; peers must prove the token"), master[0].stderr());
        assertTrue(master[0].stderr().matches("(?s).*weft broker: refused tcp peer 127\\.0\\.0\\.1:\\d+: wrong token\n.*"),
                master[0].stderr());
        ClusterRunTest.replaysIdentically(log);
        String unix = ClusterRunTest.weft("--seed", "1", "--broker", "/tmp/x.sock", "--node-id", "1", "--token-file",
                tokenFile.toString(), "--", "true").stderr();
        assertEquals("weft run: --token-file: the token is for TCP brokers; \"/tmp/x.sock\" is a Unix socket path"
                + " (wire-and-abi.md §1)\n", unix);
    }
}
