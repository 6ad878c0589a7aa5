/*
 * proc_sync_timed.c - timed waits on process-shared objects (issue 18 item 1): sem_timedwait,
 * sem_clockwait, pthread_mutex_timedlock/clocklock and pthread_cond_timedwait/clockwait in a
 * parent whose forked child serves them on command. Each wait is made twice: once when the child
 * can make the object available (it must succeed, with no clock jump), once when the whole tree
 * waits (the deadline must pass in virtual time: ETIMEDOUT after exactly the timeout).
 *
 *   proc_sync_timed [threaded]   threaded: the parent starts a second thread first (thread model)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_test.h"

struct shared {
    sem_t sem;      /* posted by the child on 'p' */
    sem_t held;     /* posted by the child once it holds m ('L') */
    pthread_mutex_t m;
    pthread_cond_t c;          /* CLOCK_REALTIME */
    pthread_cond_t cm;         /* CLOCK_MONOTONIC */
    int flag;
};

static struct shared *s;
static int cmd[2];

static long long now_ns(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct timespec in_ms(clockid_t c, long ms) {
    long long t = now_ns(c) + ms * 1000000LL;
    return (struct timespec){(time_t)(t / 1000000000LL), (long)(t % 1000000000LL)};
}

static void order(char c) {
    if (write(cmd[1], &c, 1) != 1) exit(4);
}

/* the child: one command byte at a time from the parent */
static void child(void) {
    char c;
    while (read(cmd[0], &c, 1) == 1) {
        switch (c) {
        case 'p': sem_post(&s->sem); break;
        case 'L': pthread_mutex_lock(&s->m); sem_post(&s->held); break;
        case 'U': pthread_mutex_unlock(&s->m); break;
        case 's':
            pthread_mutex_lock(&s->m);
            s->flag = 1;
            pthread_cond_broadcast(&s->c);
            pthread_cond_broadcast(&s->cm);
            pthread_mutex_unlock(&s->m);
            break;
        case 'q': _exit(0);
        }
    }
    _exit(1);
}

static void report(const char *what, int rc, long long t0, clockid_t c) {
    say("%s: %s after %lld ms\n", what, rc == 0 ? "ok" : rc == ETIMEDOUT ? "ETIMEDOUT" : strerror(rc),
        (now_ns(c) - t0) / 1000000LL);
}

static int sem_rc(int r) { return r == 0 ? 0 : errno; }

int main(int argc, char **argv) {
    s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED || pipe(cmd) != 0) return 1;
    sem_init(&s->sem, 1, 0);
    sem_init(&s->held, 1, 0);
    shared_mutex(&s->m, PTHREAD_MUTEX_DEFAULT, 0);
    shared_cond(&s->c, CLOCK_REALTIME);
    shared_cond(&s->cm, CLOCK_MONOTONIC);
    if (argc > 1 && !strcmp(argv[1], "threaded")) use_thread_model();
    pid_t p = fork();
    if (p == 0) child();

    const clockid_t RT = CLOCK_REALTIME, MO = CLOCK_MONOTONIC;
    long long t0;
    struct timespec d;

    /* semaphores */
    order('p');
    t0 = now_ns(RT); d = in_ms(RT, 5000);
    report("sem_timedwait, posted", sem_rc(sem_timedwait(&s->sem, &d)), t0, RT);
    t0 = now_ns(RT); d = in_ms(RT, 2000);
    report("sem_timedwait, idle", sem_rc(sem_timedwait(&s->sem, &d)), t0, RT);
    order('p');
    t0 = now_ns(MO); d = in_ms(MO, 5000);
    report("sem_clockwait, posted", sem_rc(sem_clockwait(&s->sem, MO, &d)), t0, MO);
    t0 = now_ns(MO); d = in_ms(MO, 700);
    report("sem_clockwait, idle", sem_rc(sem_clockwait(&s->sem, MO, &d)), t0, MO);

    /* mutexes: the child holds m until told to let go */
    order('L');
    sem_wait(&s->held);
    t0 = now_ns(RT); d = in_ms(RT, 1000);
    report("mutex_timedlock, held", pthread_mutex_timedlock(&s->m, &d), t0, RT);
    t0 = now_ns(MO); d = in_ms(MO, 250);
    report("mutex_clocklock, held", pthread_mutex_clocklock(&s->m, MO, &d), t0, MO);
    order('U');
    t0 = now_ns(RT); d = in_ms(RT, 5000);
    int rc = pthread_mutex_timedlock(&s->m, &d);
    report("mutex_timedlock, released", rc, t0, RT);
    if (rc == 0) pthread_mutex_unlock(&s->m);

    /* condition variables */
    pthread_mutex_lock(&s->m);
    t0 = now_ns(RT); d = in_ms(RT, 1500);
    report("cond_timedwait, idle", pthread_cond_timedwait(&s->c, &s->m, &d), t0, RT);
    t0 = now_ns(MO); d = in_ms(MO, 300);
    report("cond_clockwait, idle", pthread_cond_clockwait(&s->cm, &s->m, MO, &d), t0, MO);
    order('s');
    t0 = now_ns(RT); d = in_ms(RT, 5000);
    rc = 0;
    while (!s->flag && rc == 0) rc = pthread_cond_timedwait(&s->c, &s->m, &d);
    report("cond_timedwait, signalled", rc, t0, RT);
    s->flag = 0;
    order('s');
    t0 = now_ns(MO); d = in_ms(MO, 5000);
    rc = 0;
    while (!s->flag && rc == 0) rc = pthread_cond_timedwait(&s->cm, &s->m, &d);
    report("cond_timedwait (monotonic), signalled", rc, t0, MO);
    pthread_mutex_unlock(&s->m);

    order('q');
    int st = 0;
    waitpid(p, &st, 0);
    say("child exit %d\n", WEXITSTATUS(st));
    return 0;
}
