package dev.weft.launcher.run;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts {@code weft run ARGS…} in a child JVM with this JVM's class path — for the workbench's run panel, which
 * must not host a run in its own process (a run installs its own shutdown handling, and a hung or crashing target
 * must cost the run, not the window). Only {@code weft run} is ever started here: the program it runs is the one
 * on that command line, as for {@code weft run} typed in a shell. Stopping the child with SIGTERM makes it stop
 * every node and finish the log, as Ctrl-C does.
 */
public final class RunInChildJvm {

    private RunInChildJvm() {
    }

    /**
     * Starts the child. {@code env} is its whole environment (LD_PRELOAD is dropped: the JVM itself runs
     * unsimulated; weft run sets the shim's variables for the nodes); stdin is /dev/null, stdout and stderr are
     * pipes to read.
     */
    public static Process start(List<String> runArgs, Map<String, String> env) throws IOException {
        return start(runArgs, env, null);
    }

    /** As {@link #start(List, Map)}, in the working directory {@code directory} (null: this process's). */
    public static Process start(List<String> runArgs, Map<String, String> env, Path directory) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // C1 only and the serial collector: a run's JVM is short-lived and mostly waits on its nodes
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), "dev.weft.launcher.WeftMain", "run"));
        cmd.addAll(runArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.environment().remove("LD_PRELOAD");
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (directory != null) pb.directory(directory.toFile());
        return pb.start();
    }
}
