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
}
