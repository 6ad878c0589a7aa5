package dev.weft.launcher.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigLoader;
import dev.weft.fuzz.Reproducer;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.launcher.WeftCli;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testcorpus.SharedCorpus;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft diff} against expectations derived without the diff code: the record lines of both files compared as
 * text, each with its {@code "chain"} member cut off (the reference writes records in canonical form, so what is
 * left is the canonical record). Pairs come from the corpus sidecars (same header seed, same {@code weft run}
 * arguments apart from the output path), an edited copy, and a fuzz failure against each of its shrunk reproducers.
 */
class DiffCorpusTest {

    @TempDir
    Path dir;

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    /** The record lines without their chain member, read as plain text (gzip-aware). */
    private static List<String> canonicalLines(Path log) throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(log);
             InputStream in = log.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            r.readLine(); // header
            for (String line; (line = r.readLine()) != null; ) {
                int chain = line.lastIndexOf(",\"chain\":\"");
                assertTrue(chain > 0 && line.endsWith("\"}"), log + ": record without a trailing chain: " + line);
                out.add(line.substring(0, chain) + "}");
            }
        }
        return out;
    }

    /** Asserts what {@code weft diff a b} prints about the first divergence, from a line-by-line comparison. */
    private static void assertFirstDivergence(Path a, Path b) throws IOException {
        List<String> la = canonicalLines(a);
        List<String> lb = canonicalLines(b);
        int k = 0;
        while (k < la.size() && k < lb.size() && la.get(k).equals(lb.get(k))) {
            k++;
        }
        CapturedRun r = weft("diff", a.toString(), b.toString());
        String pair = a.getFileName() + " vs " + b.getFileName() + "\n" + r.out() + r.err();
        assertTrue(r.out().contains(String.format("ops%21d %12d%n", la.size(), lb.size())), pair);
        if (k == la.size() && k == lb.size()) {
            assertEquals(0, r.code(), pair);
            assertTrue(r.out().contains("recordings identical: " + la.size() + " op(s)\n"), pair);
            return;
        }
        assertEquals(2, r.code(), pair);
        assertTrue(r.out().contains("first divergence at op " + k + " "), pair);
        assertTrue(r.out().contains("\n  A: " + (k < la.size() ? la.get(k) : "(recording ended)") + "\n"
                + "  B: " + (k < lb.size() ? lb.get(k) : "(recording ended)") + "\n"), pair);
    }

    @Test
    void everyCorpusPairWithTheSameSeedAndCommandShowsItsFirstDivergence() throws IOException {
        Map<String, List<Path>> groups = new TreeMap<>();
        for (Path sidecar : SharedCorpus.sidecars()) {
            JsonNode d = SharedCorpus.readJson(sidecar);
            JsonNode argv = d.path("produced_by").path("argv");
            JsonNode seed = d.path("facts").path("header").path("seed");
            if (!argv.isArray() || seed.isMissingNode()) {
                continue;
            }
            List<String> command = new ArrayList<>();
            for (int i = 0; i < argv.size(); i++) {
                if (argv.get(i).asText().equals("--record")) {
                    i++; // the output path: two runs of one command record to two places
                } else {
                    command.add(argv.get(i).asText());
                }
            }
            groups.computeIfAbsent(seed.asText() + " " + command, g -> new ArrayList<>())
                    .add(SharedCorpus.conformance().resolve(d.get("log").asText()));
        }
        int pairs = 0;
        for (List<Path> group : groups.values()) {
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    assertFirstDivergence(group.get(i), group.get(j));
                    pairs++;
                }
            }
        }
        // 3+3 Chord fix levels per seed, 1 windowed pair, 2 Raft pairs, plain vs gzip pingpong (today's corpus).
        assertTrue(pairs >= 10, "pairs found: " + pairs);
    }

    @Test
    void aCopyWithOneEditedRecordDivergesAtThatOp() throws Exception {
        Path original = SharedCorpus.conformance().resolve("raft/raft-fix0-s0.weftlog");
        Path edited = dir.resolve("edited.weftlog");
        long editedOp = -1;
        // Rewritten through the writer so the integrity chain stays valid: only the content differs.
        try (LogReader r = LogReader.open(original)) {
            LogHeader h = r.header();
            try (LogWriter w = LogWriter.create(edited, h.seed(), h.net(), h.windowNs(), h.meta())) {
                for (LogRecord rec; (rec = r.next()) != null; ) {
                    Event e = rec.event();
                    if (editedOp < 0 && rec.op() >= 1000 && e instanceof Event.Send s) {
                        String flipped = (s.payload().charAt(0) == '0' ? "1" : "0") + s.payload().substring(1);
                        e = new Event.Send(s.conn(), s.src(), s.dst(), s.chanSeq(), s.sendVt(), flipped, s.outcome());
                        editedOp = rec.op();
                    }
                    w.append(rec.vt(), e);
                }
            }
        }
        assertTrue(editedOp >= 1000);
        assertFirstDivergence(original, edited);
        CapturedRun r = weft("diff", original.toString(), edited.toString());
        assertTrue(r.out().contains("first divergence at op " + editedOp + " "), r.out());
        // The same content at every vt but one: aligned by vt it is the edited record's vt that differs.
        CapturedRun byVt = weft("diff", "--by", "vt", original.toString(), edited.toString());
        assertEquals(2, byVt.code(), byVt.out());
        assertTrue(byVt.out().contains(", B op " + editedOp + ")"), byVt.out());
    }

    @Test
    void aFuzzFailureAgainstEachOfItsShrunkReproducers() throws Exception {
        Path fuzz = SharedCorpus.conformance().resolve("fuzz");
        FuzzConfig config = FuzzConfigLoader.load(fuzz.resolve("demo.json"), "demo.json");
        Path failure = dir.resolve("seed0-unshrunk.weftlog");
        // The failing run the reproducers were shrunk from: the config's whole workload at the first seed.
        Reproducer.record(failure, config.seedStart(), config.net(), WorkloadGenerator.generate(config.workload()),
                config.invariants(), "seed 0 unshrunk");
        int repros = 0;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(fuzz.resolve("demo-out"), "repro-*.weftlog")) {
            for (Path repro : s) {
                assertFirstDivergence(failure, repro);
                repros++;
            }
        }
        assertEquals(6, repros);
    }

    @Test
    void aRecordingAgainstItselfIsIdenticalAndBadInputIsAnErrorNamingTheFile() {
        Path log = SharedCorpus.conformance().resolve("raft/raft-fix1-s1.weftlog");
        CapturedRun same = weft("diff", log.toString(), log.toString());
        assertEquals(0, same.code(), same.err());
        assertTrue(same.out().contains("violations"), same.out());
        Path bad = SharedCorpus.conformance().resolve("negative/neg-payload-edit-chainbreak-op999.weftlog");
        CapturedRun broken = weft("diff", log.toString(), bad.toString());
        assertEquals(1, broken.code());
        assertTrue(broken.err().startsWith("weft diff: " + bad + ": "), broken.err());
        assertFalse(broken.err().contains("Exception"), broken.err());
        CapturedRun usage = weft("diff", log.toString());
        assertEquals(1, usage.code());
        assertTrue(usage.err().contains("two recordings are needed"), usage.err());
    }
}
