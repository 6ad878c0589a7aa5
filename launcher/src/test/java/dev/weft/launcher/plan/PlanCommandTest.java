package dev.weft.launcher.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCommand;
import dev.weft.testcorpus.OwnCorpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code weft plan LOG} on recorded pingpong and Chord runs: a plan document, the same bytes every time. */
class PlanCommandTest {

    private record Out(int exit, String stdout, String stderr) {
    }

    private static Out plan(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = WeftCommand.PLAN.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Out(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void printsEveryDeviationOfAPingpongRecordingInOrder() {
        String log = OwnCorpus.dir().resolve("pingpong/pp-uniform1000-50000-s2.weftlog").toString();
        Out o = plan(log);
        assertEquals(0, o.exit(), o.stderr());
        String[] lines = o.stdout().split("\n");
        assertEquals("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"latency=uniform:1000-50000\",\"datagrams\":[",
                lines[0]);
        assertEquals("]}", lines[lines.length - 1]);
        assertTrue(lines.length > 3, o.stdout());
        // Sorted by sender: node 0 (127.0.0.1) first.
        assertTrue(lines[1].startsWith("{\"src\":\"127.0.0.1:"), lines[1]);
        assertEquals(o.stdout(), plan(log).stdout(), "deterministic");
    }

    @Test
    void aChordRecordingToo() {
        Out o = plan(OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog").toString());
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stdout().split("\n").length > 100, "a Chord run has many late datagrams");
    }

    @Test
    void anUnreadableLogIsOneLine() {
        Out o = plan("/definitely/missing.weftlog");
        assertEquals(1, o.exit());
        assertTrue(o.stderr().startsWith("weft plan: /definitely/missing.weftlog: "), o.stderr());
        assertEquals(1, o.stderr().split("\n").length, o.stderr());
    }
}
