/*
 * alarm_main_thread - which thread a process-directed timer signal interrupts (issue 29). Linux gives
 * alarm's SIGALRM to the main thread when it does not block it, and to another thread only
 * otherwise; the shim used to give it to whichever thread's wait reached the expiry first. Every
 * line is what a real machine prints (times in tenths of a second since the start), so the
 * transcript under the shim must equal a plain run's, on every seed.
 *   select-main  main in select on a pipe (no timeout), a thread sleeping 3 s: main's select fails
 *                with EINTR at 1 s, the sleep ends at 3 s
 *   udp-main     the same with a UDP socket (a cluster node's simulated socket: weft run --net)
 *   sleep-main   main sleeping 3 s, a thread in select on a pipe with a 2 s timeout: main's sleep
 *                is interrupted at 1 s, the select times out at 2 s
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms;
static long long t0;
static int pipefd[2];

static void on_alarm(int s) { (void)s; alarms++; }

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int tenths(void) { return (int)((now_ns() - t0 + 50000000LL) / 100000000LL); }

static void report(const char *who, const char *call, int rc) {
    printf("%s: %s rc=%d%s%s at %d\n", who, call, rc, rc < 0 ? " " : "", rc < 0 ? strerror(errno) : "", tenths());
}

static void sleep_3s(const char *who) {
    struct timespec d = {3, 0};
    report(who, "nanosleep", nanosleep(&d, NULL));
}

static void select_fd(const char *who, int fd, int timeout_s) {
    fd_set r;
    FD_ZERO(&r);
    FD_SET(fd, &r);
    struct timeval tv = {timeout_s, 0};
    report(who, "select", select(fd + 1, &r, NULL, NULL, timeout_s ? &tv : NULL));
}

static void select_pipe(const char *who, int timeout_s) { select_fd(who, pipefd[0], timeout_s); }

static int udp_socket(void) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(4961), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a)) return -1;
    return fd;
}

static void *sleeper(void *a) { (void)a; sleep_3s("thread"); return NULL; }
static void *selector(void *a) { (void)a; select_pipe("thread", 2); return NULL; }

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    if (pipe(pipefd)) return 1;
    t0 = now_ns();
    pthread_t th;
    if (!strcmp(c, "select-main")) {
        pthread_create(&th, NULL, sleeper, NULL);
        alarm(1);
        select_pipe("main", 0);
    } else if (!strcmp(c, "udp-main")) {
        int fd = udp_socket();
        if (fd < 0) { perror("udp socket"); return 1; }
        pthread_create(&th, NULL, sleeper, NULL);
        alarm(1);
        select_fd("main", fd, 0);
    } else if (!strcmp(c, "sleep-main")) {
        pthread_create(&th, NULL, selector, NULL);
        alarm(1);
        sleep_3s("main");
    } else {
        fprintf(stderr, "usage: alarm_main_thread select-main|udp-main|sleep-main\n");
        return 2;
    }
    pthread_join(th, NULL);
    printf("alarms=%d end at %d\n", (int)alarms, tenths());
    return 0;
}
