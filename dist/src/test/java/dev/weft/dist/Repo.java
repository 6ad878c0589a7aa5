package dev.weft.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The checkout these tests run over, and a way to run a command in it the way a user's shell would. */
final class Repo {

    static final Path ROOT = Path.of(System.getProperty("weft.root", "..")).toAbsolutePath().normalize();

    private Repo() {
    }

    record Result(int code, String output) {
    }

    /**
     * Runs {@code bash -c command} in the checkout with {@code weft} on PATH (the checkout's script), stdout and
     * stderr merged, no display.
     */
    static Result bash(String command, Map<String, String> extraEnv, Path bin) throws IOException, InterruptedException {
        return bash(command, extraEnv, bin, ROOT);
    }

    /** As {@link #bash(String, Map, Path)}, in the given working directory. */
    static Result bash(String command, Map<String, String> extraEnv, Path bin, Path workDir)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", command)
                .directory(workDir.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.remove("DISPLAY");
        env.remove("WAYLAND_DISPLAY");
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.putAll(extraEnv);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        return new Result(p.exitValue(), out);
    }

    /** A directory holding {@code weft} (a symlink to the checkout's script), to put first on PATH. */
    static Path binWithWeft(Path dir) throws IOException {
        Path link = dir.resolve("weft");
        if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(link, ROOT.resolve("weft"));
        }
        return dir;
    }

    /**
     * A scratch working directory that looks like the checkout to the docs' commands: {@code examples/} and
     * {@code test-corpus/} resolve to the real ones, and whatever a command writes stays in the scratch directory.
     */
    static Path scratchCheckout(Path tmp) throws IOException {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.createSymbolicLink(work.resolve("examples"), ROOT.resolve("examples"));
        Files.createSymbolicLink(work.resolve("test-corpus"), ROOT.resolve("test-corpus"));
        return work;
    }

    static List<Path> docs() throws IOException {
        try (var s = Files.list(ROOT.resolve("docs"))) {
            return s.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
    }
}
