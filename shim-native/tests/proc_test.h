/*
 * proc_test.h - small pieces the process-scheduling tests share (proc_sync_pingpong.c,
 * proc_sync_timed.c, proc_sync_locks.c, proc_signals.c).
 */
#ifndef WEFT_PROC_TEST_H
#define WEFT_PROC_TEST_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One line, formatted on the stack and written with one write(2): a process yield point under
 * process scheduling (stdio's own writes are not), so where another process's lines fall between
 * them is up to the schedule. */
static inline void say(const char *fmt, ...) {
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= (int)sizeof buf || write(1, buf, (size_t)n) != n) _exit(3);
}

/* A process-shared mutex of `type` (robust when asked). */
static inline void shared_mutex(pthread_mutex_t *m, int type, int robust) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_settype(&a, type);
    if (robust) pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
}

/* A process-shared condition variable timed on `clock`. */
static inline void shared_cond(pthread_cond_t *c, clockid_t clock) {
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
    pthread_condattr_setclock(&a, clock);
    pthread_cond_init(c, &a);
    pthread_condattr_destroy(&a);
}

static inline void *proc_test_idle(void *arg) { return arg; }

/* Starts and joins a thread: from then on the main thread's calls go through the thread model. */
static inline void use_thread_model(void) {
    pthread_t th;
    pthread_create(&th, NULL, proc_test_idle, NULL);
    pthread_join(th, NULL);
}

static inline long long now_ns(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The absolute time `ms` milliseconds from now on clock c (a timed wait's deadline). */
static inline struct timespec in_ms(clockid_t c, long ms) {
    long long t = now_ns(c) + ms * 1000000LL;
    return (struct timespec){(time_t)(t / 1000000000LL), (long)(t % 1000000000LL)};
}

/* "<what>: ok|ETIMEDOUT|EBUSY|<error> after <virtual ms since t0> ms" */
static inline void report(const char *what, int rc, long long t0, clockid_t c) {
    const char *r = rc == 0 ? "ok" : rc == ETIMEDOUT ? "ETIMEDOUT" : rc == EBUSY ? "EBUSY" : strerror(rc);
    say("%s: %s after %lld ms\n", what, r, (now_ns(c) - t0) / 1000000LL);
}

/* A forked child serving one-byte commands from its parent: order() sends one, serve() runs
 * act(command) for each until 'q' (exit 0) or end of file (exit 1). */
static int proc_test_cmd[2];

static inline void order(char c) {
    if (write(proc_test_cmd[1], &c, 1) != 1) exit(4);
}

static inline void serve(void (*act)(char)) {
    char c;
    while (read(proc_test_cmd[0], &c, 1) == 1) {
        if (c == 'q') _exit(0);
        act(c);
    }
    _exit(1);
}

#endif
