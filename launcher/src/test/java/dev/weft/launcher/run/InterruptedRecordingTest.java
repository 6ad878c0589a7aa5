package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftMain;
import dev.weft.launcher.support.ChildJvm;
import dev.weft.log.LogReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 7: a recorded run interrupted (SIGINT) at any moment leaves no file or a valid prefix, and its last
 * words say which. Interrupts land from the JVM's first instants to after the nodes started; about 10 s.
 */
class InterruptedRecordingTest {
    @TempDir
    Path dir;

    private static final Pattern HOLDS = Pattern.compile("holds the header and (\\d+) record\\(s\\), a valid prefix");

    @Test
    void anInterruptAtAnyMomentSaysWhatTheRecordingHolds() throws Exception {
        NativeFixture.assumeBuilt();
        for (int delayMs : new int[] {100, 200, 250, 300, 350, 400, 450, 500, 600, 800, 1200}) {
            Path log = dir.resolve("i" + delayMs + ".weftlog");
            Path errFile = dir.resolve("i" + delayMs + ".err");
            Process weft = ChildJvm.builder(dir, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"), WeftMain.class,
                    "run", "--shim", NativeFixture.shim().toString(), "--seed", "1", "--net", "", "--nodes", "2",
                    "--record", log.toString(), "--", "sh", "-c", "while :; do :; done")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errFile.toFile()).start();
            try {
                Thread.sleep(delayMs);
                new ProcessBuilder("kill", "-INT", Long.toString(weft.pid())).start().waitFor();
                assertTrue(weft.waitFor(30, TimeUnit.SECONDS), "weft run did not stop");
            } finally {
                weft.descendants().forEach(ProcessHandle::destroyForcibly);
                weft.destroyForcibly();
            }
            String err = Files.readString(errFile);
            assertFalse(err.contains("Exception") || err.contains("\tat "), err);
            String[] lines = err.strip().split("\n");
            String last = lines[lines.length - 1];
            if (!Files.exists(log)) {
                // only possible before the log was begun, and then it says so (or the JVM had not yet run our code)
                assertTrue(err.isEmpty() || last.contains("no recording written"), delayMs + " ms: " + err);
                continue;
            }
            long records;
            try (LogReader r = LogReader.open(log)) {
                records = r.verifyAll();
            }
            Matcher m = HOLDS.matcher(last);
            if (m.find()) {
                assertEquals(Long.parseLong(m.group(1)), records, delayMs + " ms: " + err);
            } else {
                assertEquals("recorded to " + log + " (verify: weft replay " + log + ")", last, delayMs + " ms: " + err);
            }
            try (java.util.stream.Stream<Path> left = Files.list(dir)) {
                assertEquals(0, left.filter(p -> p.getFileName().toString().endsWith(".weft-tmp")).count(),
                        "no temporary file left");
            }
        }
    }
}
