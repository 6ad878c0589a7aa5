/**
 * Chord on the command line, behind {@link dev.weft.launcher.check.ProtocolCommands}: {@code weft check chord}
 * ({@code chord-check}) and {@code weft trace chord} ({@code chord-trace}): argument rules, output and exit codes over
 * the engine's Chord checker and trace.
 */
package dev.weft.launcher.check.chord;
