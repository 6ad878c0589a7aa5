/**
 * {@code weft check chord|raft} and {@code weft trace chord} (and their {@code chord-check}, {@code chord-trace},
 * {@code raft-check} names): argument rules, output and exit codes over the engine's checkers.
 */
package dev.weft.launcher.check;
