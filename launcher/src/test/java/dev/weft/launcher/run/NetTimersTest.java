package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Virtual timers against waits on simulated sockets (issue 29): on a cluster node, a blocking receive, accept or poll
 * on a socket the broker serves is cut at a timer's expiry, as the kernel would cut it. Every expected transcript is
 * what the same program prints on a real machine (run by hand without weft); under weft it is the same in plain and
 * windowed runs, and two runs of one seed print the same. Before, such a wait ignored the timer (a lone node got the
 * deadlock verdict).
 */
class NetTimersTest {
    private static final String NET = "latency=uniform:2000-10000";

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    /** One node running the command (windowed when asked), twice on seed 3: the node's output, the same both times. */
    private static String twice(boolean windowed, String... command) {
        List<String> args = new ArrayList<>(List.of("--seed", "3", "--net", NET, "--nodes", "1", "--watchdog", "20"));
        if (windowed) {
            args.addAll(List.of("--window", "1000"));
        }
        args.add("--");
        args.addAll(List.of(command));
        ClusterRunTest.Out a = ClusterRunTest.weft(Map.of(), args.toArray(String[]::new));
        assertEquals(0, a.exit(), a.stderr());
        ClusterRunTest.Out b = ClusterRunTest.weft(Map.of(), args.toArray(String[]::new));
        assertEquals(a.stdout(), b.stdout(), "two runs of seed 3 differ");
        return a.stdout().replace("[n0] ", "");
    }

    private static final String C_EXPECTED = """
            1 udp recvfrom rc=-1 errno=Interrupted system call ticks=1 after=10
            2 udp recv SA_RESTART rc=4 ticks=3 after=3
            2 got "tick"
            3 udp recv SO_RCVTIMEO=5s SA_RESTART rc=-1 errno=Interrupted system call ticks=1 after=10
            4 udp recv SO_RCVTIMEO=0.5s alarm=1s rc=-1 errno=Resource temporarily unavailable ticks=0 after=5
            5 udp poll rc=-1 errno=Interrupted system call ticks=1 after=10
            6 tcp accept timer_create rc=-1 errno=Interrupted system call ticks=1 after=15
            7 tcp recv rc=-1 errno=Interrupted system call ticks=1 after=20
            7 then read 4 "late"
            """;

    /** tests/net_timers.c: alarm, setitimer and timer_create against UDP recv/poll and TCP accept/recv. */
    @Test
    void timersCutSocketWaitsAsOnAMachine() {
        String prog = NativeFixture.testProgram("net_timers").toString();
        assertEquals(C_EXPECTED, twice(false, prog));
        assertEquals(C_EXPECTED, twice(true, prog));
    }

    /** Python: signal.alarm with a raising handler ends socket.recv and accept; a handler that returns lets a
     * receive with a timeout go on to its timeout (PEP 475). */
    @Test
    void pythonAlarmInterruptsSocketCalls() {
        RealProgramsTest.assumeInstalled("python3");
        String script = """
                import signal, socket, time
                class Alarm(Exception): pass
                def alarm(s, f): raise Alarm()
                signal.signal(signal.SIGALRM, alarm)
                u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 4900))
                t = time.monotonic(); signal.alarm(1)
                try:
                    u.recv(100); print("udp got data")
                except Alarm:
                    print("udp recv interrupted after", round(time.monotonic() - t, 1))
                n = 0
                def tick(s, f):
                    global n
                    n += 1
                signal.signal(signal.SIGALRM, tick)
                signal.alarm(1)
                t = time.monotonic()
                u.settimeout(3)
                try:
                    u.recv(100); print("udp got data")
                except socket.timeout:
                    print("udp timeout after", round(time.monotonic() - t, 1), "ticks", n)
                l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                l.bind(("127.0.0.1", 4901)); l.listen()
                signal.signal(signal.SIGALRM, alarm)
                t = time.monotonic(); signal.alarm(2)
                try:
                    l.accept(); print("accepted")
                except Alarm:
                    print("tcp accept interrupted after", round(time.monotonic() - t, 1))
                """;
        assertEquals("""
                udp recv interrupted after 1.0
                udp timeout after 3.0 ticks 1
                tcp accept interrupted after 2.0
                """, twice(false, "python3", "-c", script));
    }
}
