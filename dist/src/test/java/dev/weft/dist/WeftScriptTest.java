package dev.weft.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checkout's {@code weft} script passes unreadable files to weft, which names the problem once, instead of
 * leaking the shell's own errors ("line 47: …: Permission denied", "((: > 16000000 : syntax error"; issue 12,
 * defect 6).
 */
class WeftScriptTest {

    @Test
    void anUnreadableRecordingGivesOnlyWeftsMessage(@TempDir Path tmp) throws Exception {
        Path log = tmp.resolve("secret.weftlog");
        Files.writeString(log, "{}\n");
        Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("---------"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        String asUser = "";
        if ("root".equals(System.getProperty("user.name"))) {
            // root reads any file: run the script as 'nobody', for whom the file is unreadable.
            Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv (util-linux) as root");
            asUser = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
            Repo.Result canRun = Repo.bash(asUser + "test -r weft -a -r launcher/target/weft-launcher.jar", Map.of(), tmp);
            Assumptions.assumeTrue(canRun.code() == 0, "'nobody' cannot read this checkout (a private home directory)");
        }
        Repo.Result r = Repo.bash(asUser + "./weft replay " + log, Map.of(), tmp);
        assertEquals(1, r.code(), r.output());
        assertEquals("weft replay: " + log + ": I/O error: Permission denied (os error 13)\n", r.output());
    }
}
