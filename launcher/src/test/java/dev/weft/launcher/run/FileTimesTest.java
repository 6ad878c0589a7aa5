package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File times are in the run's virtual timeline (issue 18, item 3; docs/shim.md "File times"). */
class FileTimesTest {
    private static final long VIRTUAL_EPOCH = 946684800L; // 2000-01-01
    private static final long BEFORE_THE_RUN = VIRTUAL_EPOCH - 1;

    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    /** tests/stat_times.c: every stat entry point (and syscall(SYS_newfstatat)) agrees; "now" is virtual. */
    @Test
    void everyStatEntryPointSeesVirtualTimes() {
        var a = NativeFixture.weftRun("--seed", "9", "--", NativeFixture.testProgram("stat_times").toString(),
                dir.toString());
        assertEquals(0, a.exit(), a.stderr());
        List<String> lines = a.stdout().lines().toList();
        long fresh = Long.parseLong(lines.get(0).split(" ")[1]);
        assertTrue(fresh >= VIRTUAL_EPOCH && fresh < VIRTUAL_EPOCH + 366L * 86400, a.stdout());
        for (String entry : List.of("stat", "lstat", "fstat", "fstatat", "statx", "syscall newfstatat")) {
            assertTrue(lines.contains(entry + " " + fresh), entry + ": " + a.stdout());
        }
        assertTrue(lines.contains("old file " + BEFORE_THE_RUN), a.stdout());
        assertTrue(lines.contains("futimens now " + fresh + ".000001000"), a.stdout());
        assertEquals(a.stdout(), NativeFixture.weftRun("--seed", "9", "--",
                NativeFixture.testProgram("stat_times").toString(), dir.toString()).stdout());
        assertNotEquals(a.stdout(), NativeFixture.weftRun("--seed", "10", "--",
                NativeFixture.testProgram("stat_times").toString(), dir.toString()).stdout());
    }

    /** gzip writes the input's mtime into its header: a fresh file's output is run-stable and seed-sensitive. */
    @Test
    void gzipOfAFreshFile() {
        RealProgramsTest.assumeInstalled("gzip");
        String script = "cd '" + dir + "' && echo hello > f && gzip -c f | od -An -tx1 && stat -c '%Y %n' f /etc/passwd"
                + " && touch g && stat -c '%Y %n' g && rm f g";
        var a = NativeFixture.weftRun("--seed", "21", "--", "sh", "-c", script);
        assertEquals(0, a.exit(), a.stderr());
        assertTrue(a.stdout().contains(BEFORE_THE_RUN + " /etc/passwd"), a.stdout());
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), NativeFixture.weftRun("--seed", "21", "--", "sh", "-c", script).stdout(),
                    "run " + i + " of seed 21");
        }
        var b = NativeFixture.weftRun("--seed", "22", "--", "sh", "-c", script);
        assertNotEquals(a.stdout().lines().findFirst(), b.stdout().lines().findFirst(), "the gzip header differs");
    }
}
