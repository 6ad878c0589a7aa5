/**
 * Where the test corpora are and how tests read them: our own, always present under {@code test-corpus/corpus}
 * ({@link dev.weft.testcorpus.OwnCorpus}), and the optional reference corpus ({@code ../shared}, or
 * {@code -Dweft.shared.dir}; {@link dev.weft.testcorpus.SharedCorpus}), whose absence skips the tests that need it
 * ({@link dev.weft.testcorpus.ReferenceCorpusSkips} prints how many). Also the spec pages' vectors
 * ({@link dev.weft.testcorpus.SpecPages}). The one lookup of these for the tests of every module, the engine's
 * included.
 */
package dev.weft.testcorpus;
