package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-file virtual times (issue 18, item 3; docs/shim.md "File times"): files made at different virtual instants
 * keep their order, explicit times read back exactly as set, and the table is shared by the process tree.
 * Each case is identical over repeated runs of one seed.
 */
class FileTimesOrderTest {
    private static final long JAN_1_2015 = 1420070400L;
    private static final int RUNS = 3;

    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    /** The same output over RUNS runs of the seed; the first run's result. */
    private static NativeFixture.Result stable(String seed, String... command) {
        List<String> args = new ArrayList<>(List.of("--seed", seed, "--"));
        args.addAll(List.of(command));
        var first = ShimRuns.succeeded(NativeFixture.weftRun(args.toArray(String[]::new)));
        for (int i = 1; i < RUNS; i++) {
            assertEquals(first.stdout(), NativeFixture.weftRun(args.toArray(String[]::new)).stdout(),
                    "run " + i + " of seed " + seed);
        }
        return first;
    }

    private NativeFixture.Result shell(String seed, String script) {
        // a fresh directory per run: every run starts from the same files
        return stable(seed, "sh", "-c", "cd '" + dir + "' && rm -rf w && mkdir w && cd w && " + script);
    }

    /**
     * tests/file_order.c: files written (open+write, fopen+stdio) with virtual sleeps between them stat in that
     * order, also when a fork child or an exec'd shell wrote one of them; utimensat's explicit times read back to
     * the nanosecond.
     */
    @Test
    void filesKeepTheOrderTheyWereWrittenInAcrossTheProcessTree() throws Exception {
        Path program = NativeFixture.compileForTest("shim-native/tests/file_order.c");
        var a = stable("31", program.toString(), dir.toString());
        List<String> lines = a.stdout().lines().toList();
        assertEquals(7, lines.size(), a.stdout());
        for (int i : new int[] {0, 3, 4, 5, 6}) {
            assertTrue(lines.get(i).matches("[a-g] \\d+ < [a-g] \\d+"), "strictly in order: " + a.stdout());
        }
        assertEquals(lines.get(0), lines.get(1), "a later reader agrees");
        assertEquals("c set atime 1420115696.123456789 mtime 1420115697.987654321", lines.get(2));
        long written = Long.parseLong(lines.get(0).split(" ")[1]) / 1_000_000_000L;
        assertTrue(written >= 946684800L && written < 946684800L + 366L * 86400, a.stdout());
        var b = NativeFixture.weftRun("--seed", "32", "--", program.toString(), dir.toString());
        assertNotEquals(a.stdout(), b.stdout(), "the instants depend on the seed");
    }

    /** make rebuilds a target written before its prerequisite, and a second make in the run finds it up to date. */
    @Test
    void makeSeesTheVirtualOrder() {
        RealProgramsTest.assumeInstalled("make");
        var r = shell("33", "printf 'x: x.c\\n\\tcp x.c x\\n' > Makefile && echo old > x && sleep 1 && echo new > x.c"
                + " && make && make && cat x");
        assertEquals(List.of("cp x.c x", "make: 'x' is up to date.", "new"), r.stdout().lines().toList());
    }

    /**
     * The compiler's children write the object and the program (through stdio, which the shim does not see) and
     * make, their parent, stats them: an edit after a virtual sleep rebuilds both, then everything is up to date.
     */
    @Test
    void makeWithTheCompilerRebuildsOnlyAfterAnEdit() {
        RealProgramsTest.assumeInstalled("make");
        RealProgramsTest.assumeInstalled("cc");
        var r = shell("36", "printf 'prog: prog.o\\n\\tcc -o prog prog.o\\nprog.o: prog.c\\n\\tcc -c prog.c\\n' > Makefile"
                + " && echo 'int main(void) { return 0; }' > prog.c && make && make && sleep 2"
                + " && echo '/* edited */' >> prog.c && make && make");
        assertEquals(List.of("cc -c prog.c", "cc -o prog prog.o", "make: 'prog' is up to date.",
                "cc -c prog.c", "cc -o prog prog.o", "make: 'prog' is up to date."), r.stdout().lines().toList());
    }

    /** A file written through a redirected stdout is dated by its last write, not by the shell's open of it. */
    @Test
    void aRedirectedStdoutDatesTheFileByItsLastWrite() {
        var r = shell("37", "(echo x; sleep 2; echo y) > f && echo z > g && stat -c '%.9Y' f g");
        List<String> lines = r.stdout().lines().toList();
        assertEquals(2, lines.size(), r.stdout());
        assertEquals(lines.get(0).split("\\.")[0], lines.get(1).split("\\.")[0], "f's last write and g: " + r.stdout());
    }

    /** touch -d, cp -p and tar x set times explicitly: they read back exactly (a 2015 date stays 2015). */
    @Test
    void explicitTimesReadBackAsSet() {
        RealProgramsTest.assumeInstalled("tar");
        var r = shell("34", "touch -d '2015-01-01 00:00:00 UTC' a && echo hi > h && sleep 2 && cp -p a a2 && cp -p h h2"
                + " && tar cf t.tar a h && mkdir u && tar xf t.tar -C u 2>/dev/null"
                + " && stat -c '%.9Y %n' a a2 u/a && stat -c '%.9Y %.9X %n' h h2 u/h");
        List<String> lines = r.stdout().lines().toList();
        for (int i = 0; i < 3; i++) {
            assertTrue(lines.get(i).startsWith(JAN_1_2015 + ".000000000 "), r.stdout());
        }
        String h = lines.get(3).split(" ")[0];
        assertTrue(lines.get(4).startsWith(h + " ") && lines.get(4).endsWith(" h2"), "cp -p: " + r.stdout());
        assertTrue(lines.get(5).startsWith(h.substring(0, h.indexOf('.')) + "."), "tar keeps whole seconds: " + r.stdout());
    }

    /** A process alone fills its local table (512 files): the rest read through the mapping, and --stats says so. */
    @Test
    void aFullTableFallsBackToTheMappingAndSaysSo() throws Exception {
        Path program = NativeFixture.compileForTest("shim-native/tests/file_order.c");
        var r = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "35", "--stats", "--", program.toString(),
                dir.toString(), "many", "600"));
        assertTrue(r.stdout().startsWith("600 files, "), r.stdout());
        // how full the table gets before a probe gives up depends on the inode numbers (the host's file system)
        assertTrue(Pattern.compile("the process-local table holds \\d+ of 512 file\\(s\\); [1-9]\\d* update\\(s\\) found no room")
                .matcher(r.stderr()).find(), r.stderr());
    }
}
