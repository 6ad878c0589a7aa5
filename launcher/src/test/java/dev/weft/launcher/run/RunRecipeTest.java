package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LOG.run.json: how a recording was made, for the workbench's What if? re-run. */
class RunRecipeTest {

    @Test
    void theRecordingAndPlanOptionsAreLeftOutButTheProgramsOwnWordsAreKept() {
        assertEquals(List.of("--seed", "3", "--net", "latency=uniform:1000-60000", "--window", "1000", "--stats", "--nodes", "2",
                        "--", "prog", "--record", "x", "--plan", "y"),
                RunRecipe.withoutOutputs(new String[] {"--seed", "3", "--record", "a.weftlog", "--net", "latency=uniform:1000-60000",
                        "--plan=p.json", "--window", "1000", "--stats", "--plan", "q.json", "--nodes", "2", "--record=b",
                        "--", "prog", "--record", "x", "--plan", "y"}));
        // without "--": the program starts at the first word that is no option's value
        assertEquals(List.of("--seed", "3", "--trace", "prog", "--record", "x"),
                RunRecipe.withoutOutputs(new String[] {"--seed", "3", "--trace", "--record", "r", "prog", "--record", "x"}));
    }

    @Test
    void aRecipeReadsBackAsWritten(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.weftlog");
        assertNull(RunRecipe.readBeside(log), "none beside a recording made otherwise");
        RunRecipe r = new RunRecipe(Path.of("/home/u/a \"b\""), List.of("--env", "X=1 2", "--", "./prog", "é"), "/usr/bin:/bin");
        r.writeBeside(log);
        assertEquals(dir.resolve("run.weftlog.run.json"), RunRecipe.of(log));
        assertEquals("{\"format\":\"weft-run\",\"version\":1,\"cwd\":\"/home/u/a \\\"b\\\"\",\"args\":[\"--env\",\"X=1 2\",\"--\",\"./prog\",\"é\"],\"path\":\"/usr/bin:/bin\"}\n",
                Files.readString(RunRecipe.of(log)));
        assertEquals(r, RunRecipe.readBeside(log));
        new RunRecipe(Path.of("/"), List.of("--", "true"), null).writeBeside(log);
        assertEquals(new RunRecipe(Path.of("/"), List.of("--", "true"), null), RunRecipe.readBeside(log), "path may be absent");
    }

    @Test
    void aBrokenRecipeIsOneLineNamingTheFile(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.weftlog");
        Files.writeString(RunRecipe.of(log), "{\"format\":\"weft-run\",\"version\":1,\"cwd\":\"/\",\"argv\":[]}");
        RunRecipe.Problem p = assertThrows(RunRecipe.Problem.class, () -> RunRecipe.readBeside(log));
        assertEquals(RunRecipe.of(log) + ": member argv: unknown (format 1 has format, version, cwd, args, path)", p.getMessage());
        Files.writeString(RunRecipe.of(log), "{\"format\":\"weft-run\",\"version\":1,");
        p = assertThrows(RunRecipe.Problem.class, () -> RunRecipe.readBeside(log));
        assertTrue(p.getMessage().startsWith(RunRecipe.of(log) + ": not JSON: "), p.getMessage());
    }
}
