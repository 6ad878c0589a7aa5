package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PIDs, ASLR, the OpenSSL capability mask and --strict. */
class IsolationTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    static boolean pidNamespaceWorks() {
        String path = System.getenv("PATH");
        return TargetIsolation.find("unshare", path)
                .flatMap(u -> TargetIsolation.pidNamespaceFlags(u, path)).isPresent();
    }

    @Test
    void targetIsPid2AndItsChildrenFollowInCreationOrder() {
        assumeTrue(pidNamespaceWorks(), "skipped: this machine allows no PID namespace (unshare --pid fails)");
        var r = NativeFixture.weftRun("--seed", "1", "--", "sh", "-c", "echo $$; sh -c 'echo $$'; sh -c 'echo $PPID'");
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("2\n3\n2\n", r.stdout());
    }

    /**
     * /proc/PID of a PID the tree sees is that process (the namespace has its own /proc): without it
     * /proc/2 was the host's kthreadd, and the process scheduler's watchdog read a computing child's
     * CPU time from a stranger's stat file.
     */
    @Test
    void procOfATreePidIsThatProcess() {
        assumeTrue(pidNamespaceWorks(), "skipped: this machine allows no PID namespace (unshare --pid fails)");
        var r = NativeFixture.weftRun("--seed", "1", "--", "sh", "-c",
                "read p c s pp x < /proc/$$/stat; echo $p $c $pp; sh -c 'read p c s pp x < /proc/$$/stat; echo $p $c $pp'");
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("2 (sh) 1\n3 (sh) 2\n", r.stdout());
    }

    @Test
    void hostPidsKeepsRealPids() {
        var r = NativeFixture.weftRun("--seed", "1", "--host-pids", "--", "sh", "-c", "echo $$");
        assertNotEquals("2\n", r.stdout());
        assertEquals("", r.stderr());
    }

    /** /proc/self/personality is the flag word; 0x0040000 is ADDR_NO_RANDOMIZE. */
    @Test
    void aslrIsOffUnlessKept() {
        assumeTrue(TargetIsolation.find("setarch", System.getenv("PATH")).isPresent(), "skipped: no setarch");
        var off = NativeFixture.weftRun("--seed", "1", "--", "cat", "/proc/self/personality");
        assertEquals("00040000\n", off.stdout(), off.stderr());
        var kept = NativeFixture.weftRun("--seed", "1", "--keep-aslr", "--", "cat", "/proc/self/personality");
        assertEquals("00000000\n", kept.stdout(), kept.stderr());
    }

    /** Pointer-derived output (a stack address) is stable only because ASLR is off. */
    @Test
    void stackAddressesRepeat() {
        String cmd = "grep -m1 stack /proc/self/maps";
        var a = NativeFixture.weftRun("--seed", "1", "--", "sh", "-c", cmd);
        var b = NativeFixture.weftRun("--seed", "1", "--", "sh", "-c", cmd);
        assertEquals(a.stdout(), b.stdout());
    }

    @Test
    void opensslCapabilityMaskIsSetUnlessTheCallerChoseOne() {
        var r = NativeFixture.weftRun("--seed", "1", "--", "sh", "-c", "echo $OPENSSL_ia32cap");
        assertEquals(RunCommand.OPENSSL_NO_RDRAND + "\n", r.stdout());
    }

    @Test
    void strictRefusesProgramsTheShimCannotReach() throws Exception {
        Path go = NativeFixture.testProgram("fakego");
        var err = new java.io.ByteArrayOutputStream();
        int rc = RunCommand.run(new String[] {"--shim", NativeFixture.shim().toString(), "--seed", "1", "--strict", "--",
                go.toString()}, NativeFixture.cleanEnv(), new java.io.PrintStream(err, true, "UTF-8"));
        assertEquals(RunCommand.USAGE_ERROR, rc);
        assertEquals("weft run: --strict: refusing to run " + go + ": " + go + " is a Go binary; Go makes its own"
                + " system calls, so clocks, randomness and goroutine scheduling escape the shim\n", err.toString("UTF-8"));
        var ok = NativeFixture.weftRun("--seed", "2", "--strict", "--", NativeFixture.example("race_bank").toString(), "2", "2");
        assertEquals(0, ok.exit(), ok.stderr());
    }

    @Test
    void strictRefusesStaticBinaries() {
        Path stat = NativeFixture.testProgram("static_hello");
        assumeTrue(Files.isRegularFile(stat), "skipped: static_hello not built (needs libc.a from libc6-dev)");
        var err = new java.io.ByteArrayOutputStream();
        int rc = RunCommand.run(new String[] {"--shim", NativeFixture.shim().toString(), "--seed", "1", "--strict",
                stat.toString()}, NativeFixture.cleanEnv(), new java.io.PrintStream(err, true));
        assertEquals(RunCommand.USAGE_ERROR, rc);
        assertTrue(err.toString().contains("is statically linked"), err.toString());
    }

    /** A machine without unshare or setarch still runs the target, with one note per missing piece. */
    @Test
    void missingToolsAreNotedAndLeftOut(@org.junit.jupiter.api.io.TempDir Path bin) throws Exception {
        Path env = TargetIsolation.find("env", System.getenv("PATH")).orElseThrow();
        Files.createSymbolicLink(bin.resolve("env"), env);
        var plan = TargetIsolation.wrap(java.util.List.of("prog", "arg"), "/lib/shim.so", true, true, bin.toString());
        assertEquals(java.util.List.of(bin.resolve("env").toString(), "LD_PRELOAD=/lib/shim.so", "prog", "arg"),
                plan.command());
        assertEquals(2, plan.notes().size(), plan.notes().toString());
        assertTrue(plan.notes().get(0).startsWith("weft run: note: no PID namespace available"));
        assertTrue(plan.notes().get(1).startsWith("weft run: note: setarch not found; ASLR stays on"));
        var quiet = TargetIsolation.wrap(java.util.List.of("prog"), "/lib/shim.so", false, false, bin.toString());
        assertEquals(java.util.List.of(), quiet.notes());
    }

    @Test
    void statsReportRdrand() {
        var r = NativeFixture.weftRun("--seed", "1", "--stats", "--", "/bin/true");
        assertTrue(r.stderr().contains("[weft] rdrand: cpu rdrand="), r.stderr());
        assertTrue(r.stderr().contains("OPENSSL_ia32cap masks rdrand=yes rdseed=yes"), r.stderr());
    }
}
