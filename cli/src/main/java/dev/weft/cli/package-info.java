/**
 * How every {@code weft} command parses its command line: picocli's programmatic model
 * ({@link picocli.CommandLine.Model.CommandSpec}, no annotations, no reflection at start-up), built with
 * {@link dev.weft.cli.CommandArgs}; a mistake comes back as an {@link dev.weft.cli.ArgsProblem} for the command to
 * put in its own words (its usage errors and exit codes are public contracts, docs/cli.md).
 */
package dev.weft.cli;
