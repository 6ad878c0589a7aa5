/* waits: every way a thread waits outside pthread mutexes/condvars, in one program.
 *   - a reader thread blocks in read() on a pipe that a writer thread fills after a sleep;
 *   - poll, select and epoll_wait with timeouts on an fd that never becomes ready;
 *   - a raw futex wait (syscall(SYS_futex)) woken by another thread, and one that times out;
 *   - syscall(SYS_getrandom) and nanosleep in threads.
 * Under `weft run` the long timeouts pass in virtual time (the run takes milliseconds) and the
 * printed virtual durations are exact; natively it takes about 3.5 s and the figures vary.
 */

#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int pipefd[2];
static atomic_int word;

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void *reader(void *arg) {
    (void)arg;
    char buf[16] = {0};
    ssize_t n = read(pipefd[0], buf, sizeof buf - 1);
    printf("reader: read %zd bytes: %s\n", n, buf);
    return NULL;
}

static void *writer(void *arg) {
    (void)arg;
    struct timespec d = {0, 300 * 1000000L};
    nanosleep(&d, NULL);
    if (write(pipefd[1], "hello", 5) != 5) perror("write");
    return NULL;
}

static void *futex_waker(void *arg) {
    (void)arg;
    usleep(200000);
    atomic_store(&word, 1);
    syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    return NULL;
}

int main(void) {
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (pipe(pipefd) != 0) return 1;
    pthread_t r, w, f;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(r, NULL);
    pthread_join(w, NULL);

    int quiet[2];
    if (pipe(quiet) != 0) return 1;
    struct pollfd p = {.fd = quiet[0], .events = POLLIN};
    int rc = poll(&p, 1, 1000);
    printf("poll: %d\n", rc);
    fd_set set;
    FD_ZERO(&set);
    FD_SET(quiet[0], &set);
    struct timeval tv = {0, 500000};
    rc = select(quiet[0] + 1, &set, NULL, NULL, &tv);
    printf("select: %d\n", rc);
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = quiet[0]}, got;
    epoll_ctl(ep, EPOLL_CTL_ADD, quiet[0], &ev);
    rc = epoll_wait(ep, &got, 1, 1500);
    printf("epoll_wait: %d\n", rc);

    pthread_create(&f, NULL, futex_waker, NULL);
    while (atomic_load(&word) == 0) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    pthread_join(f, NULL);
    struct timespec to = {0, 250 * 1000000L};
    long frc = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, &to, NULL, 0);
    printf("futex: woken, then timed wait -> %ld\n", frc);

    unsigned char rnd[4];
    syscall(SYS_getrandom, rnd, sizeof rnd, 0);
    printf("getrandom: %02x%02x%02x%02x\n", rnd[0], rnd[1], rnd[2], rnd[3]);
    printf("elapsed: %ld ms\n", ms_since(&t0));
    return 0;
}
