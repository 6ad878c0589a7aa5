/**
 * The one command-line parser of the {@code weft} subcommands: picocli's programmatic model
 * ({@link picocli.CommandLine.Model.CommandSpec}, no annotations, no reflection at start-up), with each command's
 * errors still worded by the command itself ({@link dev.weft.cli.CommandArgs}, in the cli module, which vm shares);
 * {@link dev.weft.launcher.cli.ToolUsage} is how the recording tools answer.
 */
package dev.weft.launcher.cli;
