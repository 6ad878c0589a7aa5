/**
 * The invariants of invariants-and-checkers.md §1-3: streaming monitors offered every replayed or executed event
 * ({@link dev.weft.check.Invariant}, {@link dev.weft.check.InvariantMonitor}), the two built-in ones
 * ({@link dev.weft.check.PerChannelFifo}, {@link dev.weft.check.NoDuplicateDelivery}), the {@code --check} list
 * syntax ({@link dev.weft.check.Invariants}), the violation texts, and the protocol checkers' verdicts and exit codes
 * ({@link dev.weft.check.CheckVerdict}).
 */
package dev.weft.check;
