package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignConfigTest {
    static final String GOOD = "{\"target\": [\"./node\", \"6\"], \"nodes\": 3, \"net\": \"latency=uniform:1-2\","
            + " \"matrix\": {\"FIX\": [\"0\", \"1\", \"2\"], \"A\": [\"x\", \"y\"]}, \"checker\": \"chord 6\"}";

    static CampaignConfig parse(String doc) throws CampaignConfig.ConfigException {
        return CampaignConfig.parse(doc.getBytes(StandardCharsets.UTF_8), Path.of("/cfg"));
    }

    static String error(String doc) {
        return assertThrows(CampaignConfig.ConfigException.class, () -> parse(doc)).getMessage();
    }

    @Test
    void theStreamInvariantJudgesATcpCampaignThroughReplay() throws Exception {
        CampaignConfig c = parse(GOOD.replace("\"chord 6\"", "\"fifo,dup,stream\""));
        assertEquals("fifo,dup,stream", c.checker());
        assertEquals(List.of("replay", "run.weftlog", "--check", "stream"),
                new RunExecutor(parse(GOOD.replace("\"chord 6\"", "\"stream\""))).checkArgs("run.weftlog"));
    }

    @Test
    void cellsAreEveryCombinationInNameOrderAndTheTargetResolvesAgainstTheConfigFolder() throws Exception {
        CampaignConfig c = parse(GOOD);
        assertEquals("/cfg/node", c.target().get(0));
        assertEquals(List.of("A=x,FIX=0", "A=x,FIX=1", "A=x,FIX=2", "A=y,FIX=0", "A=y,FIX=1", "A=y,FIX=2"),
                c.cells().stream().map(PlannedRun::cellName).toList());
        // the canonical form reads back to the same config (resume and merge rely on it)
        assertEquals(c, CampaignConfig.parse(c.canonicalJson().getBytes(StandardCharsets.UTF_8), Path.of("/other")));
    }

    /**
     * campaign.json reads back with parseCanonical (merge, verify, compact): a plain campaign's as the config it was
     * written from; a scenario campaign's empty target, nodes and net as written, the scenario not read again (there
     * is none at that path); an empty target without a scenario is still refused.
     */
    @Test
    void theCanonicalReaderTakesAScenarioCampaignsFileAsWritten() throws Exception {
        CampaignConfig plain = parse(GOOD);
        assertEquals(plain, CampaignConfig.parseCanonical(plain.canonicalJson().getBytes(StandardCharsets.UTF_8)));
        String scenario = "{\"checker\": \"fifo\", \"net\": \"latency=uniform:1-2\", \"nodes\": 2,"
                + " \"scenario\": \"/nowhere/pp.json\", \"target\": []}";
        CampaignConfig c = CampaignConfig.parseCanonical(scenario.getBytes(StandardCharsets.UTF_8));
        assertEquals("/nowhere/pp.json", c.scenario());
        assertEquals(List.of(), c.target());
        assertEquals(2, c.nodes());
        assertEquals("latency=uniform:1-2", c.net());
        assertEquals("target: must not be empty", assertThrows(CampaignConfig.ConfigException.class,
                () -> CampaignConfig.parseCanonical(scenario.replace(" \"scenario\": \"/nowhere/pp.json\",", "")
                        .getBytes(StandardCharsets.UTF_8))).getMessage());
    }

    @Test
    void aWindowedCampaignPassesItsWindowToEveryRunAndRefusesAWindowAboveTheMinimumLatency() throws Exception {
        String windowed = GOOD.replace("\"nodes\": 3,", "\"nodes\": 3, \"window_ns\": 1,");
        CampaignConfig c = parse(windowed);
        assertEquals(1, c.windowNs());
        c.checkNet(); // latency=uniform:1-2: a window of 1 ns is allowed
        assertEquals(c, CampaignConfig.parse(c.canonicalJson().getBytes(StandardCharsets.UTF_8), Path.of("/other")));
        List<String> args = new RunExecutor(c).runArgs(new PlannedRun(0, Map.of(), 7), "x.weftlog");
        assertEquals(List.of("--window", "1"), args.subList(args.indexOf("--window"), args.indexOf("--window") + 2));
        // a plain campaign's canonical form is what older versions wrote (a resumed folder still matches)
        assertEquals(-1, parse(GOOD).canonicalJson().indexOf("window_ns"));
        assertEquals(-1, parse(GOOD.replace("\"nodes\": 3,", "\"nodes\": 3, \"window_ns\": 0,")).canonicalJson()
                .indexOf("window_ns"));
        CampaignConfig tooWide = parse(windowed.replace("\"window_ns\": 1", "\"window_ns\": 2"));
        assertEquals("window_ns: 2 is above the net's minimum latency of 1 ns (a datagram could land in the window it"
                + " was sent in); use a window of at most the minimum latency",
                assertThrows(CampaignConfig.ConfigException.class, tooWide::checkNet).getMessage());
    }

    @Test
    void mistakesAreNamedAndLocated() {
        assertEquals("unknown field `nodez`, expected one of //, target, nodes, net, window_ns, env, matrix, checker,"
                + " checker_command, time_bound_secs, watchdog_secs, seed_start, seed_count, keep_pass_permille, shim, scenario"
                + " at line 2 column 3", error("{\"nodes\": 1,\n  \"nodez\": 2}"));
        assertEquals("window_ns: -1 is out of range 0..9223372036854775807 at line 1 column 15",
                error("{\"window_ns\": -1}"));
        assertEquals("checker: unknown checker \"paxos\" (known: \"chord M\" with M in 1..99, \"raft\", invariants such as"
                + " \"fifo,dup\" or \"stream\" (each of fifo|dup|stream once), \"history:MODEL\" with MODEL one of register|cas-register|kv|set|list-append; or use"
                + " checker_command) at line 1 column 13", error("{\"checker\": \"paxos\"}"));
        assertEquals("checker: unknown checker \"history:queue\" (known: \"chord M\" with M in 1..99, \"raft\","
                + " invariants such as \"fifo,dup\" or \"stream\" (each of fifo|dup|stream once), \"history:MODEL\" with"
                + " MODEL one of register|cas-register|kv|set|list-append; or use checker_command) at line 1 column 13",
                error("{\"checker\": \"history:queue\"}"));
        assertEquals("nodes: expected an integer at line 1 column 11", error("{\"nodes\": \"7\"}"));
        assertEquals("env: `WEFT_SEED` is set by weft run itself at line 1 column 10",
                error("{\"env\": {\"WEFT_SEED\": \"1\"}}"));
        assertEquals("checker: unknown checker \"stream,stream\" (known: \"chord M\" with M in 1..99, \"raft\", invariants"
                + " such as \"fifo,dup\" or \"stream\" (each of fifo|dup|stream once), \"history:MODEL\" with MODEL one of"
                + " register|cas-register|kv|set|list-append; or use checker_command) at line 1 column 13",
                error("{\"checker\": \"stream,stream\"}"));
        assertEquals("missing field `net`", error("{\"target\": [\"x\"], \"nodes\": 1, \"checker\": \"raft\"}"));
    }

    @Test
    void shardsComeFromTheFlagOrTheBatchSystem() {
        assertEquals(new Shard(2, 4), Shard.parse("2/4"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("4/4"));
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("1"));
        assertEquals(new Shard(3, 8), Shard.fromEnvironment(Map.of("JOB_COMPLETION_INDEX", "3", "JOB_COMPLETIONS", "8")));
        assertEquals(new Shard(1, 5), Shard.fromEnvironment(Map.of("SLURM_ARRAY_TASK_ID", "2",
                "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_COUNT", "5")));
        assertEquals(Shard.ALL, Shard.fromEnvironment(Map.of()));
        // every run is in exactly one shard
        for (long i = 0; i < 20; i++) {
            long owners = 0;
            for (int k = 0; k < 3; k++) {
                owners += new Shard(k, 3).owns(i) ? 1 : 0;
            }
            assertEquals(1, owners);
        }
    }

    /** Issue 28: a config that is /dev/zero is read no further than 1 MiB and refused in one line. */
    @org.junit.jupiter.api.Test
    void anEndlessConfigFileIsRefusedInOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path zero = java.nio.file.Files.createSymbolicLink(dir.resolve("c.json"), java.nio.file.Path.of("/dev/zero"));
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(b, true, java.nio.charset.StandardCharsets.UTF_8);
        int code = CampaignCommand.run(new String[] {"--config", zero.toString(), "--out", dir.resolve("out").toString()},
                java.util.Map.of(), ps, ps);
        org.junit.jupiter.api.Assertions.assertEquals(1, code);
        org.junit.jupiter.api.Assertions.assertEquals("weft campaign: " + zero
                + ": more than 1048576 bytes (1 MiB); a campaign config is at most that\n",
                b.toString(java.nio.charset.StandardCharsets.UTF_8));
    }
}
