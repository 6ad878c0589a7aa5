package dev.weft.launcher.support;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts a main class of the test class path in a separate JVM (for heap limits and real kills). */
public final class ChildJvm {

    private ChildJvm() {
    }

    public static ProcessBuilder builder(Path workDir, List<String> jvmOptions, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(workDir.toFile());
    }

    /** Runs to completion (or kills it after timeoutSeconds) and returns exit code, stdout and stderr. */
    public static Result run(Path workDir, List<String> jvmOptions, long timeoutSeconds, Class<?> main, String... args)
            throws IOException, InterruptedException {
        Path out = workDir.resolve(".child-out");
        Path err = workDir.resolve(".child-err");
        Process p = builder(workDir, jvmOptions, main, args)
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        boolean ended = p.waitFor(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
            p.waitFor();
        }
        String o = java.nio.file.Files.readString(out);
        String e = java.nio.file.Files.readString(err);
        java.nio.file.Files.delete(out);
        java.nio.file.Files.delete(err);
        return new Result(ended ? p.exitValue() : -1, ended, o, e);
    }

    /** A finished (or timed-out: {@code ended} false, exit -1) child. */
    public record Result(int exit, boolean ended, String out, String err) {
    }
}
