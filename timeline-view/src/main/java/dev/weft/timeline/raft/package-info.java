/**
 * Raft in the workbench, behind {@link dev.weft.timeline.ProtocolView}: {@link dev.weft.timeline.raft.RaftTermsView}
 * draws each node's terms and roles over the run and marks ElectionSafety violations;
 * {@link dev.weft.timeline.raft.RaftView} registers it.
 */
package dev.weft.timeline.raft;
