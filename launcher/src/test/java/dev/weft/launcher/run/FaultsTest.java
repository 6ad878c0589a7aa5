package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File faults: ENOSPC after N bytes, torn (short) writes, fsync lies; all seed-deterministic. */
class FaultsTest {
    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private NativeFixture.Result faults(String seed, String... options) {
        String[] args = new String[options.length + 5];
        args[0] = "--seed";
        args[1] = seed;
        System.arraycopy(options, 0, args, 2, options.length);
        args[options.length + 2] = "--";
        args[options.length + 3] = NativeFixture.testProgram("faults").toString();
        args[options.length + 4] = dir.resolve("out.bin").toString();
        return NativeFixture.weftRun(args);
    }

    @Test
    void noFaultsByDefault() {
        assertEquals("written=10000 size=10000 short_writes=0 stop=none fsync=0\n", faults("5").stdout());
    }

    @Test
    void enospcAfterTheBudget() {
        assertEquals("written=5050 size=5050 short_writes=1 stop=ENOSPC fsync=0\n",
                faults("5", "--enospc-after", "5050").stdout());
    }

    @Test
    void tornWritesAreShortButSeedDeterministic() {
        var a = faults("5", "--torn-writes", "300000");
        assertEquals(a, faults("5", "--torn-writes", "300000"));
        assertTrue(a.stdout().startsWith("written=10000 size=10000 short_writes="), a.stdout());
        assertTrue(!a.stdout().contains("short_writes=0 "), a.stdout());
        assertNotEquals(a.stdout(), faults("6", "--torn-writes", "300000").stdout());
    }

    @Test
    void fsyncLiesAreTraced() {
        var r = faults("5", "--fsync-lies", "--trace");
        assertTrue(r.stderr().contains("[weft] trace fsync("), r.stderr());
        assertTrue(r.stderr().contains("(lie))"), r.stderr());
    }
}
