package dev.weft.app.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Shrink form: its weft shrink arguments, its problems field by field, and a used output folder refused. */
class ShrinkRequestTest {

    @Test
    void theFormBecomesWeftShrinksArguments() {
        ShrinkRequest r = new ShrinkRequest(" c.json ", "0x1F", " A=1   B=two ", "", "out dir");
        assertEquals(List.of("shrink", "--config", "c.json", "--seed", "0x1F", "--cell", "A=1", "--cell", "B=two", "--out", "out dir"),
                r.args());
        assertEquals("weft shrink --config c.json --seed 0x1F --cell A=1 --cell B=two --out 'out dir'", r.commandLine());
        assertEquals(Path.of("out dir", "minimal.weftlog"), r.minimalLog());
    }

    @Test
    void eachProblemIsNamedForItsField(@TempDir Path dir) throws Exception {
        Path cfg = Files.writeString(dir.resolve("c.json"), "{}");
        assertEquals(Map.of(), new ShrinkRequest(cfg.toString(), "3", "K=V", "2", dir.resolve("new").toString()).problems());
        Map<ShrinkRequest.Field, String> p = new ShrinkRequest(dir.resolve("none.json").toString(), "-1", "K", "0", "").problems();
        assertEquals(List.of(ShrinkRequest.Field.CONFIG, ShrinkRequest.Field.SEED, ShrinkRequest.Field.CELLS,
                ShrinkRequest.Field.JOBS, ShrinkRequest.Field.OUT), List.copyOf(p.keySet()));
        assertEquals(dir.resolve("none.json") + ": no such file", p.get(ShrinkRequest.Field.CONFIG));
        assertEquals("\"K\" is not KEY=VALUE", p.get(ShrinkRequest.Field.CELLS));
    }

    @Test
    void aFolderHoldingAShrinksFilesIsRefusedNotOverwritten(@TempDir Path dir) throws Exception {
        Path cfg = Files.writeString(dir.resolve("c.json"), "{}");
        Files.createDirectories(dir.resolve("out"));
        assertEquals(Map.of(), new ShrinkRequest(cfg.toString(), "3", "", "", dir.resolve("out").toString()).problems(),
                "an empty folder is fine");
        Files.writeString(dir.resolve("out").resolve("report.txt"), "mine");
        String why = new ShrinkRequest(cfg.toString(), "3", "", "", dir.resolve("out").toString()).problems().get(ShrinkRequest.Field.OUT);
        assertTrue(why.startsWith(dir.resolve("out").resolve("report.txt") + " exists"), why);
    }

    @Test
    void progressLinesAreParsedAndOthersAreNot() {
        var m = ShrinkSession.PROGRESS.matcher("shrink: run 12, 3 deviation(s) of 41");
        assertTrue(m.matches());
        assertEquals(List.of("12", "3", "41"), List.of(m.group(1), m.group(2), m.group(3)));
        assertTrue(!ShrinkSession.PROGRESS.matcher("shrink: 3 deviations").matches());
    }
}
