package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryCollectorTest {

    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    private final List<String> echoed = new ArrayList<>();

    private NodeProcess.LineSink echo() {
        return (stderr, line, length) -> echoed.add((stderr ? "err " : "out ") + new String(line, 0, length,
                StandardCharsets.UTF_8));
    }

    private static void print(NodeProcess.LineSink sink, boolean stderr, String line) {
        byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
        sink.line(stderr, b, b.length);
    }

    @Test
    void linesAreStampedWithTheirNodeAndOrderedByVirtualTimeThenNodeThenPrintOrder(@TempDir Path dir) throws Exception {
        HistoryCollector c = HistoryCollector.of(dir.resolve("run.weftlog"), err);
        NodeProcess.LineSink n0 = c.tap(0, echo());
        NodeProcess.LineSink n1 = c.tap(1, echo());
        // node 1's lines arrive first, as a pipe may deliver them; the file's order is the virtual time's
        print(n1, false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":20}");
        print(n1, false, "WEFT-HISTORY {\"time\":30,\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"value\":null}");
        print(n0, false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"write\",\"value\":1,\"time\":20}");
        print(n0, false, "hello");
        print(n0, true, "WEFT-HISTORY on stderr is just output");
        print(n0, false, "WEFT-HISTORY {\"process\":0,\"type\":\"ok\",\"f\":\"write\",\"time\":20}");
        c.write(true);
        assertEquals("{\"node\":0,\"process\":0,\"type\":\"invoke\",\"f\":\"write\",\"value\":1,\"time\":20}\n"
                + "{\"node\":0,\"process\":0,\"type\":\"ok\",\"f\":\"write\",\"time\":20}\n"
                + "{\"node\":1,\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":20}\n"
                + "{\"node\":1,\"process\":0,\"type\":\"ok\",\"f\":\"read\",\"time\":30}\n",
                Files.readString(dir.resolve("run.history.jsonl")));
        assertEquals(List.of("out hello\n", "err WEFT-HISTORY on stderr is just output\n"), echoed);
        assertEquals("history: 4 event(s) from node(s) 0,1 to " + dir.resolve("run.history.jsonl")
                + " (check: weft check history " + dir.resolve("run.history.jsonl") + " --model M)\n",
                errBytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aPlainRunsHistoryFromSeveralNodesSaysItsTimesDoNotCompare(@TempDir Path dir) {
        HistoryCollector c = HistoryCollector.of(dir.resolve("run.weftlog.gz"), err);
        print(c.tap(0, echo()), false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}");
        print(c.tap(1, echo()), false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}");
        c.write(false);
        assertEquals(true, Files.isRegularFile(dir.resolve("run.history.jsonl")));
        assertEquals(true, errBytes.toString(StandardCharsets.UTF_8).contains("weft run: note: a plain run's nodes keep"
                + " their own virtual clocks"));
    }

    @Test
    void aBadLineIsNamedAndLeftOut(@TempDir Path dir) throws Exception {
        HistoryCollector c = HistoryCollector.of(dir.resolve("run.weftlog"), err);
        NodeProcess.LineSink n2 = c.tap(2, echo());
        print(n2, false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\"}");
        print(n2, false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":5}");
        c.write(true);
        assertEquals("weft run: node 2: history line 1 ignored: missing \"time\" (the virtual time of the event in ns):"
                + " {\"process\":0,\"type\":\"invoke\",\"f\":\"read\"}",
                errBytes.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
        assertEquals("{\"node\":2,\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":5}\n",
                Files.readString(dir.resolve("run.history.jsonl")));
    }

    @Test
    void aRunWithoutHistoryLinesRemovesTheEarlierRunsHistoryAndADiscardedRunKeepsNone(@TempDir Path dir)
            throws Exception {
        Path stale = Files.writeString(dir.resolve("run.history.jsonl"), "old\n");
        HistoryCollector.of(dir.resolve("run.weftlog"), err).write(false);
        assertFalse(Files.exists(stale));
        HistoryCollector d = HistoryCollector.of(dir.resolve("run.weftlog"), err);
        print(d.tap(0, echo()), false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}");
        d.discard();
        assertFalse(Files.exists(stale));
    }

    @Test
    void withoutARecordingEveryLineIsEchoed() {
        HistoryCollector c = HistoryCollector.of(null, err);
        print(c.tap(0, echo()), false, "WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"time\":1}");
        c.write(false);
        assertEquals(1, echoed.size());
    }
}
