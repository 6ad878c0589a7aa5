package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.auth.SharedToken;
import dev.weft.launcher.mutation.Mutator;
import dev.weft.text.Hex;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation sweep for the host agent's handshake (issue 28), both ways. Toward {@code weft hostd}: seeded mutants
 * of a master's auth line (and of a spawn sent in its place) each end in a refusal or a closed channel, one log line
 * each, nothing started, no exception; a line past 4096 bytes before authentication is refused without reading on.
 * Toward the master: mutants of an agent's hello and verdict lines each end in one {@link RemoteHost.HostException}
 * line. Prints its counts.
 */
class HostHandshakeMutationTest {
    static final SharedToken TOKEN = SharedToken.of("sweep token");
    static final int CASES = Integer.getInteger("weft.mutation.handshake.cases", 400);

    @TempDir
    Path dir;

    @Test
    void everyMutantMasterIsRefusedInOneLineAndNothingRuns() throws Exception {
        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        Path marker = dir.resolve("ran");
        try (HostAgent agent = new HostAgent(TOKEN, dir.resolve("no-shim.so"), Map.of("PATH", "/usr/bin:/bin"),
                new PrintStream(logBytes, true, StandardCharsets.UTF_8), new InetSocketAddress("127.0.0.1", 0))) {
            Thread t = new Thread(agent::serve, "sweep-hostd");
            t.setDaemon(true);
            t.start();
            SplittableRandom r = new SplittableRandom(28);
            Map<String, Integer> outcomes = new TreeMap<>();
            for (int i = 0; i < CASES; i++) {
                try (Socket s = new Socket("127.0.0.1", agent.address().getPort())) {
                    s.setSoTimeout(10_000);
                    ControlChannel c = new ControlChannel(s);
                    byte[] challenge = Hex.decode(c.receive().string("challenge"));
                    String good = i % 2 == 0
                            ? ControlLine.of("op", "auth", "answer", Hex.encodeLower(TOKEN.answer(SharedToken.Role.MASTER,
                                    challenge)), "challenge", Hex.encodeLower(new byte[SharedToken.LENGTH]), "silence_ms",
                                    5000L).text()
                            : ControlLine.of("op", "spawn", "node", 0L, "host_id", 1L, "broker", "127.0.0.1:9", "argv",
                                    java.util.List.of("touch", marker.toString()), "env", Map.of()).text();
                    byte[] mutant = Mutator.mutate(good.getBytes(StandardCharsets.UTF_8), r);
                    String answer;
                    try {
                        OutputStream o = s.getOutputStream();
                        o.write(mutant);
                        o.write('\n');
                        o.flush();
                        s.shutdownOutput();
                    } catch (java.io.IOException hungUp) {
                        // the agent refused an earlier line of the mutant and closed while we wrote the rest
                    }
                    try {
                        answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    } catch (java.io.IOException reset) {
                        answer = "";
                    }
                    outcomes.merge(answer.contains("\"ready\"") ? "accepted (mutant still proves the token)"
                            : answer.contains("\"refused\"") ? "refused" : "closed", 1, Integer::sum);
                }
            }
            // one line longer than the handshake allows: refused without the agent reading (or keeping) it all
            try (Socket s = new Socket("127.0.0.1", agent.address().getPort())) {
                s.setSoTimeout(10_000);
                InputStream in = s.getInputStream();
                new ControlChannel(s).receive();
                byte[] big = new byte[64 * 1024];
                java.util.Arrays.fill(big, (byte) 'x');
                try {
                    s.getOutputStream().write(big);
                } catch (java.io.IOException closed) {
                    // the agent may hang up before all of it is sent
                }
                String answer;
                try {
                    answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                } catch (java.io.IOException reset) {
                    answer = "(reset)";
                }
                assertTrue(answer.contains("a control line longer than 4096 bytes") || answer.equals("(reset)"), answer);
            }
            for (int i = 0; i < 100 && count(logBytes, "weft hostd: ") < CASES + 1; i++) {
                Thread.sleep(20);
            }
            String log = logBytes.toString(StandardCharsets.UTF_8);
            assertTrue(log.contains("missing token (a control line longer than 4096 bytes)"), log);
            System.out.println("host agent handshake sweep: " + CASES + " mutant masters, " + outcomes);
            assertFalse(Files.exists(marker), "nothing ran for a mutant master");
            assertFalse(log.contains("Exception") || log.contains("\tat "), log);
            for (String line : log.split("\n")) {
                assertTrue(line.startsWith("weft hostd: "), line);
            }
            assertTrue(outcomes.getOrDefault("refused", 0) > CASES / 2, outcomes.toString());
        }
    }

    private static long count(ByteArrayOutputStream b, String what) {
        String s = b.toString(StandardCharsets.UTF_8);
        long n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void everyMutantAgentIsRefusedByTheMasterInOneLine() throws Exception {
        SplittableRandom r = new SplittableRandom(29);
        Map<String, Integer> outcomes = new TreeMap<>();
        for (int i = 0; i < CASES / 2; i++) {
            boolean mutateHello = i % 2 == 0;
            try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                Thread fake = new Thread(() -> {
                    try (Socket s = server.accept()) {
                        s.setSoTimeout(10_000);
                        ControlChannel c = new ControlChannel(s);
                        byte[] ours = new byte[SharedToken.LENGTH];
                        String hello = ControlLine.of("hostd", 2L, "challenge", Hex.encodeLower(ours)).text();
                        OutputStream o = s.getOutputStream();
                        if (mutateHello) {
                            o.write(Mutator.mutate(hello.getBytes(StandardCharsets.UTF_8), r));
                            o.write('\n');
                            o.flush();
                        } else {
                            c.send(ControlLine.parse(hello));
                        }
                        byte[] masters = Hex.decode(c.receive().string("challenge"));
                        String ready = ControlLine.of("event", "ready", "host", "fake", "proof",
                                Hex.encodeLower(TOKEN.answer(SharedToken.Role.AGENT, masters))).text();
                        o.write(mutateHello ? ready.getBytes(StandardCharsets.UTF_8)
                                : Mutator.mutate(ready.getBytes(StandardCharsets.UTF_8), r));
                        o.write('\n');
                        o.flush();
                        s.shutdownOutput();
                        s.getInputStream().readAllBytes();
                    } catch (Exception e) {
                        // the master hung up
                    }
                }, "mutant-hostd");
                fake.setDaemon(true);
                fake.start();
                String address = "127.0.0.1:" + server.getLocalPort();
                try {
                    RemoteHost h = RemoteHost.connect(address, 1, TOKEN, lost -> { }, PeerSilence.of(5000));
                    h.close();
                    outcomes.merge("accepted", 1, Integer::sum);
                } catch (RemoteHost.HostException e) {
                    assertTrue(e.getMessage().startsWith("host " + address) && !e.getMessage().contains("\n"),
                            e.getMessage());
                    outcomes.merge("refused", 1, Integer::sum);
                } catch (RuntimeException e) {
                    throw new AssertionError("mutant agent " + i + " escaped with " + e, e);
                }
                fake.join(10_000);
            }
        }
        System.out.println("master handshake sweep: " + CASES / 2 + " mutant agents, " + outcomes);
        assertTrue(outcomes.getOrDefault("refused", 0) > 0, outcomes.toString());
    }
}
