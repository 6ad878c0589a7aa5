/*
 * timer_fds.c - timerfds, timers against fd waits, SIGEV_THREAD and CPU timers (issue 29). Prints
 * only what a real machine prints too (times rounded to 10 ms), so the output under the shim can be
 * compared with a plain run's; under the shim every wait is virtual and the program takes no real time.
 *   1. timerfd: a blocking read of a one-shot; a periodic one read after a sleep counts 5 expirations;
 *      TFD_NONBLOCK before the expiry is EAGAIN; timerfd_gettime
 *   2. poll over a pipe and an absolute CLOCK_MONOTONIC timerfd wakes at the expiry; epoll over a
 *      pipe and an absolute CLOCK_REALTIME one; select over a CLOCK_BOOTTIME one
 *   3. an alarm's handler interrupts poll, select, epoll_wait and a pipe read with EINTR; a read with
 *      SA_RESTART goes on until a child writes
 *   4. an alarm's handler ends a sem_wait nobody posts (EINTR); a one-shot SIGEV_THREAD timer's
 *      function posts the semaphore the main thread waits on; a periodic one runs its function on
 *      another thread at each expiry during a sleep
 *   5. ITIMER_VIRTUAL and ITIMER_PROF fire while the process computes (a machine's CPU timers are
 *      sampled at scheduler ticks: the checks are loose enough for both)
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, vtalrms, profs;
static void on_alarm(int s) { (void)s; alarms++; }
static void on_vtalrm(int s) { (void)s; vtalrms++; }
static void on_prof(int s) { (void)s; profs++; }

static double mono(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}
static long cs(double s) { return (long)(s * 100 + 0.5); }
static struct itimerspec its(long v_ms, long i_ms) {
    struct itimerspec s = {{i_ms / 1000, i_ms % 1000 * 1000000}, {v_ms / 1000, v_ms % 1000 * 1000000}};
    return s;
}
/* A one-shot absolute expiry ms milliseconds from now on clock, for TFD_TIMER_ABSTIME. */
static struct itimerspec expiry_in(clockid_t clock, long ms) {
    struct timespec now;
    clock_gettime(clock, &now);
    struct itimerspec v = its(0, 0);
    v.it_value.tv_sec = now.tv_sec;
    v.it_value.tv_nsec = now.tv_nsec + ms * 1000000L;
    if (v.it_value.tv_nsec >= 1000000000L) { v.it_value.tv_sec++; v.it_value.tv_nsec -= 1000000000L; }
    return v;
}
static void handle(int sig, void (*fn)(int), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigaction(sig, &sa, NULL);
}

