package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogReader;
import dev.weft.log.LogWriter;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.testcorpus.OwnCorpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The plan a recording followed replays it exactly: same outcomes, same digest, through its own document. */
class PlanExtractorTest {

    private static FaultPlan extract(Path log) throws Exception {
        try (LogReader reader = LogReader.open(log)) {
            return PlanExtractor.extract(reader);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"pingpong/pp-uniform1000-50000-s2.weftlog", "pingpong/pp-window1000-s1.weftlog",
            "chord/chord-fix0-s3-violation.weftlog"})
    void theExtractedPlanReplaysTheRecordingByteForByte(String name) throws Exception {
        Path log = OwnCorpus.dir().resolve(name);
        FaultPlan plan = extract(log);
        assertFalse(plan.deviations().isEmpty(), "a seeded run deviates from the baseline somewhere");
        // Through the document, as `weft plan LOG > p.json` hands it on.
        FaultPlan reread = FaultPlanJson.parse(FaultPlanJson.write(plan).getBytes(StandardCharsets.UTF_8));
        ReplayReport seeded = Replayer.replay(log, ReplayOptions.PLAIN);
        ReplayReport planned = Replayer.replay(log, ReplayOptions.PLAIN.withFates(reread));
        assertNull(planned.divergence(), () -> "diverged: " + planned.divergence());
        assertEquals(seeded.digest(), planned.digest());
        assertEquals(seeded.count(), planned.count());
    }

    @Test
    void withoutItsDeviationsTheRecordingDiverges() throws Exception {
        Path log = OwnCorpus.dir().resolve("pingpong/pp-uniform1000-50000-s2.weftlog");
        FaultPlan baselineOnly = FaultPlan.of(extract(log).net(), new TreeMap<>());
        assertNotNull(Replayer.replay(log, ReplayOptions.PLAIN.withFates(baselineOnly)).divergence());
    }

    @Test
    void dropsAreNamedAsDropsAndReplay(@TempDir Path dir) throws Exception {
        // A lossy run recorded from the seeded core itself (no corpus recording of ours has a drop).
        Path log = dir.resolve("lossy.weftlog");
        Core core = new Core(FaultModel.of(5, "loss=0.5"));
        VAddr server = VAddr.ofNode(0, 100);
        VAddr client = VAddr.ofNode(1, 100);
        int dropped = 0;
        try (LogWriter w = LogWriter.create(log, 5, "loss=0.5", 0, LogMeta.EMPTY)) {
            core.connect(0);
            w.append(core.vt(), new Event.Connect(0));
            core.bind(0, server);
            w.append(core.vt(), new Event.Bind(0, server));
            for (int i = 0; i < 20; i++) {
                Core.SendResult r = core.send(client, server, new byte[] {(byte) i}, i);
                if (r.outcome() instanceof SendOutcome.Dropped) dropped++;
                w.append(core.vt(), new Event.Send(1, client, server, r.chanSeq(), i, String.format("%02x", i), r.outcome()));
            }
        }
        assertTrue(dropped > 0 && dropped < 20, "seed 5 drops some of 20 at loss 0.5: " + dropped);
        FaultPlan plan = extract(log);
        assertEquals(dropped, plan.deviations().size(), "every drop and nothing else: reliable latency is the baseline");
        assertTrue(plan.deviations().stream().allMatch(d -> d.fate().dropped()));
        ReplayReport planned = Replayer.replay(log, ReplayOptions.PLAIN.withFates(plan));
        assertNull(planned.divergence(), () -> "diverged: " + planned.divergence());
        assertEquals(Replayer.replay(log, ReplayOptions.PLAIN).digest(), planned.digest());
    }
}
