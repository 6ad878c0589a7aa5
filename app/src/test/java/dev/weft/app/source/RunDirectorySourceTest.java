package dev.weft.app.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.timeline.Lane;
import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A SimFerret run directory opens as a timeline: a lane per guest process, the kill marked, assertions as invariants. */
class RunDirectorySourceTest {

    @TempDir
    Path dir;

    private void writeRun(boolean livenessHolds) throws Exception {
        Files.writeString(dir.resolve("manifest.json"),
                "{\"format\":\"simferret-run/1\",\"run_id\":\"sf-5-abc\",\"identity\":{\"seed\":\"5\"}}\n");
        Files.writeString(dir.resolve("events.jsonl"), String.join("\n",
                "{\"n\":0,\"p\":\"agent\",\"e\":\"boot\",\"seed\":5}",
                "{\"n\":1,\"p\":\"server\",\"e\":\"listen\",\"gen\":1,\"port\":7000}",
                "{\"n\":2,\"p\":\"client\",\"e\":\"req\",\"id\":\"r0000\",\"attempt\":1,\"payload\":\"aa\"}",
                "{\"n\":3,\"p\":\"server\",\"e\":\"echo\",\"gen\":1,\"id\":\"r0000\"}",
                "{\"n\":4,\"p\":\"client\",\"e\":\"resp\",\"id\":\"r0000\",\"attempt\":1,\"echo_id\":\"r0000\",\"got\":\"aa\"}",
                "{\"n\":5,\"p\":\"agent\",\"e\":\"kill\",\"target\":\"server\",\"gen\":1,\"signal\":9}",
                "{\"n\":6,\"p\":\"client\",\"e\":\"req\",\"id\":\"r0001\",\"attempt\":1,\"payload\":\"bb\"}",
                "{\"n\":7,\"p\":\"client\",\"e\":\"error\",\"id\":\"r0001\",\"attempt\":1,\"err\":\"ECONNREFUSED\"}",
                "{\"n\":8,\"p\":\"server\",\"e\":\"listen\",\"gen\":2,\"port\":7000}",
                "{\"n\":9,\"p\":\"checker\",\"e\":\"verdict\",\"ok\":true,\"checked\":2,\"mismatches\":0}",
                "{\"n\":10,\"p\":\"agent\",\"e\":\"end\"}") + "\n");
        Files.writeString(dir.resolve("assertions.json"), "{\"passed\":" + livenessHolds + ",\"assertions\":["
                + "{\"name\":\"every-response-matches-request\",\"ok\":true,\"detail\":\"1 responses\"},"
                + "{\"name\":\"progress-resumes-after-failure\",\"ok\":" + livenessHolds + ",\"detail\":\"0 response(s) after the restart\"}]}\n");
        Files.writeString(dir.resolve("outcome.digest"), "sha256:0123456789abcdef0123\n");
    }

    @Test
    void eachGuestProcessGetsANamedLaneAndTheKillIsMarked() throws Exception {
        writeRun(true);
        assertTrue(RunDirectorySource.isRunDirectory(dir));
        try (RecordingSource s = RunDirectorySource.open(dir, Progress.NONE)) {
            assertEquals(11, s.size());
            TimelineModel t = s.timeline();
            assertEquals(List.of("agent", "server gen 1", "server gen 2", "client", "checker", "run"),
                    t.lanes().stream().map(Lane::label).toList());
            assertEquals(MarkKind.VIOLATION, t.kind(5));
            assertEquals(5, t.violationOps()[0]);
            assertEquals(3, t.partner(2), "the request is drawn to the server's echo");
            assertEquals(MarkKind.SEND_NO_RECEIVER, t.kind(7));
            assertEquals(2, t.lane(8), "the restarted server has its own lane");
            assertEquals("client req id=r0000 attempt=1 payload=aa", s.eventLine(2));
            assertEquals("{\"n\":5,\"p\":\"agent\",\"e\":\"kill\",\"target\":\"server\",\"gen\":1,\"signal\":9}", s.canonicalJson(5));
            assertEquals(List.of("every-response-matches-request", "progress-resumes-after-failure"), s.availableInvariants());
            assertTrue(s.check(Set.copyOf(s.availableInvariants()), Progress.NONE).isEmpty());
        }
    }

    @Test
    void failedAssertionsAreTheInvariantViolations() throws Exception {
        writeRun(false);
        try (RecordingSource s = RunDirectorySource.open(dir, Progress.NONE)) {
            List<ViolationInfo> v = s.check(Set.copyOf(s.availableInvariants()), Progress.NONE);
            assertEquals(List.of(new ViolationInfo("progress-resumes-after-failure", 10, 10, "0 response(s) after the restart")), v);
        }
    }

    @Test
    void aPlainFileIsNotARunDirectory() throws Exception {
        Path f = Files.writeString(dir.resolve("x.weftlog"), "{}\n");
        assertFalse(RunDirectorySource.isRunDirectory(f));
        assertFalse(RunDirectorySource.isRunDirectory(dir));
    }
}
