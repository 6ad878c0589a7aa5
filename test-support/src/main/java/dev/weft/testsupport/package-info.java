/**
 * Helpers that tests of several modules share (the corpora are weft-test-corpus's, {@code dev.weft.testcorpus}): the
 * synthetic-run generator ({@link dev.weft.testsupport.SyntheticRun}), captured in-process runs, a growing file that
 * stands in for a recorder, questions about a recording's lines, and a watcher of the JVM's file, process and socket
 * use.
 */
package dev.weft.testsupport;
