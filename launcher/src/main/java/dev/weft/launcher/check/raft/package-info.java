/**
 * Raft on the command line, behind {@link dev.weft.launcher.check.ProtocolCommands}: {@code weft check raft}
 * ({@code raft-check}): argument rules, output and exit codes over the engine's ElectionSafety checker.
 */
package dev.weft.launcher.check.raft;
