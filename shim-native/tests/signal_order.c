/*
 * signal_order - the order in which several processes or threads of one tree handle signals pending
 * at one virtual instant (issue 29, "signals as scheduler states"). Four receivers wait in
 * sigsuspend with the signal blocked; each handler writes its receiver's name. On a machine the
 * order is the host's scheduling; under weft each handler runs at its receiver's turn, so the
 * order is a choice of the seeded schedule: the same on every run of a seed.
 *   procs-kill     four fork children, each sent SIGUSR1 by the parent (kill)
 *   procs-alarm    four fork children, each with alarm(1): four expiries at one instant
 *   threads-kill   four threads of one process, each sent SIGUSR1 (pthread_kill)
 *   threads-timer  four threads, each with a POSIX timer (SIGEV_THREAD_ID) expiring at one absolute instant
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static __thread int me;
static int by_timer;
static struct timespec at;   /* threads-timer: the one instant every thread's timer expires at */
static pthread_barrier_t started;

static void on_signal(int sig) {
    char b[16];
    int n = snprintf(b, sizeof b, "%c%d ", sig == SIGALRM ? 'a' : 'u', me);
    if (write(1, b, (size_t)n) != n) _exit(3);
}

static void block_usr1(sigset_t *old) {
    sigset_t m;
    sigemptyset(&m);
    sigaddset(&m, SIGUSR1);
    sigaddset(&m, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &m, old);
}

static void procs(void) {
    int p[2];
    if (pipe(p)) return;
    pid_t kids[4];
    sigset_t old;
    block_usr1(&old);
    for (int i = 0; i < 4; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            me = i + 1;
            if (by_timer) alarm(1);
            if (write(p[1], "r", 1) != 1) _exit(3);
            sigsuspend(&old);
            _exit(0);
        }
    }
    char c;
    for (int i = 0; i < 4; i++)
        if (read(p[0], &c, 1) != 1) return;
    if (!by_timer)
        for (int i = 0; i < 4; i++) kill(kids[i], SIGUSR1);
    for (int i = 0; i < 4; i++) waitpid(kids[i], NULL, 0);
}

static void *thread_main(void *arg) {
    me = (int)(long)arg;
    sigset_t none;
    sigemptyset(&none);
    if (by_timer) {
        timer_t t;
        struct sigevent ev;
        memset(&ev, 0, sizeof ev);
        ev.sigev_notify = SIGEV_THREAD_ID;
        ev.sigev_signo = SIGUSR1;
        ev._sigev_un._tid = gettid();
        timer_create(CLOCK_MONOTONIC, &ev, &t);
        struct itimerspec in = {{0, 0}, at};
        timer_settime(t, TIMER_ABSTIME, &in, NULL);
    }
    pthread_barrier_wait(&started);
    sigsuspend(&none);
    return NULL;
}

static void threads(void) {
    block_usr1(NULL);
    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_sec += 1;
    pthread_barrier_init(&started, NULL, 5);
    pthread_t th[4];
    for (long i = 0; i < 4; i++) pthread_create(&th[i], NULL, thread_main, (void *)(i + 1));
    pthread_barrier_wait(&started);
    if (!by_timer)
        for (int i = 0; i < 4; i++) pthread_kill(th[i], SIGUSR1);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "procs-kill";
    signal(SIGUSR1, on_signal);
    signal(SIGALRM, on_signal);
    by_timer = strstr(mode, "kill") == NULL;
    if (!strncmp(mode, "procs", 5)) procs();
    else threads();
    if (write(1, "\n", 1) != 1) return 3;
    return 0;
}
