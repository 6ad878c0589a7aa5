package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The end-to-end vector of fuzz.md §11 through the library (the command-level test lives in the launcher). */
class FuzzVectorTest {

    static final String CONFIG = "{\"net\":\"latency=uniform:0-8000,loss=0.02\",\"invariants\":[\"fifo\",\"dup\"],"
            + "\"workload\":{\"nodes\":3,\"sends\":30}}";

    static FuzzConfig vectorConfig(long jobs) throws FuzzConfigException {
        return FuzzConfigLoader.parse(CONFIG.getBytes(StandardCharsets.UTF_8)).withSeeds(0, 20).withJobs(jobs).withOutDir("OUT");
    }

    private static final FuzzRun.Recorder NO_FILES = (path, seed, net, ops, invariants, label) -> { };

    @Test
    void reportMatchesTheSpecModuloDuration() throws Exception {
        FuzzOutcome o = FuzzRun.run(vectorConfig(1), Path.of("unused"), FuzzRun.Progress.NONE, NO_FILES);
        String expected = Shared.vector11Blocks().get(0);
        assertEquals(Shared.withoutDuration(expected), Shared.withoutDuration(FuzzReport.render(o)));
        assertEquals(2, o.exitCode());
    }

    @Test
    void reportIsTheSameWithFourJobs() throws Exception {
        String one = FuzzReport.render(FuzzRun.run(vectorConfig(1), Path.of("unused"), FuzzRun.Progress.NONE, NO_FILES));
        String four = FuzzReport.render(FuzzRun.run(vectorConfig(4), Path.of("unused"), FuzzRun.Progress.NONE, NO_FILES));
        assertEquals(Shared.withoutDuration(one), Shared.withoutDuration(four));
    }

    @Test
    void regressionSeedsComeFirstAndGiveTheWhatText() throws Exception {
        FuzzConfig c = vectorConfig(1).withSeeds(0, 3).withShrink(false).withMoreRegressionSeeds(List.of(1L, 0L));
        FuzzOutcome o = FuzzRun.run(c, Path.of("unused"), FuzzRun.Progress.NONE, NO_FILES);
        assertEquals(5, o.sweep().tested());
        assertEquals(5, o.sweep().failed());
        FuzzOutcome.Found first = o.found().get(0);
        assertEquals(3, first.finding().seeds().size());
        assertEquals(0L, first.finding().smallestSeed());
        assertEquals(138, first.shrink().after());
        assertEquals(0, first.shrink().executions());
        // the what text comes from seed 1 (queued first), not from seed 0
        String fromSeed1 = Sweep.firstMessages(Executor.execute(1, dev.weft.net.NetSpec.parse(c.net()),
                WorkloadGenerator.generate(c.workload()), c.invariants()).violations()).get(first.finding().key());
        assertEquals(fromSeed1, first.finding().what());
    }
}
