package dev.weft.launcher.shrink;

/** How a shrink ended, and the exit status that says so (docs/cli.md, docs/shrinking.md). */
enum ShrinkOutcome {
    /** A 1-minimal plan, its recording and the report are in the folder. */
    SHRUNK(0),
    /** The seed's run does not fail (its verdict is OK, DISCARD or ERROR): nothing to shrink — not a pass either. */
    DOES_NOT_FAIL(3),
    /** The run under the failing run's own plan does not fail the same way (the program or the runner changed). */
    DOES_NOT_REPRODUCE(4),
    /** Ctrl-C: the best plan so far (not checked 1-minimal) is written, and the report says so. */
    INTERRUPTED(130);

    final int exitCode;

    ShrinkOutcome(int exitCode) {
        this.exitCode = exitCode;
    }
}
