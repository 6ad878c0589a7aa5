package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30: a node's environment, working directory, umask and limits travel with it, so one host, three local host
 * agents and an explicit placement give each node the same inputs (the deny-list aside), and a windowed Chord
 * configured by CHORD_FIX in the environment records the same operations everywhere. The agents are started with
 * another umask, a smaller stack limit and a CHORD_FIX of their own, none of which may reach a node.
 */
class EnvTravelTest {
    /** Prints what a node's behaviour may depend on besides its arguments, one fact per line. */
    static final String PRINT = "echo \"cwd $(pwd)\"; echo \"umask $(umask)\"; echo \"limits $(ulimit -Sn) $(ulimit -Ss)"
            + " $(ulimit -Sc)\"; env | sort";

    static Path tokenFile;
    static List<Process> agents = new ArrayList<>();
    static List<Integer> ports = new ArrayList<>();
    static Path chord;

    @TempDir
    static Path shared;

    @TempDir
    Path dir;

    @BeforeAll
    static void startAgents() throws Exception {
        NativeFixture.assumeBuilt();
        chord = NativeFixture.example("chord_node");
        tokenFile = HostdProcess.tokenFile(shared.resolve("token"), "a shared secret");
        for (int i = 0; i < 3; i++) {
            startAgent();
        }
    }

    private static void startAgent() throws Exception {
        // another umask, a smaller stack, and a CHORD_FIX and TRAVEL_MARK of the agent's own: none may reach a node
        HostdProcess agent = HostdProcess.start(tokenFile,
                List.of("sh", "-c", "umask 0077 && ulimit -Ss 4096 && exec \"$@\"", "sh"),
                Map.of("CHORD_FIX", "2", "TRAVEL_MARK", "the agent's"));
        agents.add(agent.process());
        ports.add(agent.port());
    }

    @AfterAll
    static void stopAgents() throws Exception {
        for (Process p : agents) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String hosts() {
        return ports.get(0) + "," + ports.get(1) + "," + ports.get(2);
    }

    private static Map<String, String> masterEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("TRAVEL_MARK", "the master's");
        env.put("LC_ALL", "C");
        return env;
    }

    /** Each node's printed facts, sorted, without the variables that by design stay each machine's own. */
    private static Map<Long, List<String>> facts(ClusterRunTest.Out o) {
        Map<Long, List<String>> byNode = new TreeMap<>();
        for (String l : o.stdout().split("\n")) {
            if (!l.startsWith("[n")) {
                continue;
            }
            long node = Long.parseLong(l.substring(2, l.indexOf(']')));
            String fact = l.substring(l.indexOf(']') + 2);
            int eq = fact.indexOf('=');
            String name = eq > 0 && !fact.startsWith("cwd ") ? fact.substring(0, eq) : null;
            if (name != null && (NodeEnvironment.never(name) || NodeEnvironment.MACHINE.contains(name))) {
                continue;
            }
            byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(fact);
        }
        byNode.values().forEach(Collections::sort);
        return byNode;
    }

    private ClusterRunTest.Out print(String... placement) {
        List<String> args = new ArrayList<>(List.of("--seed", "1", "--net", "", "--nodes", "3", "--env", "ANSWER=42"));
        args.addAll(List.of(placement));
        args.addAll(List.of("--", "sh", "-c", PRINT));
        return ClusterRunTest.weft(masterEnv(), args.toArray(String[]::new));
    }

    @Test
    void oneHostThreeAgentsAndAnExplicitPlacementGiveEveryNodeTheSameInputs() {
        ClusterRunTest.Out here = print();
        assertEquals(0, here.exit(), here.stderr());
        Map<Long, List<String>> expected = facts(here);
        assertEquals(3, expected.size(), here.stdout());
        assertTrue(expected.get(1L).contains("TRAVEL_MARK=the master's"), expected.get(1L).toString());
        assertTrue(expected.get(1L).contains("ANSWER=42"), expected.get(1L).toString());
        ClusterRunTest.Out spread = print("--hosts", hosts(), "--token-file", tokenFile.toString());
        assertEquals(0, spread.exit(), spread.stderr());
        assertEquals(expected, facts(spread), "round robin over three agents");
        ClusterRunTest.Out placed = print("--hosts", hosts(), "--place", "0@" + ports.get(2) + ",1-2@" + ports.get(0),
                "--token-file", tokenFile.toString());
        assertEquals(0, placed.exit(), placed.stderr());
        assertEquals(expected, facts(placed), "an explicit placement");
        // one line per variable set here that does not travel
        assertTrue(spread.stderr().contains("weft run: note: PATH is not forwarded to nodes on host agents (each agent"
                + " finds the program through its own PATH)"), spread.stderr());
        assertFalse(here.stderr().contains("is not forwarded"), here.stderr());
    }

