package dev.weft.launcher.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCommand;
import dev.weft.launcher.check.CorpusCheckersTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryCheckCommandTest {

    private static final String STALE = """
            {"process":0,"type":"invoke","f":"write","value":3,"time":1200}
            {"process":0,"type":"ok","f":"write","time":1500}
            {"process":1,"type":"invoke","f":"read","time":1600}
            {"process":1,"type":"ok","f":"read","value":null,"time":1700}
            """;

    private static Run check(String... args) {
        return CorpusCheckersTest.run(WeftCommand.CHECK::run, args);
    }

    @Test
    void aViolationExitsTwoWithTheSubHistoryInWords(@TempDir Path dir) throws Exception {
        Path h = Files.writeString(dir.resolve("h.jsonl"), STALE);
        Run r = check("history", h.toString(), "--model", "register");
        assertEquals(2, r.exit(), r.stdout() + r.stderr());
        assertEquals("history   : " + h + " (4 events: 2 ok, 0 indeterminate, 0 failed)\n"
                + "model     : register (1 object)\n"
                + "verdict   : VIOLATION — 1 object not linearizable\n"
                + "  ✗ the object: write 3 acknowledged at t=1500 ns, then a read invoked at t=1600 ns returned null"
                + " (not linearizable)\n"
                + "    smallest inconsistent sub-history found (2 of 2 operations), in invocation order:\n"
                + "      process 0  write 3  invoked t=1200 ns, acknowledged t=1500 ns  (lines 1–2)\n"
                + "      process 1  read → null  invoked t=1600 ns, returned t=1700 ns  (lines 3–4)\n", r.stdout());
        assertEquals("", r.stderr());
    }

    @Test
    void aLinearizableHistoryExitsZero(@TempDir Path dir) throws Exception {
        Path h = Files.writeString(dir.resolve("h.jsonl"), STALE.replace("\"value\":null", "\"value\":3"));
        Run r = check("history", h.toString(), "--model=cas-register");
        assertEquals(0, r.exit(), r.stdout() + r.stderr());
        assertTrue(r.stdout().endsWith("verdict   : OK — linearizable\n"), r.stdout());
    }

    @Test
    void badInputIsOneLineAndExitOne(@TempDir Path dir) throws Exception {
        Path h = Files.writeString(dir.resolve("h.jsonl"), STALE + "{\"process\":2,\"type\":\"ok\"}\n");
        Run r = check("history", h.toString(), "--model", "register");
        assertEquals(new Run(1, "", "weft check history: " + h + ":5: missing \"f\"\n"), r);
        assertEquals(new Run(1, "", "weft check history: unknown model queue (one of register|cas-register|kv|set"
                + "|list-append)\n"), check("history", h.toString(), "--model", "queue"));
        assertEquals(new Run(1, "", "usage: weft check history <history.jsonl> --model register|cas-register|kv|set"
                + "|list-append\n"), check("history", h.toString()));
        Run missing = check("history", dir.resolve("none.jsonl").toString(), "--model", "kv");
        assertEquals(1, missing.exit());
        assertTrue(missing.stderr().startsWith("weft check history: " + dir.resolve("none.jsonl") + ": cannot read: "),
                missing.stderr());
        assertEquals(1, missing.stderr().split("\n").length);
    }

    @Test
    void helpNamesEveryModel() {
        Run r = check("history", "--help");
        assertEquals(0, r.exit());
        assertTrue(r.stdout().startsWith("Usage: weft check history <HISTORY> --model <M>\n"), r.stdout());
        assertTrue(r.stdout().contains("register | cas-register | kv | set | list-append"), r.stdout());
    }
}
