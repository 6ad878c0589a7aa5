/*
 * proc_poll_timeout.c - a poll with a finite timeout on a pipe another process of the tree writes
 * (issue 18, item 1; run with WEFT_PROC_SCHED=1). Round 1: the parent polls the child's pipe for
 * 5 s while the child pauses (usleep: a yield point) and writes - the child must get its turn
 * before the timeout elapses, so the poll reports the data, not a timeout. Round 2: the child
 * waits for a byte from the parent, so nobody in the tree can make the parent's pipe readable:
 * the parent's 2 s poll times out, and its virtual clock moves by the timeout. The parent prints
 * the virtual milliseconds each poll took (a function of the seed, stable across runs).
 * With the argument "threaded" a second thread (blocked on a semaphore until the end) engages the
 * thread scheduler first, so the polls are the in-process model's timed waits instead.
 */
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void say(const char *s) {
    if (write(1, s, strlen(s)) < 0) _exit(3);
}

static sem_t done;
static void *idle_thread(void *arg) {
    (void)arg;
    sem_wait(&done);
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t helper;
    int threaded = argc > 1 && strcmp(argv[1], "threaded") == 0;
    sem_init(&done, 0, 0);
    if (threaded && pthread_create(&helper, NULL, idle_thread, NULL)) return 1;
    int up[2], down[2];
    if (pipe(up) || pipe(down)) { perror("pipe"); return 1; }
    pid_t kid = fork();
    if (kid < 0) { perror("fork"); return 1; }
    if (kid == 0) {
        close(up[0]);
        close(down[1]);
        usleep(1000);
        say("child writes\n");
        if (write(up[1], "x", 1) != 1) _exit(2);
        char c;
        if (read(down[0], &c, 1) != 1) _exit(2); /* round 2: waits for the parent */
        say("child released\n");
        _exit(0);
    }
    close(up[1]);
    close(down[0]);
    struct pollfd p = {.fd = up[0], .events = POLLIN};
    char line[96], c;
    long long t0 = now_ms();
    int r = poll(&p, 1, 5000);
    snprintf(line, sizeof line, "poll 1: %s after %lld ms\n", r == 1 ? "data" : r == 0 ? "timeout" : "error",
             now_ms() - t0);
    say(line);
    if (r == 1 && read(up[0], &c, 1) != 1) return 1;
    t0 = now_ms();
    r = poll(&p, 1, 2000);
    snprintf(line, sizeof line, "poll 2: %s after %lld ms\n", r == 1 ? "data" : r == 0 ? "timeout" : "error",
             now_ms() - t0);
    say(line);
    if (write(down[1], "y", 1) != 1) return 1;
    int st;
    waitpid(kid, &st, 0);
    say(WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "child ok\n" : "child failed\n");
    if (threaded) {
        sem_post(&done);
        pthread_join(helper, NULL);
    }
    return 0;
}