    @Test
    void aDryRunShowsEachNodesHostCommandAndEnvironmentAndRunsNothing() {
        ClusterRunTest.Out o = ClusterRunTest.weft(masterEnv(), "--seed", "1", "--net", "", "--nodes", "2", "--hosts",
                ports.get(0) + "," + ports.get(1), "--place", "1@" + ports.get(1), "--env", "ANSWER=42", "--dry-run",
                "--", "true");
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stdout().startsWith("node 0: host 0 (this machine)\n  directory "), o.stdout());
        assertTrue(o.stdout().contains("\nnode 1: host 2 (127.0.0.1:" + ports.get(1) + ")\n"), o.stdout());
        assertTrue(o.stdout().contains("  env TRAVEL_MARK=the master's\n"), o.stdout());
        assertTrue(o.stdout().contains("  env ANSWER=42\n"), o.stdout());
        assertTrue(o.stdout().contains("  env WEFT_NODE_ID=0\n"), o.stdout());
        assertFalse(o.stdout().contains("[n0]"), "nothing ran: " + o.stdout());
    }

    @Test
    void envOptionsRefuseWhatWeftSetsItself() {
        ClusterRunTest.Out o = ClusterRunTest.weft(Map.of(), "--seed", "1", "--net", "", "--env", "LD_PRELOAD=x", "--",
                "true");
        assertEquals(2, o.exit());
        assertTrue(o.stderr().startsWith("weft run: --env LD_PRELOAD: cannot be set for nodes"), o.stderr());
        ClusterRunTest.Out seed = ClusterRunTest.weft(Map.of(), "--seed", "1", "--net", "", "--env", "WEFT_SEED=2", "--",
                "true");
        assertTrue(seed.stderr().startsWith("weft run: --env WEFT_SEED: cannot be set for nodes (weft run sets it"),
                seed.stderr());
        ClusterRunTest.Out path = ClusterRunTest.weft(Map.of(), "--seed", "1", "--net", "", "--pass-env", "PATH", "--",
                "true");
        assertTrue(path.stderr().startsWith("weft run: --pass-env PATH: never forwarded"), path.stderr());
    }

    @Test
    void aWindowedRunThatEndsWhenItsClientExitsEndsTheSameOnAgents() throws Exception {
        // the server never exits (PINGPONG_SERVE=0 travels in the environment); the agent stops it at the end
        Path pingpong = NativeFixture.example("pingpong");
        Map<String, String> env = new HashMap<>(masterEnv());
        env.put("PINGPONG_SERVE", "0");
        List<String> base = List.of("--seed", "44", "--net", "latency=uniform:2000-10000", "--window", "1000",
                "--nodes", "2", "--watchdog", "30", "--end-when-exited", "1");
        Path local = dir.resolve("end-local.weftlog");
        List<String> a = new ArrayList<>(base);
        a.addAll(List.of("--record", local.toString(), "--", pingpong.toString()));
        ClusterRunTest.Out one = ClusterRunTest.weft(env, a.toArray(String[]::new));
        assertEquals(0, one.exit(), one.stderr());
        Path spread = dir.resolve("end-agents.weftlog");
        List<String> b = new ArrayList<>(base);
        b.addAll(List.of("--record", spread.toString(), "--hosts", ports.get(0) + "," + ports.get(1), "--token-file",
                tokenFile.toString(), "--", pingpong.toString()));
        ClusterRunTest.Out two = ClusterRunTest.weft(env, b.toArray(String[]::new));
        assertEquals(0, two.exit(), two.stderr());
        assertTrue(two.stderr().contains("SIGTERM to node(s) 0"), two.stderr());
        assertEquals(records(local), records(spread), "the same cut and signal records on agents");
        assertTrue(records(spread).stream().anyMatch(l -> l.contains("\"k\":\"signal\",\"node\":0")));
    }

    @Test
    void aWindowedCampaignOverAgentsGivesTheSameReportAsOnOneHost() throws Exception {
        // the matrix variable CHORD_FIX reaches every node through the environment; the agents have CHORD_FIX=2
        Path config = dir.resolve("chord.json");
        Files.writeString(config, "{\"target\": [\"" + chord + "\", \"6\", \"45\", \"3\"], \"nodes\": 7,"
                + " \"net\": \"latency=uniform:1000-60000\", \"window_ns\": 1000, \"env\": {\"CHORD_NNODES\": \"7\"},"
                + " \"matrix\": {\"CHORD_FIX\": [\"0\", \"1\"]}, \"checker\": \"chord 6\", \"watchdog_secs\": 60,"
                + " \"seed_start\": 3, \"seed_count\": 2, \"shim\": \"" + NativeFixture.shim() + "\"}");
        String[] reports = new String[2];
        for (int i = 0; i < 2; i++) {
            Path out = dir.resolve("campaign" + i);
            List<String> args = new ArrayList<>(List.of("--config", config.toString(), "--out", out.toString()));
            if (i == 1) {
                args.addAll(List.of("--hosts", hosts(), "--token-file", tokenFile.toString()));
            }
            java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
            java.io.PrintStream ps = new java.io.PrintStream(buf, true, StandardCharsets.UTF_8);
            int rc = dev.weft.launcher.campaign.CampaignCommand.run(args.toArray(String[]::new), ps, ps);
            assertTrue(rc == 0 || rc == 2, buf.toString());
            reports[i] = Files.readString(out.resolve("report.json"));
            assertFalse(reports[i].contains("\"ERROR\": 1") || reports[i].contains("\"ERROR\": 2"), reports[i]);
        }
        // the same verdicts, seeds, classes and identities; a kept recording's sha256 differs by the header's host map
        String masked = "sha256 [0-9a-f]{64}";
        assertTrue(reports[1].contains("confirmed: byte-identical recording (sha256 "), reports[1]);
        assertEquals(reports[0].replaceAll(masked, "sha256 …"), reports[1].replaceAll(masked, "sha256 …"),
                "a campaign over three agents reports what one host reports");
    }

    /** A log's record lines (line 2 on) without their chain member, which the header's bytes feed. */
    private static List<String> records(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            out.add(l.replaceFirst(",\"chain\":\"[0-9a-f]{16}\"}$", "}"));
        }
        return out;
    }

    @Test
    void aWindowedChordConfiguredByItsEnvironmentRecordsTheSameOnAgents() throws Exception {
        Map<String, String> env = new HashMap<>(masterEnv());
        env.put("CHORD_NNODES", "7");
        env.put("CHORD_FIX", "0");
        List<String> base = List.of("--seed", "5", "--net", "latency=uniform:1000-60000", "--window", "1000", "--nodes",
                "7", "--watchdog", "60");
        List<String> cmd = List.of("--", chord.toString(), "6", "45", "3");
        Path local = dir.resolve("local.weftlog");
        List<String> a = new ArrayList<>(base);
        a.addAll(List.of("--record", local.toString()));
        a.addAll(cmd);
        ClusterRunTest.Out one = ClusterRunTest.weft(env, a.toArray(String[]::new));
        assertTrue(Files.exists(local), one.stderr());
        Path spread = dir.resolve("agents.weftlog");
        List<String> b = new ArrayList<>(base);
        b.addAll(List.of("--record", spread.toString(), "--hosts", hosts(), "--token-file", tokenFile.toString()));
        b.addAll(cmd);
        ClusterRunTest.Out three = ClusterRunTest.weft(env, b.toArray(String[]::new));
        assertEquals(one.exit(), three.exit(), three.stderr());
        assertTrue(Files.exists(spread), three.stderr());
        List<String> expected = records(local);
        assertTrue(expected.size() > 1000, "a real Chord run: " + expected.size() + " records");
        assertEquals(expected, records(spread), "the agents' nodes ran with the master's CHORD_FIX, not their own");
        assertEquals(ClusterRunTest.replaysIdentically(local).digest(), ClusterRunTest.replaysIdentically(spread).digest());
    }
}
