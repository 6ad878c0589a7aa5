/**
 * Histories of operations on shared objects, and their checkers (docs/history.md): the JSON-lines history format
 * ({@link dev.weft.history.HistoryReader}), invocations paired with their completions
 * ({@link dev.weft.history.Operations}), a linearizability search for single-object models with memoisation and
 * per-key partitioning ({@link dev.weft.history.LinearizabilitySearch}, {@link dev.weft.history.LinearizabilityChecker}),
 * an anomaly checker for list-append histories ({@link dev.weft.history.ListAppendChecker}), and the plain-words
 * report of a violation ({@link dev.weft.history.HistoryText}).
 */
package dev.weft.history;
