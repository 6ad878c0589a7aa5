package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RunCommand.run end to end: exit status pass-through and warnings for programs the shim cannot reach. */
class RunCommandTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static int run(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--shim";
        all[1] = NativeFixture.shim().toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return RunCommand.run(all);
    }

    /** The program's stdout goes to /dev/null: inherited output would corrupt surefire's channel. */
    @Test
    void exitStatusPassesThrough() {
        String quiet = "exec \"$0\" \"$@\" >/dev/null";
        assertEquals(0, run("--seed", "2", "--", "sh", "-c", quiet, NativeFixture.example("race_bank").toString(), "2", "2"));
        assertEquals(1, run("--seed", "3", "--", "sh", "-c", quiet, NativeFixture.example("race_bank").toString(), "2", "2"));
    }

    @Test
    void deathBySignalIs128PlusSignal() {
        assertEquals(128 + 6, run("--seed", "1", "--", NativeFixture.example("deadlock").toString()));
    }

    @Test
    void unstartableProgramIs127() {
        assertEquals(RunCommand.CANNOT_EXECUTE, run("--seed", "1", "--", "/no/such/program"));
    }

    /** Static binaries run under weft_super with one note (StaticBinaryTest pins what it seeds). */
    @Test
    void notesStaticBinaries() {
        Path stat = NativeFixture.testProgram("static_hello");
        assumeTrue(Files.isRegularFile(stat), "skipped: static_hello not built (needs libc.a from libc6-dev)");
        var r = NativeFixture.weftRun("--seed", "1", "--", stat.toString());
        assertEquals("static hello\n", r.stdout());
        assertEquals(StaticSupervision.note(BinaryInspector.inspect(stat)) + "\n", r.stderr());
    }

    @Test
    void warnsForGoBinaries() {
        Path go = NativeFixture.testProgram("fakego");
        var r = NativeFixture.weftRun("--seed", "1", "--", go.toString());
        assertTrue(r.stderr().contains(go + " is a Go binary;"), r.stderr());
        assertEquals(1, r.stderr().lines().count());
    }

    @Test
    void warnsForSetuidPrograms(@TempDir Path dir) throws IOException {
        Path copy = dir.resolve("suid_race_bank");
        Files.copy(NativeFixture.example("race_bank"), copy, StandardCopyOption.COPY_ATTRIBUTES);
        Files.setAttribute(copy, "unix:mode", 04755);
        var r = NativeFixture.weftRun("--seed", "2", "--", copy.toString(), "2", "2");
        assertTrue(r.stderr().startsWith("weft run: warning: " + copy + " is setuid/setgid;"), r.stderr());
    }

    @Test
    void ordinaryProgramsGetNoWarning() {
        var r = NativeFixture.weftRun("--seed", "2", "--", NativeFixture.example("race_bank").toString(), "2", "2");
        assertEquals("", r.stderr());
    }

    @Test
    void bareNamesAreFoundOnPath() {
        var r = NativeFixture.weftRun("--seed", "42", "--", "sh", "-c", "exit 7");
        assertEquals(7, r.exit());
    }
}
