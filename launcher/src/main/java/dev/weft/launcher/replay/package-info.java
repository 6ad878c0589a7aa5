/**
 * {@code weft replay}: argument rules, output lines and exit codes of core-and-replay.md §5 over the engine's
 * replayer; the {@code replay identical: …} line is parsed by scripts and kept byte for byte.
 */
package dev.weft.launcher.replay;
