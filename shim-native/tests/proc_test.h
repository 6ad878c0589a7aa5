/*
 * proc_test.h - small pieces the process-scheduling tests share (proc_sync_pingpong.c,
 * proc_sync_timed.c, proc_signals.c).
 */
#ifndef WEFT_PROC_TEST_H
#define WEFT_PROC_TEST_H

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
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

#endif
