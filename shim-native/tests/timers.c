/*
 * timers.c - timers against sleeps and waits (issue 29). Prints only what a real machine prints too
 * (times rounded to 10 ms), so its output under the shim can be compared with a plain run's; under
 * the shim the waits are virtual and the whole program takes no real time.
 *   1. alarm(1) during nanosleep(3 s) with a handler: EINTR after 1 s, about 2 s remaining
 *   2. alarm's return: the seconds left of the previous alarm
 *   3. setitimer every 10 ms, counted over pause(): 20 ticks in about 0.2 s; getitimer after disarm
 *   4. a POSIX timer (SIGEV_SIGNAL, SIGUSR1, a value) during sleep(5): sleep returns 4, the handler
 *      sees SI_TIMER and the value; timer_gettime on a periodic timer; timer_delete
 *   5. a SIGALRM with SA_RESTART during usleep: still EINTR (sleeps are never restarted)
 *   6. alarm(1) while waitpid waits for a child sleeping 3 s: EINTR without SA_RESTART, the wait goes on
 *      with it (the child's status either way)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, usr1, usr1_code, usr1_value;

static void on_alarm(int s) { (void)s; alarms++; }
static void on_usr1(int s, siginfo_t *si, void *c) {
    (void)s; (void)c;
    usr1++;
    usr1_code = si->si_code;
    usr1_value = si->si_value.sival_int;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static long cs(double s) { return (long)(s * 100 + 0.5); } /* centiseconds, rounded */

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);

    double t0 = now();
    alarm(1);
    struct timespec req = {3, 0}, rem = {0, 0};
    int rc = nanosleep(&req, &rem);
    printf("1 nanosleep rc=%d errno=%s alarms=%d after=%ldcs rem=%ldcs\n", rc, rc ? strerror(errno) : "-", (int)alarms,
           cs(now() - t0), cs((double)rem.tv_sec + (double)rem.tv_nsec / 1e9));

    alarm(5);
    unsigned left = alarm(0);
    printf("2 alarm left=%u then=%u\n", left, alarm(0));

    alarms = 0;
    struct itimerval iv = {{0, 10000}, {0, 10000}}, got;
    t0 = now();
    setitimer(ITIMER_REAL, &iv, NULL);
    while (alarms < 20) pause();
    memset(&iv, 0, sizeof iv);
    setitimer(ITIMER_REAL, &iv, NULL);
    getitimer(ITIMER_REAL, &got);
    printf("3 ticks=%d after=%ldcs disarmed=%d\n", (int)alarms, cs(now() - t0), got.it_value.tv_sec == 0 && got.it_value.tv_usec == 0);

    struct sigaction su;
    memset(&su, 0, sizeof su);
    su.sa_sigaction = on_usr1;
    su.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &su, NULL);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGUSR1;
    ev.sigev_value.sival_int = 42;
    timer_t tid;
    if (timer_create(CLOCK_MONOTONIC, &ev, &tid) != 0) { perror("timer_create"); return 1; }
    struct itimerspec its = {{0, 0}, {1, 0}}, cur;
    timer_settime(tid, 0, &its, NULL);
    unsigned sl = sleep(5);
    printf("4 sleep left=%u usr1=%d si_timer=%d value=%d\n", sl, (int)usr1, usr1_code == SI_TIMER, (int)usr1_value);
    struct itimerspec per = {{2, 0}, {3, 0}};
    timer_settime(tid, 0, &per, NULL);
    timer_gettime(tid, &cur);
    printf("4 gettime value<=3s=%d value>2s=%d interval=%lds overrun=%d\n", cur.it_value.tv_sec < 3 || (cur.it_value.tv_sec == 3 && cur.it_value.tv_nsec == 0),
           cur.it_value.tv_sec >= 2, (long)cur.it_interval.tv_sec, timer_getoverrun(tid));
    printf("4 delete rc=%d\n", timer_delete(tid));

    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    alarms = 0;
    struct itimerval once = {{0, 0}, {0, 50000}};
    setitimer(ITIMER_REAL, &once, NULL);
    rc = usleep(200000);
    printf("5 usleep rc=%d errno=%s alarms=%d\n", rc, rc ? strerror(errno) : "-", (int)alarms);

    for (int restart = 0; restart < 2; restart++) {
        sa.sa_flags = restart ? SA_RESTART : 0;
        sigaction(SIGALRM, &sa, NULL);
        alarms = 0;
        pid_t p = fork();
        if (p == 0) { sleep(3); _exit(7); }
        alarm(1);
        int st = 0;
        errno = 0;
        pid_t r = waitpid(p, &st, 0);
        int intr = r < 0 && errno == EINTR;
        if (r < 0) r = waitpid(p, &st, 0);
        printf("6 SA_RESTART=%d first=%s alarms=%d status=%d\n", restart, intr ? "EINTR" : r == p ? "child" : "?",
               (int)alarms, WEXITSTATUS(st));
    }
    return 0;
}
