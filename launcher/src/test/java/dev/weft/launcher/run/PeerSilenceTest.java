package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.auth.SharedToken;
import dev.weft.text.Hex;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 28 item 4: every wait between a master and a host agent is bounded in real time. A stopped (silent) agent
 * is named by the master after the bound; a silent master loses its nodes on the agent after the bound it
 * announced; a live pair idle for longer than the bound stays connected (pings).
 */
class PeerSilenceTest {
    static final SharedToken TOKEN = HostAgentTest.TOKEN;
    static final PeerSilence BOUND = PeerSilence.of(400);

    @RegisterExtension
    final AgentInThisJvm agent = new AgentInThisJvm(TOKEN);

    @Test
    void aLiveAgentIdleLongerThanTheBoundStaysConnected() throws Exception {
        CompletableFuture<RemoteHost> lost = new CompletableFuture<>();
        RemoteHost h = RemoteHost.connect("127.0.0.1:" + agent.port(), 1, TOKEN, lost::complete, BOUND);
        try {
            Thread.sleep(4 * BOUND.boundMs());
            assertFalse(h.lost(), "pings keep an idle channel alive");
            assertFalse(agent.log().contains("silent"), agent.log());
        } finally {
            h.close();
        }
    }

    @Test
    void aStoppedAgentIsNamedAfterTheBound() throws Exception {
        // a fake agent that completes the handshake (protocol 2) and then never says another word, like SIGSTOP
        try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread fake = new Thread(() -> {
                try (Socket s = server.accept(); ControlChannel c = new ControlChannel(s)) {
                    c.send(ControlLine.of("hostd", 2L, "challenge", Hex.encodeLower(new byte[SharedToken.LENGTH])));
                    ControlLine auth = c.receive();
                    assertEquals(BOUND.boundMs(), auth.number("silence_ms"));
                    byte[] masters = Hex.decode(auth.string("challenge"));
                    c.send(ControlLine.of("event", "ready", "host", "fake", "proof",
                            Hex.encodeLower(TOKEN.answer(SharedToken.Role.AGENT, masters))));
                    while (s.getInputStream().read() >= 0) {
                        // reads the pings, answers nothing
                    }
                } catch (Exception e) {
                    // the master hung up
                }
            }, "stopped-hostd");
            fake.setDaemon(true);
            fake.start();
            CompletableFuture<RemoteHost> lost = new CompletableFuture<>();
            RemoteHost h = RemoteHost.connect("127.0.0.1:" + server.getLocalPort(), 1, TOKEN, lost::complete, BOUND);
            for (int i = 0; i < 100 && !h.lost(); i++) {
                Thread.sleep(50);
            }
            assertTrue(h.lost(), "the silent agent counts as lost within the bound");
            assertEquals("silent for 0.4 s (a stopped agent or a cut network)", h.lostHow());
            fake.join(5000);
            assertFalse(fake.isAlive(), "the master closed the channel");
        }
    }

    @Test
    void aSilentMasterLosesItsNodesAfterTheBoundItAnnounced() throws Exception {
        Socket s = new Socket("127.0.0.1", agent.port());
        ControlChannel c = new ControlChannel(s);
        byte[] challenge = Hex.decode(c.receive().string("challenge"));
        assertEquals(HostAgent.PROTOCOL, 2);
        c.send(ControlLine.of("op", "auth", "answer", Hex.encodeLower(TOKEN.answer(SharedToken.Role.MASTER, challenge)),
                "challenge", Hex.encodeLower(new byte[SharedToken.LENGTH]), "silence_ms", BOUND.boundMs()));
        assertEquals("ready", c.receive().string("event"));
        c.send(ControlLine.of("op", "ping"));
        assertEquals("pong", c.receive().string("event"));
        c.send(ControlLine.of("op", "spawn", "node", 4L, "host_id", 1L, "broker", "127.0.0.1:9", "argv",
                List.of("sleep", "30"), "env", Map.of(), "pid_namespace", false, "aslr_off", false));
        ControlLine started = c.receive();
        assertEquals("started", started.string("event"));
        ProcessHandle node = ProcessHandle.of(started.number("pid")).orElseThrow();
        // the master now says nothing (a SIGSTOPped weft run): the agent gives up on it and kills its node
        assertTrue(node.onExit().get(20, TimeUnit.SECONDS) != null);
        for (int i = 0; i < 100 && !agent.log().contains("silent"); i++) {
            Thread.sleep(20);
        }
        assertTrue(agent.log().contains("weft hostd: master 127.0.0.1:" + s.getLocalPort() + " silent for 0.4 s (stopped, or"
                + " the network is cut); killing its node(s)\n"), agent.log());
        s.close();
    }
}
