/**
 * The {@code weft} command: {@link dev.weft.launcher.WeftMain} sets up the streams, {@link dev.weft.launcher.WeftCli}
 * dispatches on the first word, and {@link dev.weft.launcher.WeftCommand} registers every subcommand in one place
 * (name, summary, help, completion words, how it runs). Each subcommand lives in a package of its own:
 * {@code run} (the shim, the live broker, host agents), {@code replay}, {@code check}, {@code fuzz},
 * {@code campaign}, {@code scenario}, {@code state}, {@code diff}, {@code convert}, {@code help}.
 * Exit codes and the lines scripts parse are public contracts (see docs/cli.md).
 */
package dev.weft.launcher;
