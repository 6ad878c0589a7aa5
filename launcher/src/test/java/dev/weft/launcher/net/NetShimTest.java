package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.run.NativeFixture;
import dev.weft.launcher.run.ShimRuns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shim's network hooks (docs/shim.md "Network") against a wire-level broker written from the
 * spec ({@link WireBroker}): shim-native/tests/net_basic runs one scenario per process as node 0.
 * Adds about 3 s of test time.
 */
class NetShimTest {
    private WireBroker broker;

    @BeforeEach
    void start() throws IOException {
        NativeFixture.assumeBuilt();
        broker = WireBroker.start();
    }

    @AfterEach
    void stop() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }

    private Map<String, String> env(int node) {
        Map<String, String> env = ShimRuns.seededEnv("1");
        env.put("WEFT_BROKER", broker.endpoint());
        env.put("WEFT_NODE_ID", Integer.toString(node));
        return env;
    }

    private NativeFixture.Result run(String... args) {
        return run(env(0), args);
    }

    private NativeFixture.Result run(Map<String, String> env, String... args) {
        List<String> argv = new ArrayList<>(List.of(NativeFixture.testProgram("net_basic").toString()));
        argv.addAll(List.of(args));
        return NativeFixture.exec(argv, env);
    }

    private void assertOutput(String scenario, String expected) {
        var r = run(scenario);
        assertEquals(0, r.exit(), r.stderr());
        assertEquals(expected, r.stdout(), r.stderr());
    }

    @Test
    void bindSendReceiveAutoBindAndErrors() {
        assertOutput("basic", """
                name a: 127.0.0.1:4000 (len 16)
                name b: 127.0.0.1:4001 (len 16)
                b got: "hello" from 127.0.0.1:4000
                clock observations by the receive: 1
                name c before: 0.0.0.0:0 (len 16)
                name c after: 127.0.0.1:50000 (len 16)
                b got: "auto" from 127.0.0.1:50000
                c got: "back" from 127.0.0.1:4001
                short recv: 4 "trun"
                b peeked: "after" from 127.0.0.1:4000
                b got: "after" from 127.0.0.1:4000
                sendto bad family: -1 EINVAL
                sendto null buffer: -1 EFAULT
                recvfrom unbound: -1 EINVAL
                close: 0 0 0 0
                """);
    }

    @Test
    void nonBlockingReceivesSayEagain() {
        assertOutput("dontwait", """
                MSG_DONTWAIT on empty: EAGAIN
                O_NONBLOCK reported: 1
                O_NONBLOCK on empty: EAGAIN
                O_NONBLOCK with data: "now" from 127.0.0.1:4000
                MSG_DONTWAIT with data: "again" from 127.0.0.1:4000
                SOCK_NONBLOCK on empty: EAGAIN
                """);
    }

    /** SO_RCVTIMEO is virtual time: each timeout advances the clock by exactly 2.5 s. */
    @Test
    void receiveTimeoutsAreVirtual() {
        assertOutput("rcvtimeo", """
                SO_RCVTIMEO: 2.500000
                timed recv: EAGAIN
                virtual ms waited: 2500
                timed recv: EAGAIN
                virtual ms waited: 2500
                timed recv: EAGAIN
                virtual ms waited: 2500
                timed recv: "in time" from 127.0.0.1:4000
                virtual ms waited: 0
                """);
    }

    /** What tests/net_basic.c's poll scenario prints, whether the polling thread is the main one or a managed one. */
    private static final String POLL_TRANSCRIPT = """
                nothing: rc 0 pipe - socket -
                virtual ms waited: 1000
                pipe written: rc 1 pipe readable socket -
                datagram sent: rc 1 pipe - socket readable
                not read yet: rc 1 pipe - socket readable
                b got: "dgram" from 127.0.0.1:4000
                after reading: rc 0 pipe - socket -
                writable: 1 POLLOUT
                """;

    @Test
    void pollMixesAPipeAndASimulatedSocket() {
        assertOutput("poll", POLL_TRANSCRIPT);
    }

    /** The same in a scheduler-managed thread: the poll is a net wait of the model. */
    @Test
    void aManagedThreadPollsThemInTheModel() {
        assertOutput("threadpoll", POLL_TRANSCRIPT);
    }

    /**
     * Two managed threads as client and echo server, drawing rand() between steps: the schedule —
     * and so every value — is the same on every run of a seed, because net waiters are only
     * woken when no thread can run (never by the real time a reply takes).
     */
    @Test
    void threadsExchangingDatagramsAreReproducible() {
        // The client's 50 ms receive timeout must never fire: every ping is answered. By the pacing rule the
        // broker gets 50 ms / WEFT_NET_SPEEDUP of real time per answer once it has read the requests; with the
        // default 10 a broker thread preempted for 5 ms on a loaded machine changed the output. Speedup 1 gives it
        // the whole 50 ms (no slower: the timeout never runs out).
        Map<String, String> env = env(0);
        env.put("WEFT_NET_SPEEDUP", "1");
        var first = run(env, "threadecho");
        assertEquals(0, first.exit(), first.stderr());
        assertEquals(11, first.stdout().lines().count(), first.stdout());
        assertFalse(first.stdout().contains("EAGAIN"), first.stdout());
        for (int i = 0; i < 4; i++) {
            assertEquals(first.stdout(), run(env, "threadecho").stdout(), "run " + (i + 2));
        }
        Map<String, String> other = new java.util.HashMap<>(env);
        other.put("WEFT_SEED", "2");
        assertFalse(first.stdout().equals(run(other, "threadecho").stdout()), "another seed, another schedule");
    }

    @Test
    void selectAndEpollMixThemToo() {
        assertOutput("select", """
                select: rc 0 pipe 0 socket 0 (virtual ms 1000)
                select: rc 1 pipe 0 socket 1 (virtual ms 0)
                b got: "sel" from 127.0.0.1:4000
                """);
        assertOutput("epoll", """
                epoll nothing: rc 0 (virtual ms 500)
                epoll datagram: rc 1 tag 2
                b got: "ep" from 127.0.0.1:4000
                epoll pipe: rc 1 tag 1
                """);
    }

    @Test
    void sendmsgGathersAndRecvmsgScatters() {
        assertOutput("msg", """
                sendmsg: 9
                recvmsg: 9 "scat" + "tered" from port 4000 flags 0
                recvmsg small: 3 "sca" flags MSG_TRUNC
                recv MSG_TRUNC: 9
                """);
    }

    @Test
    void connectedSocketsUseSendRecvReadWriteAndHearOnlyTheirPeer() {
        assertOutput("connect", """
                getpeername before: -1 ENOTCONN
                send unconnected: -1 EDESTADDRREQ
                connect: 0
                getpeername: port 4001
                send: 8
                write: 9
                b got: "via send" from 127.0.0.1:4000
                b got: "via write" from 127.0.0.1:4000
                read: 13 "from the peer"
                disconnect: 0
                getpeername after: -1 ENOTCONN
                """);
    }

    @Test
    void socketOptionsStayInTheShim() {
        assertOutput("sockopt", """
                SO_TYPE dgram: 1
                SO_DOMAIN inet: 1
                SO_REUSEADDR: 0
                SO_REUSEADDR back: 1
                unknown option: -1 ENOPROTOOPT
                short option: -1 EINVAL
                """);
    }

    /** IPv6 TCP and AF_UNIX sockets pass through untouched, and --stats says how many did. */
    @Test
    void otherSocketsPassThroughAndAreCounted() {
        Map<String, String> env = env(0);
        env.put("WEFT_SCHED_STATS", "1");
        var r = run(env, "passthrough");
        assertEquals("tcp6 is a real stream socket: 1\nunix socket: 1\nudp simulated: 1\n", r.stdout(), r.stderr());
        assertTrue(r.stderr().contains("[weft] network: 1 simulated UDP socket(s), 1 broker request(s); "
                + "passed through: 1 TCP, 0 UDP without a broker, 1 other"), r.stderr());
    }

    /** Without WEFT_BROKER nothing is simulated: the same program gets real sockets. */
    @Test
    void withoutABrokerUdpIsReal() {
        Map<String, String> env = env(0);
        env.remove("WEFT_BROKER");
        env.put("WEFT_SCHED_STATS", "1");
        var r = run(env, "passthrough");
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stderr().contains("passed through: 1 TCP, 1 UDP without a broker, 1 other"), r.stderr());
        assertEquals(0, broker.requests());
    }

    private Process startNode(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(NativeFixture.testProgram("net_basic").toString()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env(0));
        return pb.start();
    }

    private static String finish(Process p) throws InterruptedException, IOException {
        assertTrue(p.waitFor(NativeFixture.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the node did not finish");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * A receiver blocked in recvfrom, unmanaged or as a scheduler-managed thread, costs the broker
     * one request (Hello, Bind, then one Recv each) however long it waits: it never polls.
     */
    @ParameterizedTest
    @ValueSource(strings = {"wait", "threadwait"})
    void aBlockedReceiverDoesNotPollTheBroker(String mode) throws Exception {
        Process p = startNode(mode, "4001");
        assertTrue(broker.awaitRequests(3), "hello, bind and one receive");
        // Kept on purpose: the test proves the absence of polling, which only shows as requests over real time
        Thread.sleep(300); // real time for a polling receiver to show itself
        assertEquals(3, broker.requests(), "requests while blocked");
        broker.inject(WireBroker.Addr.of(1, 7000), WireBroker.Addr.of(0, 4001), "ping".getBytes(StandardCharsets.UTF_8));
        assertEquals("waiting\ngot: \"ping\" from 127.0.0.2:7000\n", finish(p));
        assertEquals(0, p.exitValue());
    }

    /** The broker going away turns a waiting receive into EIO (spec §2: a failed exchange is EIO). */
    @ParameterizedTest
    @ValueSource(strings = {"wait", "threadwait"})
    void aVanishedBrokerIsEio(String mode) throws Exception {
        Process p = startNode(mode, "4001");
        assertTrue(broker.awaitRequests(3));
        broker.close();
        broker = null;
        assertEquals("waiting\ngot: EIO\n", finish(p));
    }

    /** A blocking Recv the broker answers with Empty is ECONNRESET (spec §4, unmanaged blocking). */
    @Test
    void aBlockingRecvAnsweredEmptyIsConnectionReset() throws Exception {
        Process p = startNode("wait", "4001");
        assertTrue(broker.awaitRequests(3));
        broker.answerWaitersEmpty();
        assertEquals("waiting\ngot: ECONNRESET\n", finish(p));
    }

    /**
     * A client retransmitting on a 10 ms virtual timeout while nobody answers: pacing (virtual
     * timeouts of network waits take a tenth of their length in real time) bounds its sends by
     * real time — about one per millisecond — where an unpaced client would send as fast as the
     * broker can ack. Both as a plain process and as a managed thread (the scheduler's idle wait).
     */
    @ParameterizedTest
    @ValueSource(strings = {"retransmit", "threadretransmit"})
    void timeoutsArePacedSoRetransmitsDoNotSpin(String mode) throws Exception {
        Process p = startNode(mode, "10");
        assertTrue(broker.awaitRequests(4));
        long start = System.nanoTime();
        // Kept on purpose: pacing is a bound on sends per real millisecond, so real time has to pass (and is measured)
        Thread.sleep(200);
        long sendsWhileSilent = broker.sends();
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        broker.inject(WireBroker.Addr.of(1, 5000), WireBroker.Addr.of(0, 4000), "rep".getBytes(StandardCharsets.UTF_8));
        String out = finish(p);
        assertTrue(out.startsWith("reply after "), out);
        assertTrue(out.endsWith("virtual ms per send 9\n") || out.endsWith("virtual ms per send 10\n"), out);
        // one send per real millisecond at most (budget 1 ms per timeout), plus slack for start-up
        assertTrue(sendsWhileSilent <= elapsedMs + 50, sendsWhileSilent + " sends in " + elapsedMs + " ms");
        assertTrue(sendsWhileSilent >= 2, "the client did retransmit");
    }

    /** The same rule for a node that polls with MSG_DONTWAIT and sleeps 10 virtual ms in between. */
    @Test
    void sleepsBetweenPollsArePacedToo() throws Exception {
        Process p = startNode("sleeppoll", "10");
        assertTrue(broker.awaitRequests(3));
        long before = broker.requests();
        long start = System.nanoTime();
        // Kept on purpose: pacing is a bound on polls per real millisecond, so real time has to pass (and is measured)
        Thread.sleep(200);
        long polls = broker.requests() - before;
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        broker.inject(WireBroker.Addr.of(1, 5000), WireBroker.Addr.of(0, 4000), "x".getBytes(StandardCharsets.UTF_8));
        assertTrue(finish(p).startsWith("datagram after "));
        assertTrue(polls <= elapsedMs + 50, polls + " polls in " + elapsedMs + " ms");
    }

    /**
     * Windowed behaviour (spec §4, docs/broker.md "Receive leases"): a timed or non-blocking receive is a Lease the
     * broker holds until its outcome (a timed one times out once the horizon passes its deadline); a blocking one is
     * held too in a single-threaded node, while a multithreaded node's polls (Empty{h} below the wanted time means
     * "retry", after one Frontier); a Deliver advances the clock to its vt, and sockets say Goodbye at close and at
     * exit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"windowed", "threadwindowed"})
    void windowedReceivesFollowTheHorizon(String mode) throws Exception {
        broker.close();
        broker = WireBroker.startWindowed();
        List<String> argv = List.of(NativeFixture.testProgram("net_basic").toString(), mode);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(env(0));
        pb.environment().put("WEFT_WINDOW_NS", "1000000");
        Process p = pb.start();
        // a timed receive is a Lease held until the horizon passes its deadline (no Frontier, no polling)
        assertTrue(WireBroker.await(broker::leases, 1), "the timed receive asks with a Lease");
        broker.setHorizon(3_000_000_000L); // past the timed receive's deadline (about 1 s)
        // a blocking receive: held at the broker in a single-threaded node; a multithreaded one reports its frontier
        // and polls (holding its thread could stop the thread that would make progress)
        boolean threads = mode.equals("threadwindowed");
        assertTrue(threads ? WireBroker.await(broker::frontiers, 1) : WireBroker.await(broker::leases, 2),
                "the blocking receive waits at the broker");
        broker.setHorizon(10_000_000_000L);
        broker.inject(WireBroker.Addr.of(1, 5000), WireBroker.Addr.of(0, 4001), "w".getBytes(StandardCharsets.UTF_8),
                5_000_000_000L);
        assertEquals("""
                timed: EAGAIN
                virtual ms waited: 1000
                blocking: "w" from 127.0.0.2:5000
                virtual s now: 5
                nonblocking: EAGAIN
                """, finish(p));
        assertEquals(threads ? 1 : 0, broker.frontiers());
        assertTrue(WireBroker.await(broker::goodbyes, 2), "a Goodbye at close and one at exit");
    }

    /** The ASan+UBSan build of the shim runs the socket paths cleanly. */
    @Test
    void socketPathsAreCleanUnderAsan() throws IOException {
        Path asanShim = NativeFixture.target().resolve("asan").resolve("libweft_shim.so");
        Path runtimePath = NativeFixture.target().resolve("asan").resolve("libasan.path");
        assumeTrue(Files.isRegularFile(asanShim) && Files.isRegularFile(runtimePath), "skipped: no ASan build");
        Map<String, String> env = env(0);
        env.put("LD_PRELOAD", Files.readString(runtimePath).strip() + ":" + asanShim);
        env.put("ASAN_OPTIONS", "abort_on_error=0:exitcode=99");
        env.put("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=98");
        for (String scenario : List.of("basic", "msg", "poll", "connect", "threadecho")) {
            var r = run(env, scenario);
            assertEquals(0, r.exit(), scenario + ": " + r.stderr());
            assertFalse(r.stderr().contains("Sanitizer") || r.stderr().contains("runtime error"), r.stderr());
        }
    }
}
