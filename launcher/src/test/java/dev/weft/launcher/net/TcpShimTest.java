package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import dev.weft.launcher.run.ShimRuns;
import dev.weft.testsupport.NativeBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shim's simulated TCP sockets (docs/shim.md "TCP"): shim-native/tests/tcp_basic runs one scenario per
 * process as node 0, its server and clients forked processes of one tree, against {@link TcpWireBroker}, a
 * stand-in written from docs/design/protocol-v3.md until the real broker speaks TCP (then these scenarios
 * run against it too: tcp-broker's end-to-end tests).
 */
class TcpShimTest {
    /** What each tcp_basic scenario prints (the real broker's end-to-end test runs them too: TcpEndToEndTest). */
    static final Map<String, String> TRANSCRIPTS = Map.ofEntries(
            Map.entry("echo", """
                listening on 127.0.0.1:7000
                client 127.0.0.1:40000 -> 127.0.0.1:7000
                client got: "echo:hello"
                server got: "hello" from port 40000 (len 16); accepted 127.0.0.1:7000 <- 127.0.0.1:40000; then read 0
                """),
            Map.entry("nbconnect", """
                non-blocking connect: -1 Operation now in progress
                poll: 1 revents POLLOUT
                SO_ERROR: 0; peer 127.0.0.1:7001
                accepted: yes
                connect to nothing (non-blocking): -1 Operation now in progress
                poll: 1 POLLERR POLLHUP
                SO_ERROR: Connection refused
                connect to nothing (blocking): -1 Connection refused
                """),
            Map.entry("epoll", """
                accepted 3, closed 3, waits > 0: 1
                server got: client 0
                server got: client 1
                server got: client 2
                """),
            Map.entry("shutdown", """
                client got 8 bytes after its shutdown: "response"
                server read 7 bytes then EOF: "request"
                """),
            Map.entry("epipe", """
                read after the peer closed: 0
                send MSG_NOSIGNAL: -1 Broken pipe, SIGPIPEs 0
                write: -1 Broken pipe, SIGPIPEs 1
                """),
            Map.entry("forkserver", """
                client got 29: "pong from the worker for ping"
                server: worker and client done; still listening: 127.0.0.1:7005
                """),
            Map.entry("execcat", """
                client got 21: through cat
                and back
                cat exited
                """),
            Map.entry("options", """
                TCP_NODELAY 1 SO_KEEPALIVE 1 TCP_KEEPIDLE 30 SO_RCVBUF 8192 SO_TYPE SOCK_STREAM SO_LINGER {1,5}
                FIONREAD 10; peek 4 "0123"; read 3 "012"
                MSG_WAITALL: 13 "3456789abcdef"
                O_NONBLOCK reported 1; empty read: -1 Resource temporarily unavailable
                MSG_DONTWAIT: -1 Resource temporarily unavailable
                SO_RCVTIMEO read: -1 Resource temporarily unavailable after 2500 virtual ms
                select, nothing to read: 0
                select after a write: 2 readable 1 writable 1
                """),
            Map.entry("twice", """
                nothing to read: rc 1, in 0 out 1
                data: rc 2, in 1 out 1; events kept 1 1
                """),
            Map.entry("duplex", """
                peer got "ping"; the reader got "pong"
                """),
            Map.entry("reset", """
                after closing one copy: poll 0
                read after the reset: -1 Connection reset by peer
                """),
            Map.entry("idlewait", """
                poll on a pipe: 0 after 1000 virtual ms
                epoll on a pipe: 0 after 500 virtual ms
                """),
            Map.entry("sendfile", """
                sendfile: 8, offset now 12
                splice to a pipe: 8; the pipe holds "456789ab"
                splice from a pipe: 4; the peer got "back"
                """));

    private TcpWireBroker broker;

    @BeforeEach
    void start() throws IOException {
        NativeFixture.assumeBuilt();
        broker = TcpWireBroker.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }

    private Map<String, String> env() {
        Map<String, String> env = ShimRuns.seededEnv("1");
        env.put("WEFT_BROKER", broker.endpoint());
        env.put("WEFT_NODE_ID", "0");
        return env;
    }

    private NativeFixture.Result run(Map<String, String> env, String scenario) {
        List<String> argv = new ArrayList<>(List.of(NativeFixture.testProgram("tcp_basic").toString(), scenario));
        return NativeFixture.exec(argv, env);
    }

    private void assertOutput(String scenario) {
        var r = run(env(), scenario);
        assertEquals(0, r.exit(), r.stdout() + r.stderr());
        assertEquals(TRANSCRIPTS.get(scenario), r.stdout(), r.stderr());
    }

    @Test
    void echoOverABlockingConnection() {
        assertOutput("echo");
    }

    @Test
    void nonBlockingConnectPollAndSoErrorAndRefusals() {
        assertOutput("nbconnect");
    }

    @Test
    void edgeTriggeredEpollServerWithThreeClients() {
        assertOutput("epoll");
    }

    @Test
    void shutdownWriteIsEofAtThePeer() {
        assertOutput("shutdown");
    }

    @Test
    void writeToAClosedPeerIsEpipeAndSigpipeUnlessNoSignal() {
        assertOutput("epipe");
    }

    /** The accepted socket survives fork: a worker process serves it, the parent's close is not the FIN. */
    @Test
    void forkPerConnectionServer() {
        assertOutput("forkserver");
    }

    /** dup2 onto stdin and stdout, then exec: cat's reads and writes are the simulated stream (WEFT_TCP). */
    @Test
    void dup2OntoStdioAndExecOfCat() {
        assertOutput("execcat");
    }

    @Test
    void optionsPeekWaitallNonblockingAndVirtualTimeouts() {
        assertOutput("options");
    }

    /** nc polls its socket twice in one call (for reading, for writing): armed once, answered for both entries. */
    @Test
    void oneSocketListedTwiceInAPoll() {
        assertOutput("twice");
    }

    /** A managed thread blocked reading a socket while another writes on it: the write takes the wait back and re-arms it. */
    @Test
    void oneThreadReadsWhileAnotherWrites() {
        assertOutput("duplex");
    }

    /** SO_LINGER {1,0}: the last close (not an earlier one of a dup) sends TcpAbort, so the peer reads ECONNRESET. */
    @Test
    void lingerZeroCloseIsAReset() {
        assertOutput("reset");
    }

    @Test
    void sendfileAndSpliceMoveBytesThroughTheSimulatedSocket() {
        assertOutput("sendfile");
    }

    /**
     * A cluster node's timed wait on ordinary fds only (an asyncio client sleeping between connect retries: its
     * selector watches the self-pipe) takes its timeout in virtual time; the clock used to stand still, so the
     * retry never came.
     */
    @Test
    void aNodesTimedWaitWithoutSocketsElapsesInVirtualTime() {
        assertOutput("idlewait");
    }

    /** --stats says how many TCP sockets were simulated; a socket of another family still passes through. */
    @Test
    void statsCountSimulatedAndPassedThroughSockets() {
        Map<String, String> env = env();
        env.put("WEFT_SCHED_STATS", "1");
        var r = run(env, "nbconnect");
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stderr().contains("[weft] tcp: 4 simulated TCP socket(s), 1 accepted connection(s); "
                + "0 TCP socket(s) passed through"), r.stderr());
    }

    /**
     * A waiting socket costs the broker one request (an armed TcpWait), never a busy poll: a read that waits
     * 2.5 virtual seconds for nothing makes a bounded number of requests whatever the real time it takes.
     */
    @Test
    void aBlockedReadDoesNotPollTheBroker() {
        long before = broker.requests();
        var r = run(env(), "options");
        assertEquals(0, r.exit(), r.stderr());
        long used = broker.requests() - before;
        assertTrue(used < 120, "requests: " + used);
    }

    /** The C constants of shim-native/src/tcp_wire.h are the broker's (Wire: C REQ_TCP_BIND is Wire.TCP_BIND). */
    @Test
    void wireConstantsAreTheBrokers() throws Exception {
        String header = Files.readString(NativeBuild.root().resolve("shim-native/src/tcp_wire.h"));
        Matcher m = Pattern.compile("\\b(REQ_TCP_[A-Z]+|REP_[A-Z_]+) = (\\d+)").matcher(header);
        int n = 0;
        while (m.find()) {
            String java = m.group(1).replaceFirst("^RE[QP]_", "");
            assertEquals(dev.weft.broker.wire.Wire.class.getField(java).getInt(null), Integer.parseInt(m.group(2)),
                    m.group(1));
            n++;
        }
        assertEquals(25, n); // 13 requests (TcpClose included), 12 replies
    }
}
