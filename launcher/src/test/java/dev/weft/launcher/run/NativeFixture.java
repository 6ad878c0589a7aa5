package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.testsupport.NativeBuild;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Finds the Linux build output (shim-native/target) and runs programs with captured output.
 * Tests call {@link #assumeBuilt()} first: off Linux, or when the shim was not built, they are
 * skipped with a message saying so. Public for the network tests (dev.weft.launcher.net).
 */
public final class NativeFixture {
    public static final long TIMEOUT_SECONDS = 60;

    public record Result(int exit, String stdout, String stderr) {
    }

    private NativeFixture() {
    }

    public static Path target() {
        return NativeBuild.root().resolve("shim-native").resolve("target");
    }

    public static Path shim() {
        return target().resolve("libweft_shim.so");
    }

    static Path example(String name) {
        return target().resolve("examples").resolve(name);
    }

    public static Path testProgram(String name) {
        return target().resolve("tests").resolve(name);
    }

    /**
     * Compiles one C file of this repository (e.g. {@code examples/pingpong.c}) with {@code cc -O2} into
     * launcher/target/test-bin/NAME; the test is skipped with a message when the file is missing or does not compile.
     */
    public static Path compileForTest(String source) throws IOException, InterruptedException {
        Path src = NativeBuild.root().resolve(source);
        assumeTrue(Files.exists(src), "skipped: " + source + " not in this checkout");
        String name = src.getFileName().toString().replaceFirst("\\.c$", "");
        Path bin = NativeBuild.root().resolve("launcher").resolve("target").resolve("test-bin").resolve(name);
        Files.createDirectories(bin.getParent());
        Process p = new ProcessBuilder("cc", "-O2", "-o", bin.toString(), src.toString()).inheritIO().start();
        assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "skipped: cannot compile " + source);
        return bin;
    }

    public static void assumeBuilt() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: needs Linux");
        assumeTrue(Files.isRegularFile(shim()), "skipped: " + shim() + " was not built (run the Maven build on Linux)");
    }

    /** Base environment: the test's own minus any WEFT_ and LD_PRELOAD settings. */
    public static Map<String, String> cleanEnv() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("WEFT_") || k.equals("LD_PRELOAD"));
        return env;
    }

    /** {@code weft run --shim <built shim> <args>} through RunCommand.prepare, output captured. */
    static Result weftRun(String... args) {
        List<String> all = new ArrayList<>(List.of("--shim", shim().toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        ProcessBuilder pb;
        try {
            pb = RunCommand.prepare(all.toArray(String[]::new), cleanEnv(),
                    new PrintStream(warnings, true, StandardCharsets.UTF_8));
        } catch (RunOptions.UsageException | ShimLocator.ShimNotFoundException | RunCommand.RefusedException e) {
            throw new AssertionError(e.getMessage(), e);
        }
        Result r = exec(pb);
        return new Result(r.exit(), r.stdout(), warnings.toString(StandardCharsets.UTF_8) + r.stderr());
    }

    public static Result exec(List<String> command, Map<String, String> env) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(env);
        return exec(pb);
    }

    public static Result exec(ProcessBuilder pb) {
        try {
            Path out = Files.createTempFile("weft-run", ".out");
            Path err = Files.createTempFile("weft-run", ".err");
            try {
                pb.redirectOutput(out.toFile()).redirectError(err.toFile());
                Process p = pb.start();
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError("timed out after " + TIMEOUT_SECONDS + " s: " + pb.command());
                }
                return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
