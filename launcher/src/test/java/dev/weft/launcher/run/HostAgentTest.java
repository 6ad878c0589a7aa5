package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.auth.SharedToken;
import dev.weft.text.Hex;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host agent's rules, spoken to over its control channel by a raw client: nothing runs for a master that has
 * not proved the token; an authenticated master may set a node's environment but not the deny-list (docs/broker.md); a spawned node's output and
 * exit come back as events; the agent proves the token back and a master refuses an agent that cannot. The agent
 * runs in this JVM. About 1 s.
 */
class HostAgentTest {
    static final SharedToken TOKEN = SharedToken.of("agent secret");

    @TempDir
    Path dir;

    @RegisterExtension
    final AgentInThisJvm agent = new AgentInThisJvm(TOKEN);

    private ControlChannel connect() throws Exception {
        return new ControlChannel(new Socket("127.0.0.1", agent.port()));
    }

    private static ControlLine spawn(long node, List<String> argv, Map<String, String> env) {
        return ControlLine.of("op", "spawn", "node", node, "host_id", 2L, "broker", "127.0.0.1:9", "argv", argv,
                "env", env, "pid_namespace", false, "aslr_off", false);
    }

    @Test
    void aSpawnRequestWithoutTheTokenIsRefusedAndNothingRuns() throws Exception {
        Path marker = dir.resolve("ran");
        try (ControlChannel c = connect()) {
            ControlLine hello = c.receive();
            assertEquals(64, hello.string("challenge").length(), "a 32-byte challenge");
            c.send(spawn(0, List.of("touch", marker.toString()), Map.of()));
            ControlLine answer = c.receive();
            assertEquals("refused", answer.string("event"));
            assertEquals("missing token", answer.string("reason"));
            assertTrue(c.socket().getInputStream().read() < 0, "then the agent hangs up");
            int port = c.socket().getLocalPort();
            assertTrue(agent.log().contains("weft hostd: refused master 127.0.0.1:" + port + ": missing token\n"), agent.log());
        }
        // Kept on purpose: this proves something does NOT happen. The agent has hung up, so a spawn it wrongly
        // started is already under way; the pause gives that touch time to leave its marker (no event to wait for).
        Thread.sleep(200);
        assertFalse(Files.exists(marker), "nothing ran");
    }

    @Test
    void anAnswerInAnotherRoleIsAWrongTokenAndTheAgentProvesNothingBack() throws Exception {
        try (ControlChannel c = connect()) {
            byte[] challenge = Hex.decode(c.receive().string("challenge"));
            // the broker's plain answer (what a relayed shim connection would give) is not a master's proof
            c.send(ControlLine.of("op", "auth", "answer", Hex.encodeLower(TOKEN.answer(challenge)), "challenge",
                    Hex.encodeLower(new byte[SharedToken.LENGTH])));
            ControlLine answer = c.receive();
            assertEquals("refused", answer.string("event"));
            assertEquals("wrong token", answer.string("reason"));
            assertEquals(null, answer.stringOr("proof", null), "no proof for a master that did not prove itself");
        }
    }

    /** A fake agent on loopback: it sends a challenge, ignores the master's answer and says ready with {@code proof}. */
    private static String connectToFakeAgent(java.util.function.Function<byte[], String> proof) throws Exception {
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            Thread fake = new Thread(() -> {
                try (Socket s = server.accept(); ControlChannel c = new ControlChannel(s)) {
                    c.send(ControlLine.of("hostd", 1L, "challenge", Hex.encodeLower(new byte[SharedToken.LENGTH])));
                    byte[] masters = Hex.decode(c.receive().string("challenge"));
                    String p = proof.apply(masters);
                    c.send(p == null ? ControlLine.of("event", "ready", "host", "fake")
                            : ControlLine.of("event", "ready", "host", "fake", "proof", p));
                    c.receive(); // until the master hangs up
                } catch (Exception e) {
                    // the master hung up
                }
            }, "fake-hostd");
            fake.setDaemon(true);
            fake.start();
            String address = "127.0.0.1:" + server.getLocalPort();
            try {
                RemoteHost h = RemoteHost.connect(address, 1, TOKEN, lost -> { });
                h.close();
                return "accepted";
            } catch (RemoteHost.HostException e) {
                return e.getMessage().replace(address, "ADDR");
            } finally {
                fake.join(5000);
            }
        }
    }

    @Test
    void aMasterRefusesAnAgentThatDoesNotProveTheTokenBack() throws Exception {
        assertEquals("host ADDR did not prove the token back (no proof; is it a weft hostd given the same token"
                + " file?)", connectToFakeAgent(c -> null));
        assertEquals("host ADDR did not prove the token back (wrong token; is it a weft hostd given the same token"
                + " file?)", connectToFakeAgent(c -> Hex.encodeLower(SharedToken.of("guess").answer(
                        SharedToken.Role.AGENT, c))));
        // the master's own answer reflected back is not an agent's proof
        assertEquals("host ADDR did not prove the token back (wrong token; is it a weft hostd given the same token"
                + " file?)", connectToFakeAgent(c -> Hex.encodeLower(TOKEN.answer(SharedToken.Role.MASTER, c))));
        // the test's fake is sound: with the right proof the same exchange is accepted
        assertEquals("accepted", connectToFakeAgent(c -> Hex.encodeLower(TOKEN.answer(SharedToken.Role.AGENT, c))));
    }

    @Test
    void anAuthenticatedMasterMaySetOnlyTheShimsVariablesAndGetsOutputAndExit() throws Exception {
        try (ControlChannel c = connect()) {
            byte[] challenge = Hex.decode(c.receive().string("challenge"));
            byte[] ours = new byte[SharedToken.LENGTH];
            ours[0] = 7;
            c.send(ControlLine.of("op", "auth", "answer",
                    Hex.encodeLower(TOKEN.answer(SharedToken.Role.MASTER, challenge)), "challenge", Hex.encodeLower(ours)));
            ControlLine ready = c.receive();
            assertEquals("ready", ready.string("event"));
            assertEquals(Hex.encodeLower(TOKEN.answer(SharedToken.Role.AGENT, ours)), ready.string("proof"),
                    "the agent proves the token back, in its own role");
            c.send(spawn(3, List.of("true"), Map.of("LD_PRELOAD", "/tmp/evil.so")));
            ControlLine refused = c.receive();
            assertEquals("failed", refused.string("event"));
            assertEquals("variable LD_PRELOAD cannot be set by a master (the loader's, PATH and weft's per-node"
                    + " variables stay this host's)", refused.string("reason"));
            c.send(spawn(3, List.of("true"), Map.of("PATH", "/tmp/evil")));
            assertEquals("failed", c.receive().string("event"), "programs are found through the agent's own PATH");
            c.send(spawn(3, List.of("true"), Map.of("WEFT_BROKER", "/tmp/elsewhere")));
            assertEquals("failed", c.receive().string("event"), "the broker endpoint is the agent's own relay");
            c.send(spawn(3, List.of("sh", "-c", "echo node=$WEFT_NODE_ID host=$WEFT_HOST_ID seed=$WEFT_SEED"),
                    Map.of("WEFT_SEED", "7")));
            assertEquals("started", c.receive().string("event"));
            ControlLine out = c.receive();
            assertEquals("out", out.string("event"));
            assertEquals("out", out.string("stream"));
            assertEquals("node=3 host=2 seed=7\n",
                    new String(Base64.getDecoder().decode(out.string("data")), StandardCharsets.UTF_8));
            ControlLine exit = c.receive();
            assertEquals("exit", exit.string("event"));
            assertEquals(0, exit.number("status"));
        }
    }
}
