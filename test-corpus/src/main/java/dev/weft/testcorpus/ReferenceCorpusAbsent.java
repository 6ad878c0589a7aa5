package dev.weft.testcorpus;

import org.opentest4j.TestAbortedException;

/**
 * Thrown by {@link SharedCorpus} when the optional reference material is not beside the repository: JUnit reports
 * the test as skipped (an assumption that failed), and {@link ReferenceCorpusSkips} counts it for the build's one
 * summary line. A fresh clone has no {@code ../shared}; CI has it, so nothing is skipped there.
 */
public final class ReferenceCorpusAbsent extends TestAbortedException {

    private static final long serialVersionUID = 1L;

    ReferenceCorpusAbsent(String message) {
        super(message);
    }
}
