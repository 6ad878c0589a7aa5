package dev.weft.app.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What if? writes only new files: the first N whose recording, plan and sidecars all do not exist yet. */
class WhatIfOutputsTest {

    @Test
    void theFirstFreeNumberIsTakenAndNothingExistingIsReused(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.weftlog.gz");
        assertEquals(new WhatIfViewModel.Outputs(dir.resolve("run.whatif-1.plan-edit.json"), dir.resolve("run.whatif-1.weftlog")),
                WhatIfViewModel.outputsFor(log));
        Files.writeString(dir.resolve("run.whatif-1.weftlog.plan.json"), "kept");
        Files.writeString(dir.resolve("run.whatif-2.plan-edit.json"), "kept");
        assertEquals(dir.resolve("run.whatif-3.weftlog"), WhatIfViewModel.outputsFor(log).log());
    }
}
