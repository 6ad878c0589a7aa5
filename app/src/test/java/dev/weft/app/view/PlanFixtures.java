package dev.weft.app.view;

import dev.weft.log.LogReader;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanExtractor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;

/** Shrink output folders made from real recordings: the recording as minimal.weftlog and a few of its deviations as plan.json. */
final class PlanFixtures {

    private PlanFixtures() {
    }

    /** Copies log into dir as minimal.weftlog with plan.json naming n of its deviations (drops first); returns them. */
    static List<FaultPlan.Deviation> shrinkFolder(Path log, Path dir, int n) throws Exception {
        Files.createDirectories(dir);
        FaultPlan followed;
        try (LogReader r = LogReader.open(log)) {
            followed = PlanExtractor.extract(r);
        }
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> kept = new TreeMap<>();
        for (boolean drops : new boolean[] {true, false}) {
            for (FaultPlan.Deviation d : followed.deviations()) {
                if (kept.size() < n && d.fate().dropped() == drops) kept.put(d.id(), d.fate());
            }
        }
        FaultPlan plan = new FaultPlan(followed.net(), followed.spec(), kept);
        Files.copy(log, dir.resolve("minimal.weftlog"));
        Files.writeString(dir.resolve("plan.json"), FaultPlanJson.write(plan));
        return plan.deviations();
    }
}
