package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A {@code weft hostd} agent in a JVM of its own on a loopback port, and everything it printed. */
record HostdProcess(Process process, int port, List<String> lines) {
    private static final String LISTENING = "weft hostd: listening on tcp 127.0.0.1:";

    /** Writes a token file an agent accepts: readable by its owner only (a readable token is refused). */
    static Path tokenFile(Path file, String secret) throws IOException {
        return Files.setPosixFilePermissions(Files.writeString(file, secret + "\n"),
                PosixFilePermissions.fromString("rw-------"));
    }

    /** Starts an agent with the built shim and a clean environment; returns once it listens. */
    static HostdProcess start(Path token) throws Exception {
        return start(token, List.of(), Map.of());
    }

    /**
     * As {@link #start(Path)}, the agent's command line run through {@code launcher} (a shell that sets limits, say)
     * and its environment given {@code env} on top.
     */
    static HostdProcess start(Path token, List<String> launcher, Map<String, String> env) throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), "dev.weft.launcher.WeftMain", "hostd", "--listen", "0",
                "--token-file", token.toString(), "--shim", NativeFixture.shim().toString()));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().clear();
        pb.environment().putAll(NativeFixture.cleanEnv());
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.add(l);
                    if (l.startsWith(LISTENING)) {
                        port.complete(Integer.parseInt(l.substring(l.lastIndexOf(':') + 1)));
                    }
                }
            } catch (IOException e) {
                // the agent ended
            }
            port.complete(-1);
        }, "hostd-output");
        t.setDaemon(true);
        t.start();
        int pt = port.get(60, TimeUnit.SECONDS);
        assertTrue(pt > 0, () -> "hostd did not start: " + lines);
        return new HostdProcess(p, pt, lines);
    }

    void stop() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Waits until the agent has printed a line containing {@code part}; fails naming the line and what it printed. */
    void awaitPrinted(String part) throws InterruptedException {
        try {
            Await.until("hostd printing \"" + part + "\"", () -> {
                synchronized (lines) {
                    return lines.stream().anyMatch(l -> l.contains(part));
                }
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; it printed " + lines, e);
        }
    }
}
