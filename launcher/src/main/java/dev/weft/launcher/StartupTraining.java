package dev.weft.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The training run of the packaged {@code weft}'s ahead-of-time cache (jpackage/build.sh): runs several {@code weft}
 * command lines in one JVM, so that the cache holds the classes, linked call sites and profiles of all of them, not
 * only of the first. A JDK 25 AOT cache is written by exactly one JVM, hence one process for the whole set.
 *
 * <p>{@code java ... dev.weft.launcher.StartupTraining COMMANDS_FILE}: one command line per line, its words separated
 * by spaces (no quoting: the training inputs are plain paths); blank lines and lines starting with {@code #} are
 * skipped. Exit codes of the commands are ignored (a check that finds violations is a good training run too).
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: StartupTraining COMMANDS_FILE");
            System.exit(2);
        }
        List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            WeftMain.run(trimmed.split(" +"));
        }
        WeftMain.noOtherUserThreads(); // the exit path of WeftMain.main on exit 0
        // ... and the one of every other exit code: System.exit loads the JDK's platform-logging classes (about 60,
        // not in the cache otherwise), which a `--check` that finds violations (exit 2) pays for on every run.
        System.exit(0);
    }
}
