package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Config members, defaults, strictness and the validation order and texts of fuzz.md §2. */
class FuzzConfigLoaderTest {

    private static FuzzConfig parse(String json) throws FuzzConfigException {
        return FuzzConfigLoader.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String error(String json) {
        return assertThrows(FuzzConfigException.class, () -> parse(json)).getMessage();
    }

    @Test
    void defaults() throws Exception {
        FuzzConfig c = parse("{\"net\":\"\"}");
        assertEquals("", c.net());
        assertEquals(0, c.seedStart());
        assertEquals(1000, c.seedCount());
        assertEquals(FuzzConfig.defaultJobs(), c.jobs());
        assertEquals(0, c.timeBudgetSecs());
        assertEquals(List.of("fifo", "dup"), c.invariants());
        assertEquals(WorkloadSpec.DEFAULT, c.workload());
        assertEquals("weft-fuzz-out", c.outDir());
        assertTrue(c.shrink());
        assertEquals(List.of(), c.regressionSeeds());
    }

    @Test
    void everyMemberIsRead() throws Exception {
        FuzzConfig c = parse("{\"//\":\"hi\",\"net\":\"loss=0.1\",\"seed_start\":18446744073709551615,\"seed_count\":3,"
                + "\"jobs\":7,\"time_budget_secs\":9,\"invariants\":[\"dup\",\"fifo\",\"dup\"],"
                + "\"workload\":{\"nodes\":40000,\"sends\":5,\"payload_len\":0,\"workload_seed\":12},"
                + "\"out_dir\":\"o/p\",\"shrink\":false,\"regression_seeds\":[5,5,1]}");
        assertEquals(-1L, c.seedStart());
        assertEquals(3, c.seedCount());
        assertEquals(7, c.jobs());
        assertEquals(9, c.timeBudgetSecs());
        assertEquals(List.of("dup", "fifo", "dup"), c.invariants());
        assertEquals(new WorkloadSpec(40000, 5, 0, 12), c.workload());
        assertEquals("o/p", c.outDir());
        assertEquals(false, c.shrink());
        assertEquals(List.of(5L, 5L, 1L), c.regressionSeeds());
    }

    @Test
    void workloadDefaultsApplyPerMember() throws Exception {
        assertEquals(new WorkloadSpec(3, 24, 4, 0), parse("{\"net\":\"\",\"workload\":{\"nodes\":3}}").workload());
    }

    @Test
    void unknownMembersAreRejectedAtBothLevelsWithTheFieldNamed() {
        assertEquals("config: unknown field `seedcount`, expected one of `//`, `net`, `seed_start`, `seed_count`, `jobs`, "
                + "`time_budget_secs`, `invariants`, `workload`, `out_dir`, `shrink`, `regression_seeds` at line 1 column 12",
                error("{\"seedcount\":3,\"net\":\"\"}"));
        assertEquals("config: unknown field `node`, expected one of `nodes`, `sends`, `payload_len`, `workload_seed` "
                + "at line 1 column 28", error("{\"net\":\"\",\"workload\":{\"node\":3}}"));
    }

    @Test
    void jsonErrors() {
        assertTrue(error("{\"net\":\"\",}").startsWith("config: Unexpected character"), error("{\"net\":\"\",}"));
        assertTrue(error("{\"seed_count\":1}").startsWith("config: missing field `net` at line 1"));
        assertTrue(error("").startsWith("config: EOF while parsing a value"));
        assertTrue(error("[]").startsWith("config: invalid type: sequence, expected struct FuzzConfig"));
        assertTrue(error("{\"net\":5}").startsWith("config: invalid type: integer `5`, expected a string"));
        assertTrue(error("{\"net\":\"\",\"seed_count\":-1}").startsWith("config: invalid value: integer `-1`, expected u64"));
        assertTrue(error("{\"net\":\"\",\"seed_count\":18446744073709551616}")
                .startsWith("config: invalid value: integer `18446744073709551616`, expected u64"));
        assertTrue(error("{\"net\":\"\",\"seed_count\":1.5}").startsWith("config: invalid type: floating point `1.5`, expected u64"));
        assertTrue(error("{\"net\":\"\",\"workload\":{\"sends\":4294967296}}")
                .startsWith("config: invalid value: integer `4294967296`, expected u32"));
        assertTrue(error("{\"net\":\"\",\"shrink\":\"yes\"}").startsWith("config: invalid type: string \"yes\", expected a boolean"));
        assertTrue(error("{\"net\":\"\",\"invariants\":\"fifo\"}").startsWith("config: invalid type: string \"fifo\", expected a sequence"));
        assertTrue(error("{\"net\":\"\",\"net\":\"\"}").startsWith("config: duplicate field `net`"));
        assertTrue(error("{\"net\":\"\"} {}").startsWith("config: trailing characters"));
        assertTrue(error("{\"net\":null}").startsWith("config: invalid type: null, expected a string"));
    }

    @Test
    void validationTextsInOrder() {
        assertEquals("config net: unknown network key \"lat3ncy\"", error("{\"net\":\"lat3ncy=1\",\"seed_count\":0}"));
        assertEquals("config: seed_count must be at least 1", error("{\"net\":\"\",\"seed_count\":0,\"jobs\":0}"));
        assertEquals("config: jobs must be at least 1", error("{\"net\":\"\",\"jobs\":0,\"invariants\":[]}"));
        assertEquals("config: at least one invariant is required (fifo, dup)",
                error("{\"net\":\"\",\"invariants\":[],\"workload\":{\"nodes\":1}}"));
        assertEquals("config: unknown invariant \"all\" (known: fifo, dup)",
                error("{\"net\":\"\",\"invariants\":[\"fifo\",\"all\"],\"workload\":{\"nodes\":1}}"));
        assertEquals("config: workload.nodes must be at least 2", error("{\"net\":\"\",\"workload\":{\"nodes\":1}}"));
        assertEquals("config: invariant \"stream\" judges TCP streams and weft fuzz's generated workload is UDP datagrams"
                + " only (judge a TCP target with a campaign's checker \"stream\")",
                error("{\"net\":\"\",\"invariants\":[\"fifo\",\"stream\"]}"));
    }

    @Test
    void workloadsThatCannotFitInMemoryAreRefusedAfterTheSpecifiedChecks() {
        // The reference takes payload_len 100000 (issue 12); ours stops where a reproducer line would pass the line limit.
        assertEquals("config: workload.payload_len must be at most 16777216",
                error("{\"net\":\"\",\"workload\":{\"payload_len\":16777217}}"));
        assertEquals("config: workload too large: up to 4294980181901885 ops (at most 50000000); lower workload.nodes or "
                + "workload.sends", error("{\"net\":\"\",\"workload\":{\"nodes\":4294967295,\"sends\":1000000}}"));
        assertEquals("config: workload.nodes must be at least 2",
                error("{\"net\":\"\",\"workload\":{\"nodes\":1,\"payload_len\":16777217}}"));
    }

    /** Issue 28 item 10: a config whose work is far beyond a machine is refused up front with the estimate. */
    @Test
    void aWorkloadOfGigabytesPerSeedOrAHugeConfigFileIsRefusedUpFront(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        assertEquals("config: workload too large: 100 sends of 16777216 bytes are 1.6 GiB of payload per seed (at most"
                + " 1024 MiB); lower workload.sends or workload.payload_len",
                error("{\"net\":\"\",\"workload\":{\"sends\":100,\"payload_len\":16777216}}"));
        // at the limit it is accepted
        FuzzConfigLoader.parse("{\"net\":\"\",\"workload\":{\"sends\":16,\"payload_len\":16777216}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        java.nio.file.Path big = dir.resolve("big.json");
        try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(big)) {
            w.write("{\"//\":\"");
            char[] k = new char[1024];
            java.util.Arrays.fill(k, 'x');
            for (int i = 0; i < 2048; i++) {
                w.write(k);
            }
            w.write("\",\"net\":\"\"}");
        }
        FuzzConfigException e = org.junit.jupiter.api.Assertions.assertThrows(FuzzConfigException.class,
                () -> FuzzConfigLoader.load(big, "big.json"));
        assertEquals("config big.json: more than 1048576 bytes (1 MiB); a fuzz config is at most that (is this the right"
                + " file?)", e.getMessage());
    }

    @Test
    void aliasesAreAccepted() throws Exception {
        assertEquals(List.of("per-channel-fifo", "no-duplicate-delivery"),
                parse("{\"net\":\"\",\"invariants\":[\"per-channel-fifo\",\"no-duplicate-delivery\"]}").invariants());
    }

    @Test
    void readErrorNamesThePathAsGiven(@TempDir Path dir) {
        String m = assertThrows(FuzzConfigException.class,
                () -> FuzzConfigLoader.load(dir.resolve("missing.json"), "some/missing.json")).getMessage();
        assertEquals("config some/missing.json: No such file or directory (os error 2)", m);
        m = assertThrows(FuzzConfigException.class, () -> FuzzConfigLoader.load(dir, "d")).getMessage();
        assertEquals("config d: Is a directory (os error 21)", m);
    }

    @Test
    void corpusConfigsLoad() throws Exception {
        for (String name : List.of("demo.json", "ci.json", "campaign3000.json")) {
            FuzzConfig c = FuzzConfigLoader.load(Shared.fuzzCorpus().resolve(name), name);
            assertEquals(List.of("fifo", "dup"), c.invariants(), name);
            assertEquals(3, c.workload().nodes(), name);
        }
    }
}
