package dev.weft.broker.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared token: file rules, the option/variable precedence, and challenge answers. */
class SharedTokenTest {
    static final java.util.Set<java.nio.file.attribute.PosixFilePermission> OWNER_ONLY =
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------");

    @TempDir
    Path dir;

    static Path privateFile(Path p, String text) throws java.io.IOException {
        return Files.setPosixFilePermissions(Files.writeString(p, text), OWNER_ONLY);
    }

    /** Issue 28 item 3: a token others may read is refused with the chmod that fixes it; a link is named. */
    @Test
    void aTokenFileOthersMayReadIsRefusedWithTheFix() throws Exception {
        Path open = Files.writeString(dir.resolve("open"), "s3cret\n");
        for (String mode : new String[] {"rw-r--r--", "rw-rw-rw-", "rw----r--", "rw-r-----"}) {
            Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString(mode));
            SharedToken.InvalidTokenFileException e = assertThrows(SharedToken.InvalidTokenFileException.class,
                    () -> SharedToken.read(open), mode);
            assertTrue(e.getMessage().startsWith(open + ": mode 0"), e.getMessage());
            assertTrue(e.getMessage().endsWith("so it is no secret; make it private with: chmod go-rwx " + open),
                    e.getMessage());
        }
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(open + ": mode 0644 lets group and others at the token, so it is no secret; make it private with:"
                + " chmod go-rwx " + open, assertThrows(SharedToken.InvalidTokenFileException.class,
                        () -> SharedToken.read(open)).getMessage());
        Path link = Files.createSymbolicLink(dir.resolve("link"), open);
        assertTrue(assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(link))
                .getMessage().startsWith(link + " -> " + open + ": mode 0644"));
        Files.setPosixFilePermissions(open, OWNER_ONLY);
        byte[] c = TokenHandshake.challenge();
        assertArrayEquals(SharedToken.of("s3cret").answer(c), SharedToken.read(link).answer(c));
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("gone"));
        assertEquals(dangling + ": no such file (a symbolic link to a missing file)",
                assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(dangling)).getMessage());
    }

    @Test
    void aTokenFileIsItsTextWithoutTrailingWhiteSpace() throws Exception {
        Path f = privateFile(dir.resolve("tok"), "s3cret\n");
        byte[] challenge = TokenHandshake.challenge();
        assertArrayEquals(SharedToken.of("s3cret").answer(challenge), SharedToken.read(f).answer(challenge));
    }

    @Test
    void anAnswerProvesTheTokenForThatChallengeOnly() {
        SharedToken t = SharedToken.of("alpha");
        byte[] c1 = TokenHandshake.challenge();
        byte[] c2 = TokenHandshake.challenge();
        assertTrue(t.accepts(c1, t.answer(c1)));
        assertFalse(t.accepts(c2, t.answer(c1)), "a recorded answer is useless for the next challenge");
        assertFalse(t.accepts(c1, SharedToken.of("beta").answer(c1)), "another token's answer");
        assertFalse(t.accepts(c1, new byte[5]), "a short answer");
        assertEquals(SharedToken.LENGTH, t.answer(c1).length);
    }

    @Test
    void badTokenFilesAreNamedWithWhatIsWrong() throws Exception {
        Path empty = privateFile(dir.resolve("empty"), " \n");
        SharedToken.InvalidTokenFileException e = assertThrows(SharedToken.InvalidTokenFileException.class,
                () -> SharedToken.read(empty));
        assertEquals(empty + ": the token file is empty", e.getMessage());
        Path missing = dir.resolve("missing");
        e = assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(missing));
        assertEquals(missing + ": no such file", e.getMessage());
        Path big = Files.setPosixFilePermissions(Files.write(dir.resolve("big"), new byte[5000]), OWNER_ONLY);
        e = assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(big));
        assertTrue(e.getMessage().contains("at most 4096 bytes"), e.getMessage());
    }

    @Test
    void theOptionWinsOverTheVariableAndNeitherMeansNoToken() throws Exception {
        Path a = privateFile(dir.resolve("a"), "aaa");
        Path b = privateFile(dir.resolve("b"), "bbb");
        byte[] c = TokenHandshake.challenge();
        Map<String, String> env = Map.of(SharedToken.ENV, b.toString());
        assertArrayEquals(SharedToken.of("aaa").answer(c), SharedToken.resolve(a, env).orElseThrow().answer(c));
        assertArrayEquals(SharedToken.of("bbb").answer(c), SharedToken.resolve(null, env).orElseThrow().answer(c));
        assertTrue(SharedToken.resolve(null, Map.of()).isEmpty());
        assertTrue(SharedToken.resolve(null, Map.of(SharedToken.ENV, "")).isEmpty());
        SharedToken.InvalidTokenFileException e = assertThrows(SharedToken.InvalidTokenFileException.class,
                () -> SharedToken.resolve(null, Map.of(SharedToken.ENV, dir.resolve("nope").toString())));
        assertTrue(e.getMessage().startsWith("WEFT_TOKEN_FILE=" + dir.resolve("nope")), e.getMessage());
    }

    @Test
    void eachRoleAnswersDifferentlySoNoAnswerPassesAsAnothersProof() {
        SharedToken t = SharedToken.of("alpha");
        byte[] c = new byte[SharedToken.LENGTH];
        c[3] = 9;
        byte[] plain = t.answer(c);
        byte[] master = t.answer(SharedToken.Role.MASTER, c);
        byte[] agent = t.answer(SharedToken.Role.AGENT, c);
        assertTrue(t.accepts(SharedToken.Role.MASTER, c, master));
        assertTrue(t.accepts(SharedToken.Role.AGENT, c, agent));
        assertFalse(t.accepts(SharedToken.Role.AGENT, c, master), "a master's answer is not an agent's proof");
        assertFalse(t.accepts(SharedToken.Role.MASTER, c, agent), "an agent's proof is not a master's answer");
        assertFalse(t.accepts(SharedToken.Role.MASTER, c, plain), "a broker answer is not a master's answer");
        assertFalse(t.accepts(c, master), "a master's answer does not open a broker connection");
        assertFalse(t.accepts(SharedToken.Role.AGENT, c, SharedToken.of("beta").answer(SharedToken.Role.AGENT, c)),
                "another token's proof");
    }
}
