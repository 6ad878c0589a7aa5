package dev.weft.launcher.shrink;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts {@code weft shrink ARGS…} as a child process for the workbench's Tools ▸ Shrink…: in a child JVM with this
 * JVM's class path, or through the {@code weft} executable named by the caller (tests name a fake). Only {@code weft
 * shrink} is ever started here; the programs it runs are those of the campaign config the user chose, as for
 * {@code weft shrink} typed in a shell. The workbench itself starts no program (its architecture tests check that).
 */
public final class ShrinkInChildJvm {

    private ShrinkInChildJvm() {
    }

    /**
     * Starts the child: {@code weftArgs} begins with {@code shrink}; {@code weftExecutable} is a weft command to run
     * instead of the child JVM, or blank. stdin is /dev/null, stdout and stderr are pipes to read; LD_PRELOAD is not
     * passed on (the JVM runs unsimulated).
     */
    public static Process start(List<String> weftArgs, String weftExecutable) throws IOException {
        if (weftArgs.isEmpty() || !weftArgs.get(0).equals("shrink")) {
            throw new IllegalArgumentException("only weft shrink is started here, not " + weftArgs);
        }
        List<String> cmd = new ArrayList<>();
        if (weftExecutable != null && !weftExecutable.isBlank()) {
            cmd.add(weftExecutable);
        } else {
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
                    "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"),
                    "dev.weft.launcher.WeftMain"));
        }
        cmd.addAll(weftArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("LD_PRELOAD");
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        return pb.start();
    }
}
