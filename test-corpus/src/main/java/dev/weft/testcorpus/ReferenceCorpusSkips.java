package dev.weft.testcorpus;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Counts the tests (or test groups: a factory or parameterized test that could not list its cases) that were skipped
 * because the reference corpus is absent, and prints one line for them when the module's test run ends. Registered
 * through {@code META-INF/services} so every module whose tests use this library reports without configuration;
 * silent when nothing was skipped (CI, where {@code ../shared} is present).
 */
public final class ReferenceCorpusSkips implements TestExecutionListener {

    /** The start of the summary line; scripts and tests may look for it. */
    public static final String PREFIX = "[weft] reference corpus absent: ";

    private final PrintStream out;
    private final AtomicInteger skipped = new AtomicInteger();
    private final AtomicReference<String> reason = new AtomicReference<>();

    /** The instance the JUnit Platform loads: prints to standard output, which Surefire shows in the build log. */
    public ReferenceCorpusSkips() {
        this(System.out);
    }

    ReferenceCorpusSkips(PrintStream out) {
        this.out = out;
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        skipped.set(0);
        reason.set(null);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED
                && result.getThrowable().orElse(null) instanceof ReferenceCorpusAbsent absent) {
            skipped.incrementAndGet();
            reason.compareAndSet(null, absent.getMessage());
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan testPlan) {
        if (skipped.get() > 0) {
            out.println(summary(skipped.get(), reason.get()));
            out.flush();
        }
    }

    /** The summary line: how many were skipped and why. */
    static String summary(int count, String why) {
        return PREFIX + count + " reference-corpus test" + (count == 1 ? "" : "s") + " skipped (" + why + ")";
    }
}
