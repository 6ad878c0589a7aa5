/**
 * Where the shared interoperability material is ({@code ../shared}, or {@code -Dweft.shared.dir}) and how tests read
 * the reference corpus in it: the logs, their sidecars and {@code INDEX.tsv}. The one lookup of the corpus for the
 * tests of every module, the engine's included.
 */
package dev.weft.testcorpus;
