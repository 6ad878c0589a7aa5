package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Timers on the virtual clock (issue 29): alarm, setitimer and POSIX timers expire at virtual instants, interrupt the
 * sleeps and signal waits they fall into, and take no real time. Every expected transcript below is what the same
 * command prints on a real machine (checked by hand without the shim); under weft it is the same, run after run.
 */
class TimersTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static String twice(List<String> command) {
        var a = RealProgramsTest.run("3", command);
        assertFalse(a.stderr().contains("WARNING"), a.stderr());
        var b = RealProgramsTest.run("3", command);
        assertEquals(a.stdout(), b.stdout(), "two runs of seed 3 differ");
        return a.stdout();
    }

    /** tests/timers.c: alarm, setitimer and timer_create against nanosleep, pause, sleep, usleep and waitpid. */
    @Test
    void timersInterruptSleepsAndWaitsAsOnAMachine() {
        String expected = """
                1 nanosleep rc=-1 errno=Interrupted system call alarms=1 after=100cs rem=200cs
                2 alarm left=5 then=0
                3 ticks=20 after=20cs disarmed=1
                4 sleep left=3 usr1=1 si_timer=1 value=42
                4 gettime value<=3s=1 value>2s=1 interval=2s overrun=0
                4 delete rc=0
                5 usleep rc=-1 errno=Interrupted system call alarms=1
                6 SA_RESTART=0 first=EINTR alarms=1 status=7
                6 SA_RESTART=1 first=child alarms=1 status=7
                """;
        assertEquals(expected, twice(List.of(NativeFixture.testProgram("timers").toString())));
    }

    /** coreutils timeout arms a POSIX timer and waits in sigsuspend while its child sleeps (was rc=0: the sleep was
     * virtual, the timer real). The child is killed at the timer's instant, not at the end of its sleep. */
    @Test
    void timeoutKillsAVirtualSleep() {
        RealProgramsTest.assumeInstalled("timeout");
        assertEquals("rc=124\nrc=124\nrc=0\n", twice(List.of("bash", "-c",
                "timeout 1 sleep 10; echo rc=$?; timeout 30 sleep 100; echo rc=$?; timeout 5 sleep 1; echo rc=$?")));
    }

    @Test
    void pythonAlarmAndIntervalTimer() {
        RealProgramsTest.assumeInstalled("python3");
        String script = """
                import signal, time
                class Alarm(Exception): pass
                def alarm(s, f): raise Alarm()
                signal.signal(signal.SIGALRM, alarm)
                signal.alarm(1)
                t = time.monotonic()
                try:
                    time.sleep(5); print("slept")
                except Alarm:
                    print("interrupted after", round(time.monotonic() - t, 1))
                n = 0
                def tick(s, f):
                    global n
                    n += 1
                signal.signal(signal.SIGALRM, tick)
                signal.setitimer(signal.ITIMER_REAL, 0.01, 0.01)
                t = time.monotonic()
                while n < 20: time.sleep(0.003)
                signal.setitimer(signal.ITIMER_REAL, 0)
                print(n, "ticks in", round(time.monotonic() - t, 1), "s")
                """;
        assertEquals("interrupted after 1.0\n20 ticks in 0.2 s\n", twice(List.of("bash", "-c", "python3 -c '" + script + "'; true")));
    }

    @Test
    void perlAlarmWithAHandler() {
        RealProgramsTest.assumeInstalled("perl");
        assertEquals("alarm\n", twice(List.of("bash", "-c",
                "perl -e '$SIG{ALRM} = sub { print \"alarm\\n\"; exit 0 }; alarm 1; sleep 5; print \"slept\\n\"'; true")));
    }

    /** tests/timer_fds.c: timerfds read, polled, epolled and selected; a timer's handler interrupting poll, select,
     * epoll_wait, a pipe read (a read with SA_RESTART goes on) and a sem_wait; SIGEV_THREAD posting the semaphore the main
     * thread waits on, and calling its function periodically; ITIMER_VIRTUAL and ITIMER_PROF. Before,
     * the timerfds ran in real time (the virtual clock read 0 cs), the alarms never ended the fd waits (the program
     * hung), SIGEV_THREAD and the CPU timers were the kernel's. */
    @Test
    void timerfdsAndTimersAgainstFdWaits() {
        String expected = """
                1 read=8 expirations=1 after=10cs
                1 periodic expirations=5
                1 nonblock read=-1 Resource temporarily unavailable gettime left>900ms=1 interval=250ms
                2 poll=1 pipe=0 timerfd=1 after=20cs
                2 epoll=1 timerfd=1 after=30cs
                2 select=1 timerfd=1 pipe=0 after=5cs
                3 poll=-1 Interrupted system call alarms=1 after=100cs
                3 select=-1 Interrupted system call alarms=2
                3 epoll_wait=-1 Interrupted system call alarms=3
                3 read=-1 Interrupted system call alarms=4
                3 SA_RESTART read=1 alarms=5 after=200cs
                4 sem_wait=-1 Interrupted system call alarms=6
                4 thread posted sem_wait=0 after=20cs
                4 thread calls=10 value=7 other_thread=1
                5 vtalrm=1 at>=50ms=1 prof=3 at>=1s=1 prof_left~1s=1 virtual_disarmed=1
                """;
        assertEquals(expected, twice(List.of(NativeFixture.testProgram("timer_fds").toString())));
    }

    /**
     * tests/timeout_threaded.c under timeout: a threaded child whose main thread sleeps while its other thread waits
     * on a pipe. With a long enough timeout it prints what it prints alone and exits 0; `timeout 1` around a 10 s
     * sleep ends it with 124 at 1 s of virtual time. Before, one idle round of the tree ended the child's timed
     * wait and timeout's at once: `timeout 20` killed the child with no output on every seed, and on seed 1
     * `timeout 1` let the 10 s sleep finish first.
     */
    @Test
    void timeoutAroundAThreadedProgramFiresAtItsOwnInstant() {
        RealProgramsTest.assumeInstalled("timeout");
        String program = NativeFixture.testProgram("timeout_threaded").toString();
        String alone = "main: slept 50 cs\nthread: read 1 byte(s) at 50 cs\nmain: done at 50 cs\n";
        for (String seed : List.of("1", "2", "3", "4", "5")) {
            var plain = RealProgramsTest.run(seed, List.of(program));
            assertEquals(alone, plain.stdout(), "seed " + seed + ": " + plain.stderr());
            for (int run = 1; run <= 2; run++) {
                var timed = RealProgramsTest.run(seed, List.of("timeout", "20", program));
                assertEquals(0, timed.exit(), "seed " + seed + ", run " + run + ": " + timed.stderr());
                assertEquals(alone, timed.stdout(), "seed " + seed + ", run " + run + ": " + timed.stderr());
            }
            var killed = RealProgramsTest.run(seed, List.of("bash", "-c", "s=$(date +%s%N); timeout 1 " + program
                    + " long; rc=$?; e=$(date +%s%N); echo rc=$rc after=$(( (e - s) / 10000000 ))cs"));
            assertEquals("rc=124 after=100cs\n", killed.stdout(), "seed " + seed + ": " + killed.stderr());
        }
    }

    /** The same through Python: a threading.Thread reading a pipe while the main thread sleeps 0.5 s. Before, `timeout
     * 20` killed it at once with no output. */
    @Test
    void timeoutAroundAPythonThread() {
        RealProgramsTest.assumeInstalled("timeout");
        RealProgramsTest.assumeInstalled("python3");
        String script = """
                import threading, time, os
                r, w = os.pipe()
                t = threading.Thread(target=lambda: print("thread read", os.read(r, 1), flush=True))
                t.start()
                time.sleep(0.5)
                print("main slept", flush=True)
                os.write(w, b"x")
                t.join()
                print("done")
                """;
        assertEquals("main slept\nthread read b'x'\ndone\nrc=0\n",
                twice(List.of("bash", "-c", "timeout 20 python3 -c '" + script + "'; echo rc=$?")));
    }

    /** A timeout around a program blocked reading a pipe nobody writes yet: the timer ends it at 1 s of virtual time. */
    @Test
    void timeoutKillsABlockedRead() {
        RealProgramsTest.assumeInstalled("timeout");
        assertEquals("rc=124\n", twice(List.of("bash", "-c", "sleep 100 | timeout 1 cat; echo rc=$?")));
    }

    /** Python's os.read, select.select and poll.poll interrupted by an alarm whose handler raises (PEP 475 retries only
     * when the handler returns). */
    @Test
    void pythonAlarmInterruptsFdWaits() {
        RealProgramsTest.assumeInstalled("python3");
        String script = """
                import signal, os, select, time
                class Alarm(Exception): pass
                def alarm(s, f): raise Alarm()
                signal.signal(signal.SIGALRM, alarm)
                t = time.monotonic()
                for what in ("read", "select", "poll"):
                    signal.alarm(1)
                    try:
                        if what == "read": os.read(0, 1)
                        elif what == "select": select.select([0], [], [], 30)
                        else:
                            p = select.poll(); p.register(0, select.POLLIN); p.poll(30000)
                        print(what, "returned")
                    except Alarm:
                        print(what, "interrupted at", round(time.monotonic() - t, 1))
                """;
        assertEquals("read interrupted at 1.0\nselect interrupted at 2.0\npoll interrupted at 3.0\n",
                twice(List.of("bash", "-c", "sleep 5 | python3 -c '" + script + "'; true")));
    }

    /** Perl's classic read timeout: alarm, a handler that dies, a line read from a pipe nobody writes in time. */
    @Test
    void perlAlarmInterruptsARead() {
        RealProgramsTest.assumeInstalled("perl");
        assertEquals("timeout\n", twice(List.of("bash", "-c",
                "sleep 5 | perl -e 'eval { local $SIG{ALRM} = sub { die \"timeout\\n\" }; alarm 1; my $l = <STDIN>; alarm 0 };"
                        + " print $@'; true")));
    }

    /**
     * tests/alarm_main_thread.c: alarm's SIGALRM goes to the main thread when it does not block it, as Linux
     * delivers a process-directed signal, whichever thread's wait would reach the expiry first. Before, on some
     * seeds the other thread's sleep or select took it and main's select without a timeout waited forever.
     */
    @Test
    void aProcessDirectedTimerSignalInterruptsTheMainThread() {
        String program = NativeFixture.testProgram("alarm_main_thread").toString();
        var expected = java.util.Map.of(
                "select-main", "main: select rc=-1 Interrupted system call at 10\nthread: nanosleep rc=0 at 30\nalarms=1 end at 30\n",
                "sleep-main", "main: nanosleep rc=-1 Interrupted system call at 10\nthread: select rc=0 at 20\nalarms=1 end at 20\n");
        for (var c : new java.util.TreeMap<>(expected).entrySet())
            for (String seed : List.of("1", "2", "3", "4", "5")) {
                var r = RealProgramsTest.run(seed, List.of(program, c.getKey())); // before: hung on some seeds (the fixture's 60 s)
                assertEquals(c.getValue(), r.stdout(), c.getKey() + ", seed " + seed + ": " + r.stderr());
            }
    }

    /** tests/thread_sleep_order.c: a threaded parent's sleeps and its child's end in the order of their virtual
     * instants on every seed (the parent's thread scheduler used to jump its own clock when all its threads slept). */
    @Test
    void threadedSleepsFollowTheTreeClock() {
        String expected = "child after 0.5 s\nthreaded parent after 1 s\nchild after 1.5 s\nthreaded parent after 2 s\n";
        for (String seed : List.of("1", "2", "3", "4")) {
            var r = RealProgramsTest.run(seed, List.of(NativeFixture.testProgram("thread_sleep_order").toString()));
            assertEquals(expected, r.stdout(), "seed " + seed + ": " + r.stderr());
        }
    }
}
