package dev.weft.launcher.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.launcher.WeftCli;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testcorpus.OwnCorpus;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft replay --follow corpusLog()}: replays a recording while it is written, with the usual output once it ends. */
class ReplayFollowTest {

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    /** A multi-node Chord recording of our own corpus (always present), plain text so it can be written in pieces. */
    private static Path corpusLog() {
        return OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog");
    }

    @Test
    void followReplaysWhileTheLogIsWrittenAndPrintsWhatAPlainReplayPrints(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        Path live = dir.resolve("live.weftlog");
        Files.write(live, Arrays.copyOf(log, 1000)); // the header and a few records, the last one half written
        Thread writer = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(live, StandardOpenOption.APPEND)) {
                for (int at = 1000; at < log.length; at += 50_000) {
                    Thread.sleep(20);
                    out.write(log, at, Math.min(50_000, log.length - at));
                    out.flush();
                }
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        writer.start();
        CapturedRun followed = weft("replay", "--follow", live.toString());
        writer.join();
        CapturedRun plain = weft("replay", corpusLog().toString());
        assertEquals(0, followed.code(), followed.err());
        assertEquals(plain.out(), followed.out());
        assertEquals("", followed.err());
    }

    @Test
    void aRecordingWhoseWriterStopsWithoutEndIsReportedTruncated(@TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(corpusLog());
        int cut = 0;
        for (int lines = 0; lines < 101; cut++) {
            if (log[cut] == '\n') lines++;
        }
        Path live = dir.resolve("stopped.weftlog");
        Files.write(live, Arrays.copyOf(log, cut)); // header and 100 complete records, no end
        CapturedRun r = weft("replay", "--follow", "--idle-timeout", "1", live.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(true, r.out().startsWith("replay identical: 100 op(s), stream digest "), r.out());
        assertEquals("weft replay: note: " + live + ": the recording is truncated (its writer stopped without an end record)\n",
                r.err());
    }

    @Test
    void idleTimeoutNeedsFollow() {
        assertEquals("weft replay: --idle-timeout needs --follow\n", weft("replay", "x", "--idle-timeout", "3").err());
        assertEquals("weft replay: --idle-timeout \"x\": not seconds\n", weft("replay", "x", "--follow", "--idle-timeout", "x").err());
    }
}
