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
    @TempDir
    Path dir;

    @Test
    void aTokenFileIsItsTextWithoutTrailingWhiteSpace() throws Exception {
        Path f = Files.writeString(dir.resolve("tok"), "s3cret\n");
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
        Path empty = Files.writeString(dir.resolve("empty"), " \n");
        SharedToken.InvalidTokenFileException e = assertThrows(SharedToken.InvalidTokenFileException.class,
                () -> SharedToken.read(empty));
        assertEquals(empty + ": the token file is empty", e.getMessage());
        Path missing = dir.resolve("missing");
        e = assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(missing));
        assertEquals(missing + ": no such file", e.getMessage());
        Path big = Files.write(dir.resolve("big"), new byte[5000]);
        e = assertThrows(SharedToken.InvalidTokenFileException.class, () -> SharedToken.read(big));
        assertTrue(e.getMessage().contains("at most 4096 bytes"), e.getMessage());
    }

    @Test
    void theOptionWinsOverTheVariableAndNeitherMeansNoToken() throws Exception {
        Path a = Files.writeString(dir.resolve("a"), "aaa");
        Path b = Files.writeString(dir.resolve("b"), "bbb");
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