static sem_t posted;
static void post_fn(union sigval v) { (void)v; sem_post(&posted); }
static atomic_int calls, call_value, call_other_thread;
static pid_t main_tid;
static void thread_fn(union sigval v) {
    atomic_store(&call_value, v.sival_int);
    if ((pid_t)syscall(SYS_gettid) != main_tid) atomic_store(&call_other_thread, 1);
    atomic_fetch_add(&calls, 1);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    uint64_t n = 0;

    /* 1 */
    int tf = timerfd_create(CLOCK_MONOTONIC, 0);
    struct itimerspec v = its(100, 0), cur;
    double t0 = mono();
    timerfd_settime(tf, 0, &v, NULL);
    ssize_t r = read(tf, &n, sizeof n);
    printf("1 read=%zd expirations=%llu after=%ldcs\n", r, (unsigned long long)n, cs(mono() - t0));
    v = its(10, 10);
    timerfd_settime(tf, 0, &v, NULL);
    usleep(55000);
    read(tf, &n, sizeof n);
    printf("1 periodic expirations=%llu\n", (unsigned long long)n);
    v = its(0, 0);
    timerfd_settime(tf, 0, &v, NULL);
    close(tf);
    tf = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    v = its(1000, 250);
    timerfd_settime(tf, 0, &v, NULL);
    r = read(tf, &n, sizeof n);
    int e = errno;
    timerfd_gettime(tf, &cur);
    long left_ms = cur.it_value.tv_sec * 1000 + cur.it_value.tv_nsec / 1000000;
    printf("1 nonblock read=%zd %s gettime left>900ms=%d interval=%ldms\n", r, strerror(e), left_ms > 900 && left_ms <= 1000,
           cur.it_interval.tv_nsec / 1000000);
    close(tf);

    /* 2 */
    int p[2];
    pipe(p);
    tf = timerfd_create(CLOCK_MONOTONIC, 0);
    v = expiry_in(CLOCK_MONOTONIC, 200);
    t0 = mono();
    timerfd_settime(tf, TFD_TIMER_ABSTIME, &v, NULL);
    struct pollfd pf[2] = {{.fd = p[0], .events = POLLIN}, {.fd = tf, .events = POLLIN}};
    int k = poll(pf, 2, 5000);
    printf("2 poll=%d pipe=%d timerfd=%d after=%ldcs\n", k, pf[0].revents, pf[1].revents, cs(mono() - t0));
    close(tf);
    tf = timerfd_create(CLOCK_REALTIME, 0);
    v = expiry_in(CLOCK_REALTIME, 300);
    t0 = mono();
    timerfd_settime(tf, TFD_TIMER_ABSTIME, &v, NULL);
    int ep = epoll_create1(0);
    struct epoll_event ee = {.events = EPOLLIN, .data.fd = p[0]}, out[2];
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ee);
    ee.data.fd = tf;
    epoll_ctl(ep, EPOLL_CTL_ADD, tf, &ee);
    k = epoll_wait(ep, out, 2, 5000);
    printf("2 epoll=%d timerfd=%d after=%ldcs\n", k, k == 1 && out[0].data.fd == tf, cs(mono() - t0));
    close(tf);
    tf = timerfd_create(CLOCK_BOOTTIME, 0);
    v = its(50, 0);
    t0 = mono();
    timerfd_settime(tf, 0, &v, NULL);
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(p[0], &rd);
    FD_SET(tf, &rd);
    struct timeval tv = {5, 0};
    k = select(tf + 1, &rd, NULL, NULL, &tv);
    printf("2 select=%d timerfd=%d pipe=%d after=%ldcs\n", k, FD_ISSET(tf, &rd) != 0, FD_ISSET(p[0], &rd) != 0, cs(mono() - t0));
    close(tf);

    /* 3 */
    handle(SIGALRM, on_alarm, 0);
    char c;
    t0 = mono();
    alarm(1);
    k = poll(pf, 1, -1);
    e = errno;
    printf("3 poll=%d %s alarms=%d after=%ldcs\n", k, strerror(e), (int)alarms, cs(mono() - t0));
    alarm(1);
    FD_ZERO(&rd);
    FD_SET(p[0], &rd);
    k = select(p[0] + 1, &rd, NULL, NULL, NULL);
    e = errno;
    printf("3 select=%d %s alarms=%d\n", k, strerror(e), (int)alarms);
    alarm(1);
    k = epoll_wait(ep, out, 2, 3000);
    e = errno;
    printf("3 epoll_wait=%d %s alarms=%d\n", k, strerror(e), (int)alarms);
    alarm(1);
    r = read(p[0], &c, 1);
    e = errno;
    printf("3 read=%zd %s alarms=%d\n", r, strerror(e), (int)alarms);
    handle(SIGALRM, on_alarm, SA_RESTART);
    pid_t child = fork();
    if (child == 0) {
        sleep(2);
        write(p[1], "x", 1);
        _exit(0);
    }
    t0 = mono();
    alarm(1);
    r = read(p[0], &c, 1);
    printf("3 SA_RESTART read=%zd alarms=%d after=%ldcs\n", r, (int)alarms, cs(mono() - t0));
    waitpid(child, NULL, 0);
    close(ep);

    /* 4 */
    handle(SIGALRM, on_alarm, 0);
    sem_init(&posted, 0, 0);
    alarm(1);
    k = sem_wait(&posted);
    e = errno;
    printf("4 sem_wait=%d %s alarms=%d\n", k, strerror(e), (int)alarms);
    main_tid = (pid_t)syscall(SYS_gettid);
    struct sigevent once;
    memset(&once, 0, sizeof once);
    once.sigev_notify = SIGEV_THREAD;
    once.sigev_notify_function = post_fn;
    timer_t oid;
    timer_create(CLOCK_MONOTONIC, &once, &oid);
    struct itimerspec o = its(200, 0);
    t0 = mono();
    timer_settime(oid, 0, &o, NULL);
    k = sem_wait(&posted);
    printf("4 thread posted sem_wait=%d after=%ldcs\n", k, cs(mono() - t0));
    timer_delete(oid);
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD;
    sev.sigev_notify_function = thread_fn;
    sev.sigev_value.sival_int = 7;
    timer_t tid;
    timer_create(CLOCK_MONOTONIC, &sev, &tid);
    struct itimerspec ts = its(100, 100);
    timer_settime(tid, 0, &ts, NULL);
    usleep(1050000);
    timer_delete(tid);
    usleep(200000); /* a call already started finishes; none starts after the delete */
    printf("4 thread calls=%d value=%d other_thread=%d\n", atomic_load(&calls), atomic_load(&call_value),
           atomic_load(&call_other_thread));

    /* 5 */
    handle(SIGVTALRM, on_vtalrm, 0);
    handle(SIGPROF, on_prof, 0);
    struct itimerval iv = {{0, 0}, {0, 50000}}, got;
    setitimer(ITIMER_VIRTUAL, &iv, NULL);
    iv.it_value.tv_usec = 0;
    iv.it_value.tv_sec = 1;
    iv.it_interval.tv_usec = 100000;
    setitimer(ITIMER_PROF, &iv, NULL);
    getitimer(ITIMER_PROF, &got);
    long prof_ms = got.it_value.tv_sec * 1000 + got.it_value.tv_usec / 1000;
    clock_t c0 = clock();
    while (!vtalrms) (void)clock();
    long vt_ms = (long)((clock() - c0) * 1000 / CLOCKS_PER_SEC);
    while (profs < 3) (void)clock();
    long prof_cpu = (long)((clock() - c0) * 1000 / CLOCKS_PER_SEC);
    iv = (struct itimerval){{0, 0}, {0, 0}};
    setitimer(ITIMER_PROF, &iv, NULL);
    getitimer(ITIMER_VIRTUAL, &got);
    printf("5 vtalrm=%d at>=50ms=%d prof=%d at>=1s=%d prof_left~1s=%d virtual_disarmed=%d\n", (int)vtalrms,
           vt_ms >= 50 && vt_ms < 200, (int)profs, prof_cpu >= 1000 && prof_cpu < 1500, prof_ms > 900 && prof_ms <= 1010,
           got.it_value.tv_sec == 0 && got.it_value.tv_usec == 0);
    return 0;
}
