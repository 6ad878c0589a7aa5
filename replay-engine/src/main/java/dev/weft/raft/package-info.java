/**
 * The Raft checker (invariants-and-checkers.md §6) behind the protocol seam ({@link dev.weft.raft.RaftProtocol}):
 * ElectionSafety over the state reports in {@code send} records ({@link dev.weft.raft.RaftCheck}), and
 * {@link dev.weft.raft.RaftTimeline}, each node's role and term after any op for the workbench.
 */
package dev.weft.raft;
