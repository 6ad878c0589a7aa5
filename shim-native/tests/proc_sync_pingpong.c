/*
 * proc_sync_pingpong.c - a parent and its forked child take turns through a process-shared mutex
 * and condition variable in MAP_SHARED memory (issue 18 item 1). Each turn prints a line while it
 * holds the mutex; between turns each process prints a "free" line (a raw write: a process yield
 * point), whose place among the other's lines is up to the schedule.
 *
 *   proc_sync_pingpong [threaded] [robust]
 *     threaded: the parent starts a second thread first, so its calls go through the thread model
 *     robust:   afterwards the child dies holding a robust error-checking mutex; the parent's lock
 *               returns EOWNERDEAD, then relocking says EDEADLK and a second unlock EPERM
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc_test.h"

#define ROUNDS 4

struct shared {
    pthread_mutex_t m;
    pthread_cond_t c;
    int turn; /* 0: parent, 1: child */
    pthread_mutex_t robust;
};

static void play(struct shared *s, int me, const char *name) {
    for (int i = 1; i <= ROUNDS; i++) {
        pthread_mutex_lock(&s->m);
        while (s->turn != me) pthread_cond_wait(&s->c, &s->m);
        say("%s turn %d\n", name, i);
        s->turn = !me;
        pthread_cond_signal(&s->c);
        pthread_mutex_unlock(&s->m);
        say("%s free %d\n", name, i);
    }
}

int main(int argc, char **argv) {
    int threaded = 0, robust = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "threaded")) threaded = 1;
        if (!strcmp(argv[i], "robust")) robust = 1;
    }
    struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) return 1;
    shared_mutex(&s->m, PTHREAD_MUTEX_DEFAULT, 0);
    shared_mutex(&s->robust, PTHREAD_MUTEX_ERRORCHECK, 1);
    shared_cond(&s->c, CLOCK_REALTIME);
    if (threaded) use_thread_model();
    pid_t p = fork();
    if (p == 0) {
        play(s, 1, "child");
        if (robust) {
            pthread_mutex_lock(&s->robust);
            say("child dies holding the robust mutex\n");
            _exit(0);
        }
        _exit(0);
    }
    play(s, 0, "parent");
    int st = 0;
    waitpid(p, &st, 0);
    if (robust) {
        int rc = pthread_mutex_lock(&s->robust);
        say("parent lock: %s\n", rc == EOWNERDEAD ? "EOWNERDEAD" : strerror(rc));
        if (rc == EOWNERDEAD) pthread_mutex_consistent(&s->robust);
        rc = pthread_mutex_lock(&s->robust);
        say("parent relock: %s\n", rc == EDEADLK ? "EDEADLK" : strerror(rc));
        pthread_mutex_unlock(&s->robust);
        rc = pthread_mutex_unlock(&s->robust);
        say("parent unlocks it again: %s\n", rc == EPERM ? "EPERM" : strerror(rc));
    }
    say("done, child status %d\n", WEXITSTATUS(st));
    return 0;
}
