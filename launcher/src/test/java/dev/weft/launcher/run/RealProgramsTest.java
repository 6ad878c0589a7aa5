package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.testsupport.NativeBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 6's list of real programs (docs/real-programs.md): each one, under {@code weft run}, must
 * terminate, print the same bytes twice for one seed and other bytes for another seed. A program
 * that is not installed is skipped with a message (CI installs them from .ci/apt-packages.txt).
 * Every run has a timeout and is killed when it expires (NativeFixture).
 */
class RealProgramsTest {
    /** One entry of the list: a name, the program that must be installed, and the command. */
    record Program(String name, String requires, List<String> command) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Path realExample(String file) {
        return NativeBuild.root().resolve("examples").resolve("real").resolve(file);
    }

    /** /usr/bin/python3 (the Debian one) when present, else python3 on PATH. */
    static Optional<Path> python3() {
        Path debian = Path.of("/usr/bin/python3");
        return Files.isExecutable(debian) ? Optional.of(debian) : onPath("python3");
    }

    static Optional<Path> onPath(String name) {
        return TargetIsolation.find(name, System.getenv("PATH"));
    }

    static Stream<Program> programs() {
        String py = python3().map(Path::toString).orElse("python3");
        return Stream.of(
                new Program("date", "date", List.of("date", "+%s.%N %F %T")),
                new Program("shuf", "shuf", List.of("shuf", "-i", "1-1000", "-n", "8")),
                new Program("sort -R", "sort", List.of("sh", "-c", "seq 1 40 | sort -R | tr '\\n' ' '")),
                new Program("mktemp", "mktemp", List.of("mktemp", "-u", "/tmp/weft-test.XXXXXXXXXX")),
                new Program("python3", py, List.of(py, realExample("plain_random.py").toString())),
                new Program("python3 threads", py, List.of(py, realExample("threads_random.py").toString())),
                new Program("perl", "perl", List.of("perl", "-e",
                        "my %h = map { $_ => 1 } 1..12; print join(' ', rand(), int(rand(1e9)), $$, time,"
                                + " join(',', keys %h), {} ), \"\\n\"")),
                new Program("bash $RANDOM", "bash", List.of("bash", "-c",
                        "echo $RANDOM $RANDOM $SRANDOM $$ $BASHPID; (echo sub $BASHPID)")),
                new Program("awk", "awk", List.of("awk", "BEGIN { srand(); print rand(), rand(), srand() }")),
                new Program("sqlite3", "sqlite3", List.of("sqlite3", ":memory:",
                        "select random(), hex(randomblob(8)), datetime('now');")),
                new Program("openssl rand", "openssl", List.of("openssl", "rand", "-hex", "16")),
                new Program("tclsh", "tclsh", List.of("sh", "-c", "echo 'puts [expr {rand()}]; puts [clock seconds]' | tclsh")),
                new Program("node", "node", List.of("node", realExample("random.js").toString())));
    }

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    static void assumeInstalled(String program) {
        boolean found = program.contains("/") ? Files.isExecutable(Path.of(program)) : onPath(program).isPresent();
        assumeTrue(found, "skipped: " + program + " is not installed (CI installs it, see .ci/apt-packages.txt)");
    }

    static NativeFixture.Result run(String seed, List<String> command) {
        List<String> args = new ArrayList<>(List.of("--seed", seed, "--"));
        args.addAll(command);
        return NativeFixture.weftRun(args.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void sameSeedSameOutputOtherSeedOtherOutput(Program p) {
        assumeInstalled(p.requires());
        var a = run("11", p.command());
        assertEquals(0, a.exit(), p.name() + " failed: " + a.stderr());
        assertTrue(!a.stdout().isBlank(), p.name() + " printed nothing");
        var b = run("11", p.command());
        assertEquals(a.stdout(), b.stdout(), p.name() + ": two runs of seed 11 differ");
        var c = run("12", p.command());
        assertEquals(0, c.exit(), p.name() + " failed: " + c.stderr());
        assertNotEquals(a.stdout(), c.stdout(), p.name() + ": seeds 11 and 12 print the same");
    }

    /** Native runs of the same commands vary: the test above would catch a shim that did nothing. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("programs")
    void nativeRunsVary(Program p) throws InterruptedException {
        assumeInstalled(p.requires());
        assumeTrue(!p.name().equals("python3 threads"), "covered by the ten-run test");
        var a = NativeFixture.exec(p.command(), NativeFixture.cleanEnv());
        if (p.name().equals("awk")) {
            Thread.sleep(1100); // awk's srand() takes the time in whole seconds
        }
        var b = NativeFixture.exec(p.command(), NativeFixture.cleanEnv());
        assertEquals(0, a.exit(), a.stderr());
        assertNotEquals(a.stdout(), b.stdout(), p.name() + " prints the same natively; it proves nothing here");
    }

    /** Issue 6 acceptance: threads sleeping and drawing random numbers, ten runs per seed. */
    @org.junit.jupiter.api.Test
    void threadedPythonTenRunsPerSeed() {
        Optional<Path> py = python3();
        assumeTrue(py.isPresent(), "skipped: python3 is not installed");
        List<String> cmd = List.of(py.get().toString(), realExample("threads_random.py").toString());
        tenRunsIdenticalAndSeedsDiffer("threads_random.py", cmd);
    }

    static void tenRunsIdenticalAndSeedsDiffer(String what, List<String> cmd) {
        Set<String> perSeed = new LinkedHashSet<>();
        String first = null;
        for (int i = 0; i < 10; i++) {
            var r = run("7", cmd);
            assertEquals(0, r.exit(), what + " run " + i + ": " + r.stderr());
            if (first == null) {
                first = r.stdout();
            }
            assertEquals(first, r.stdout(), what + ": run " + i + " of seed 7 differs from run 0");
        }
        perSeed.add(first);
        for (String seed : List.of("8", "9")) {
            var r = run(seed, cmd);
            assertEquals(0, r.exit(), r.stderr());
            perSeed.add(r.stdout());
        }
        assertEquals(3, perSeed.size(), what + ": seeds 7, 8, 9 do not all differ: " + perSeed);
    }
}
