package dev.weft.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * Records every file access, program start and socket use of a block of Java code, without refusing anything:
 * the block is a {@code main} run in a child JVM under {@code strace -f}, so what is seen is what the process
 * asked the kernel for (the JVM's own start-up included), on any Java version — a SecurityManager, which this
 * class used before, cannot be installed from Java 18 on, so the tests were skipped on the JDK we ship.
 */
public final class AccessWatcher {

    /** Sockets of these kinds count as socket use; socket() alone (e.g. an IPv6 probe) reaches nobody. */
    private static final Set<String> SOCKET_CALLS = Set.of("connect", "bind", "listen", "accept", "accept4",
            "sendto", "sendmsg", "sendmmsg");
    private static final Set<String> PROGRAM_CALLS = Set.of("execve", "execveat");
    /** pid, then the call name; "<... x resumed>" lines repeat a call whose arguments were already printed. */
    private static final Pattern CALL = Pattern.compile("^\\d+\\s+(\\w+)\\((.*)$");
    private static final Pattern QUOTED = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final List<String> files;
    private final List<String> programs;
    private final List<String> sockets;
    private final int exitCode;
    private final String output;

    private AccessWatcher(List<String> files, List<String> programs, List<String> sockets, int exitCode, String output) {
        this.files = List.copyOf(files);
        this.programs = List.copyOf(programs);
        this.sockets = List.copyOf(sockets);
        this.exitCode = exitCode;
        this.output = output;
    }

    /**
     * Runs {@code main.main(args)} in a child JVM (same Java, same class path) under strace and returns what it
     * did. Aborts the calling test, saying why, where strace is missing or may not trace.
     */
    public static AccessWatcher watch(Class<?> main, String... args) throws IOException, InterruptedException {
        Path strace = findStrace();
        Assumptions.assumeTrue(strace != null, "strace (on PATH) is needed to observe what the code touches");
        Path work = Files.createTempDirectory("weft-access-watch");
        try {
            Path trace = work.resolve("trace");
            Path out = work.resolve("out");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> cmd = new ArrayList<>(List.of(strace.toString(), "-f", "-qq", "-s", "4096", "-o",
                    trace.toString(), "-e", "trace=%file,%network,execve,execveat", java,
                    "-XX:+DisableAttachMechanism", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
                    System.getProperty("java.class.path"), main.getName()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("the watched JVM did not end within 10 minutes: " + Files.readString(out));
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            List<String> lines = Files.exists(trace) ? Files.readAllLines(trace, StandardCharsets.UTF_8) : List.of();
            Assumptions.assumeTrue(lines.stream().anyMatch(l -> l.contains("execve(\"" + java + "\"")),
                    () -> "strace could not trace the child JVM (ptrace refused?): " + output);
            return parse(lines, java, p.exitValue(), output);
        } finally {
            try (var walk = Files.walk(work)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static Path findStrace() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path s = Path.of(d, "strace");
            if (Files.isExecutable(s)) {
                return s;
            }
        }
        return null;
    }

    static AccessWatcher parse(List<String> lines, String java, int exitCode, String output) {
        List<String> files = new ArrayList<>();
        List<String> programs = new ArrayList<>();
        List<String> sockets = new ArrayList<>();
        boolean jvmStarted = false;
        for (String l : lines) {
            Matcher m = CALL.matcher(l);
            if (!m.matches()) {
                continue; // "<... resumed>", signals, exits
            }
            String call = m.group(1);
            String rest = m.group(2);
            Matcher q = QUOTED.matcher(rest);
            String firstString = q.find() ? q.group(1) : "";
            if (PROGRAM_CALLS.contains(call)) {
                if (!jvmStarted && firstString.equals(java)) {
                    jvmStarted = true; // strace starting the child JVM itself
                } else {
                    programs.add(firstString);
                }
            } else if (SOCKET_CALLS.contains(call)) {
                // libc asks the name-service cache daemon for the JVM's own user at start-up, whatever runs
                if (!rest.contains("sun_path=\"/var/run/nscd/socket\"")) {
                    sockets.add(call + " " + rest);
                }
            } else if (!firstString.isEmpty()) {
                files.add(call + " " + firstString);
            }
        }
        return new AccessWatcher(files, programs, sockets, exitCode, output);
    }

    /** "call path" for every file access (open, stat, access, mkdir, ...), in order. */
    public List<String> files() {
        return files;
    }

    /** Programs started, or attempted (the path handed to execve), after the child JVM itself. */
    public List<String> programs() {
        return programs;
    }

    /** Socket connects, binds, listens, accepts and sends, with their arguments. */
    public List<String> sockets() {
        return sockets;
    }

    /** The child JVM's exit status. */
    public int exitCode() {
        return exitCode;
    }

    /** What the child printed (stdout and stderr, with strace's own complaints if any). */
    public String output() {
        return output;
    }
}
