/*
 * timeout_threaded.c - a threaded program under coreutils' `timeout` (issue 29). The main thread
 * sleeps while a second thread waits for it on a pipe (a wait without a deadline), so every thread
 * waits and the earliest wake is the sleep's: under process scheduling the process is a bounded
 * waiter of the tree, beside `timeout` waiting in sigsuspend for its own (later) expiry.
 *
 *   timeout_threaded        main sleeps 0.5 s, wakes the thread; prints what each saw, exits 0
 *   timeout_threaded long   the same with a 10 s sleep (`timeout 1` ends it with 124 at 1 s)
 *
 * On a machine `timeout 20 timeout_threaded` prints what the program prints alone. Before, on some
 * seeds, the tree's idle round that ended the sleep also ended `timeout`'s wait, whose clock then
 * jumped to its 20 s expiry: the child was killed at once, with no output, rc 124.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int pipe_fds[2];
static struct timespec start;

static long centiseconds_since_start(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start.tv_sec) * 100 + (now.tv_nsec - start.tv_nsec) / 10000000;
}

static void *waiter(void *unused) {
    (void)unused;
    char c;
    ssize_t n = read(pipe_fds[0], &c, 1); /* blocks until main writes after its sleep */
    printf("thread: read %zd byte(s) at %ld cs\n", n, centiseconds_since_start());
    return NULL;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    useconds_t sleep_us = argc > 1 && strcmp(argv[1], "long") == 0 ? 10000000 : 500000;
    clock_gettime(CLOCK_MONOTONIC, &start);
    if (pipe(pipe_fds) != 0) return 1;
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    usleep(sleep_us);
    printf("main: slept %ld cs\n", centiseconds_since_start());
    if (write(pipe_fds[1], "x", 1) != 1) return 1;
    pthread_join(t, NULL);
    printf("main: done at %ld cs\n", centiseconds_since_start());
    return 0;
}
