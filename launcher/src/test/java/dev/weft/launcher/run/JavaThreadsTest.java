package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM under the token scheduler: examples/real/ThreadsDemo.java (three threads sleeping and
 * drawing from a shared java.util.Random) is compiled with the running JDK's compiler and run
 * with the running JDK's {@code java}. Issue 6 acceptance: identical for one seed across ten
 * runs, different across seeds.
 */
class JavaThreadsTest {
    @TempDir
    Path classes;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    @Test
    void threadedJavaTenRunsPerSeed() {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assumeTrue(javac != null, "skipped: no Java compiler in this runtime (needs a JDK)");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        assumeTrue(Files.isExecutable(java), "skipped: " + java + " not found");
        Path source = RealProgramsTest.realExample("ThreadsDemo.java");
        assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), source.toString()), "javac failed");
        List<String> cmd = List.of(java.toString(), "-Xshare:auto", "-cp", classes.toString(), "ThreadsDemo");
        var probe = RealProgramsTest.run("7", cmd);
        assertEquals(0, probe.exit(), probe.stderr());
        assertTrue(probe.stdout().matches("(?s)(t\\d:\\d:\\d+ ){11}t\\d:\\d:\\d+\nuuid .*\n"), probe.stdout());
        RealProgramsTest.tenRunsIdenticalAndSeedsDiffer("ThreadsDemo", cmd);
    }
}
