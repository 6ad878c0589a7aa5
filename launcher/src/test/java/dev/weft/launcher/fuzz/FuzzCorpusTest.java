package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every fuzz case of the corpus (conformance/fuzz/*.run.json): the same command gives the reference's exit
 * code and report (modulo the duration and, since the reference ran with several jobs, the racy {@code what}
 * text), the same output listing, and reproducers byte-identical to the reference's.
 */
class FuzzCorpusTest {

    @TempDir
    Path work;

    static Stream<Arguments> cases() throws Exception {
        Path corpus = CommandRun.sharedDir().resolve("conformance").resolve("fuzz");
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(corpus)) {
            for (Path p : s.sorted().toList()) {
                if (p.getFileName().toString().endsWith(".run.json")) out.add(Arguments.of(p.getFileName().toString()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void sameVerdictsReportsAndReproducers(String runFile) throws Exception {
        Path corpus = CommandRun.sharedDir().resolve("conformance");
        JsonNode run = new ObjectMapper().readTree(corpus.resolve("fuzz").resolve(runFile).toFile());
        List<String> argv = new ArrayList<>();
        run.get("argv").forEach(a -> argv.add(a.asText()));
        assertEquals(List.of("weft", "fuzz"), argv.subList(0, 2));
        // Recreate the reference's relative layout: the config at fuzz/<name>, outputs under fuzz/<x>-out.
        Files.createDirectories(work.resolve("fuzz"));
        for (int i = 2; i < argv.size() - 1; i++) {
            if (argv.get(i).equals("--config")) {
                Files.copy(corpus.resolve(argv.get(i + 1)), work.resolve(argv.get(i + 1)));
            }
        }
        CommandRun r = CommandRun.of(work, argv.subList(2, argv.size()).toArray(new String[0]));
        assertEquals(run.get("exit_code").asInt(), r.exit(), r.err());
        assertEquals(comparable(run.get("stdout").asText()), comparable(r.out()));

        String outDir = argv.get(argv.indexOf("--out") + 1);
        List<String> listing = new ArrayList<>();
        run.get("out_dir_listing").forEach(n -> listing.add(n.asText()));
        List<String> ours;
        try (Stream<Path> s = Files.list(work.resolve(outDir))) {
            ours = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(listing, ours);
        for (String name : listing) {
            if (name.equals("report.txt")) continue;
            assertEquals(-1L, Files.mismatch(corpus.resolve(outDir).resolve(name), work.resolve(outDir).resolve(name)), name);
        }
    }

    /** The report without the duration and without the what lines (racy in the reference with several jobs). */
    private static String comparable(String report) {
        return CommandRun.withoutDuration(report).replaceAll("(?m)^    what   : .*\n", "");
    }
}
