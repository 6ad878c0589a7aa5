package dev.weft.launcher;

import java.io.PrintStream;

/** One {@code weft} subcommand: gets its raw arguments (after the subcommand word) and returns the exit code. */
@FunctionalInterface
public interface Subcommand {
    int run(String[] args, PrintStream out, PrintStream err);
}
