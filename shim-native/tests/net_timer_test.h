/*
 * net_timer_test.h - what the programs timing signal timers against socket waits share (net_timers.c,
 * net_timers_select.c): the tick counter their handlers bump, installing a handler, loopback sockets, a
 * POSIX timer on SIGUSR1 and the result line. Every figure printed is rounded to tenths of a second, so
 * the transcript under weft (virtual time) equals the one a real machine prints.
 */
#ifndef WEFT_NET_TIMER_TEST_H
#define WEFT_NET_TIMER_TEST_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* Signals handled so far in the current scenario; each scenario sets it to 0 first. */
static volatile sig_atomic_t ticks;

/* The plain handler: counts the signal. */
static inline void count_tick(int sig) {
    (void)sig;
    ticks++;
}

/* Installs fn for sig with the given sa_flags (0 or SA_RESTART), no signal masked while it runs. */
static inline void handle(int sig, void (*fn)(int), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static inline long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* ns in tenths of a second, rounded to the nearest. */
static inline int tenths(long long ns) { return (int)((ns + 50000000LL) / 100000000LL); }

static inline struct sockaddr_in addr(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

/* A UDP socket bound to port on loopback, or -1 (said on stderr). */
static inline int udp(int port) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in a = addr(port);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a)) { perror("udp"); return -1; }
    return fd;
}

/* A TCP socket listening on port on loopback, or -1 (said on stderr). */
static inline int tcp_listener(int port) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = addr(port);
    int one = 1;
    setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 4)) { perror("tcp listen"); return -1; }
    return l;
}

/* A POSIX timer on CLOCK_MONOTONIC that raises SIGUSR1 when it expires (not armed yet). */
static inline timer_t usr1_timer(void) {
    timer_t tid;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGUSR1;
    timer_create(CLOCK_MONOTONIC, &sev, &tid);
    return tid;
}

/* One scenario's line: its return value, errno when it failed, the signals handled and the time taken. */
static inline void result(const char *what, long rc, int err, long long t0) {
    printf("%s rc=%ld%s%s ticks=%d after=%d\n", what, rc, rc < 0 ? " errno=" : "", rc < 0 ? strerror(err) : "",
           (int)ticks, tenths(now_ns() - t0));
    fflush(stdout);
}

#endif
