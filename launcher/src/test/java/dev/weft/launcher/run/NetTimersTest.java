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

    private static final String SELECT_EXPECTED = """
            1 udp select rc=-1 errno=Interrupted system call ticks=1 after=10
            2 left=20 still set=1 udp select 3s SA_RESTART rc=-1 errno=Interrupted system call ticks=1 after=10
            3 udp pselect mask lets SIGALRM in rc=-1 errno=Interrupted system call ticks=1 after=10
            4 udp pselect 2s mask blocks SIGALRM rc=0 ticks=1 after=20
            5 tcp ppoll mask lets SIGALRM in rc=-1 errno=Interrupted system call ticks=1 after=10
            6 tcp+udp poll setitimer rc=-1 errno=Interrupted system call ticks=1 after=7
            7 tcp epoll_wait rc=-1 errno=Interrupted system call ticks=1 after=10
            8 tcp epoll_wait 3s timer_create SA_RESTART rc=-1 errno=Interrupted system call ticks=1 after=15
            9 tcp epoll_pwait 1.5s mask blocks SIGALRM rc=0 ticks=1 after=15
            10 readable=1 tcp select with data rc=1 ticks=0 after=0
            """;

    /** tests/net_timers_select.c: select, pselect, ppoll, poll over TCP and UDP, epoll_wait and epoll_pwait cut by
     * alarm, setitimer and timer_create: EINTR whatever SA_RESTART says (signal(7)), the masks of pselect, ppoll and
     * epoll_pwait deciding whether the handler runs during the wait or as it returns. Before, case 1 hung. */
    @Test
    void timersInterruptSelectPollAndEpollAsOnAMachine() {
        String prog = NativeFixture.testProgram("net_timers_select").toString();
        assertEquals(SELECT_EXPECTED, twice(false, prog));
        assertEquals(SELECT_EXPECTED, twice(true, prog));
    }

    /** tests/alarm_main_thread.c on a cluster node: a threaded node's alarm interrupts its main thread's select on a
     * simulated UDP socket, not the other thread's sleep (Linux gives a process-directed signal to the main thread
     * when it does not block it). Before, the sleep took it and the select waited on until the watchdog. */
    @Test
    void aThreadedNodesAlarmInterruptsTheMainThreadsSelect() {
        String prog = NativeFixture.testProgram("alarm_main_thread").toString();
        String expected = "main: select rc=-1 Interrupted system call at 10\nthread: nanosleep rc=0 at 30\nalarms=1 end at 30\n";
        assertEquals(expected, twice(false, prog, "udp-main"));
        assertEquals(expected, twice(true, prog, "udp-main"));
    }

    /** An asyncio TCP server and client in one process (asyncio waits in epoll_wait): an alarm handled through
     * loop.add_signal_handler wakes the loop at its virtual instant, and a periodic setitimer ticks while wait_for
     * times out. Before, the loop waited in epoll_wait until the watchdog. */
    static final String ASYNCIO_SCRIPT = """
            import asyncio, signal

            async def main():
                loop = asyncio.get_running_loop()
                fired, served = asyncio.Event(), asyncio.Event()
                def on_alarm():
                    print("alarm at", round(loop.time() - t0, 1), flush=True)
                    fired.set()
                loop.add_signal_handler(signal.SIGALRM, on_alarm)
                async def serve(r, w):
                    print("server got", (await r.readline()).decode().strip(), flush=True)
                    await fired.wait()
                    w.write(b"pong after the alarm\\n")
                    await w.drain()
                    await r.read()   # until the client closes
                    w.close()
                    served.set()
                srv = await asyncio.start_server(serve, "127.0.0.1", 4950)
                r, w = await asyncio.open_connection("127.0.0.1", 4950)
                t0 = loop.time()
                signal.alarm(1)
                w.write(b"ping\\n")
                await w.drain()
                line = (await r.readline()).decode().strip()
                print("client got", repr(line), "at", round(loop.time() - t0, 1), flush=True)
                ticks = []
                loop.add_signal_handler(signal.SIGALRM, lambda: ticks.append(loop.time()))
                signal.setitimer(signal.ITIMER_REAL, 0.3, 0.3)
                try:
                    await asyncio.wait_for(r.read(1), 1.0)
                    print("read returned")
                except asyncio.TimeoutError:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    print("wait_for timed out at", round(loop.time() - t0, 1), "ticks", len(ticks), flush=True)
                w.close()
                await w.wait_closed()
                await served.wait()
                print("server done", flush=True)
                srv.close()
                await srv.wait_closed()

            asyncio.run(main())
            """;

    @Test
    void asyncioAlarmWakesTheLoopInEpoll() {
        RealProgramsTest.assumeInstalled("python3");
        String expected = """
                server got ping
                alarm at 1.0
                client got 'pong after the alarm' at 1.0
                wait_for timed out at 2.0 ticks 3
                server done
                """;
        assertEquals(expected, twice(false, "python3", "-c", ASYNCIO_SCRIPT));
        assertEquals(expected, twice(true, "python3", "-c", ASYNCIO_SCRIPT));
    }
}
