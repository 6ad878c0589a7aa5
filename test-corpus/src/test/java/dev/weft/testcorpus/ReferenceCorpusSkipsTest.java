package dev.weft.testcorpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** The one summary line: it counts only reference-corpus skips, and says nothing when there were none. */
class ReferenceCorpusSkipsTest {

    /** Run by the launcher below, not by Surefire (nested classes are excluded from its scan). */
    static class Sample {
        @Test
        void needsTheCorpus() {
            throw new ReferenceCorpusAbsent("no reference corpus at /nowhere");
        }

        @Test
        void skipsForAnotherReason() {
            Assumptions.assumeTrue(false, "not this machine");
        }

        @Test
        void passes() {
        }

        @TestFactory
        Stream<DynamicTest> cannotListItsCases() {
            throw new ReferenceCorpusAbsent("no reference corpus at /nowhere");
        }
    }

    static class AllPresent {
        @Test
        void passes() {
        }
    }

    private static String run(Class<?> testClass) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Launcher launcher = LauncherFactory.create(LauncherConfig.builder()
                .enableTestExecutionListenerAutoRegistration(false).build());
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
                    new ReferenceCorpusSkips(out));
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void countsTestsAndGroupsSkippedForTheCorpusOnly() {
        assertEquals(List.of("[weft] reference corpus absent: 2 reference-corpus tests skipped"
                        + " (no reference corpus at /nowhere)"), run(Sample.class).lines().toList());
    }

    @Test
    void saysNothingWhenNothingWasSkipped() {
        assertEquals("", run(AllPresent.class));
    }

    @Test
    void isRegisteredForEveryModuleThroughTheServiceLoader() {
        List<String> names = java.util.ServiceLoader.load(org.junit.platform.launcher.TestExecutionListener.class)
                .stream().map(p -> p.type().getName()).toList();
        assertEquals(true, names.contains(ReferenceCorpusSkips.class.getName()), names.toString());
    }
}
