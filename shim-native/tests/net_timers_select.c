/*
 * net_timers_select - virtual timers against poll/ppoll/select/pselect/epoll_wait/epoll_pwait on
 * simulated sockets (issue 29): run as a cluster node (weft run --net ...), the sockets are the
 * broker's; without the shim, the kernel's. A handler run during such a wait makes it fail with EINTR
 * (signal(7): these calls are never restarted, SA_RESTART or not); the masks of ppoll, pselect and
 * epoll_pwait decide whether the handler runs during the wait or as the call returns. Every line is
 * what a real machine prints (times in tenths of a second since the call began, "left" = the time
 * select says is left), so the transcript under weft must equal the one without it.
 *   1 select on a UDP socket, no timeout, alarm: EINTR at the alarm
 *   2 select on a UDP socket, 3 s, alarm with SA_RESTART: EINTR all the same, 2 s left
 *   3 pselect on a UDP socket, SIGALRM blocked but let through by pselect's mask: EINTR at the alarm
 *   4 pselect on a UDP socket, 2 s, mask blocking SIGALRM: times out; the handler runs as it returns
 *   5 ppoll on a connected TCP socket, SIGALRM let through by its mask only: EINTR at the alarm
 *   6 poll on a TCP and a UDP socket, no timeout, a periodic ITIMER_REAL: EINTR at the first tick
 *   7 epoll_wait on a TCP listener and a connected TCP socket, no timeout, alarm: EINTR
 *   8 epoll_wait, 3 s, a POSIX timer with SA_RESTART at 1.5 s: EINTR at the expiry
 *   9 epoll_pwait, 1.5 s, mask blocking SIGALRM, alarm at 1 s: times out; the handler runs then
 *  10 select on a TCP socket after the waits: data the peer wrote is reported at once
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "net_timer_test.h"

/* The signal mask with SIGALRM blocked (how) or let through. */
static void alrm_mask(int how) {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGALRM);
    sigprocmask(how, &s, NULL);
}

int main(void) {
    int u = udp(4710);
    if (u < 0) return 1;
    fd_set rd;
    sigset_t none, alrm;
    sigemptyset(&none);
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);

    ticks = 0;
    handle(SIGALRM, count_tick, 0);
    FD_ZERO(&rd);
    FD_SET(u, &rd);
    long long t0 = now_ns();
    alarm(1);
    long rc = select(u + 1, &rd, NULL, NULL, NULL);
    result("1 udp select", rc, errno, t0);

    ticks = 0;
    handle(SIGALRM, count_tick, SA_RESTART);
    FD_ZERO(&rd);
    FD_SET(u, &rd);
    struct timeval tv = {3, 0};
    t0 = now_ns();
    alarm(1);
    rc = select(u + 1, &rd, NULL, NULL, &tv);
    int e = errno;
    printf("2 left=%d still set=%d ", tenths((long long)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL),
           FD_ISSET(u, &rd) != 0);
    result("udp select 3s SA_RESTART", rc, e, t0);

    ticks = 0;
    handle(SIGALRM, count_tick, 0);
    alrm_mask(SIG_BLOCK);
    FD_ZERO(&rd);
    FD_SET(u, &rd);
    t0 = now_ns();
    alarm(1);
    rc = pselect(u + 1, &rd, NULL, NULL, NULL, &none);
    result("3 udp pselect mask lets SIGALRM in", rc, errno, t0);
    alrm_mask(SIG_UNBLOCK);

    ticks = 0;
    FD_ZERO(&rd);
    FD_SET(u, &rd);
    struct timespec two = {2, 0};
    t0 = now_ns();
    alarm(1);
    rc = pselect(u + 1, &rd, NULL, NULL, &two, &alrm);
    result("4 udp pselect 2s mask blocks SIGALRM", rc, errno, t0);

    struct sockaddr_in la = addr(4810);
    int l = tcp_listener(4810);
    if (l < 0) return 1;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c, (struct sockaddr *)&la, sizeof la)) { perror("tcp connect"); return 1; }
    int s = accept(l, NULL, NULL);
    if (s < 0) { perror("tcp accept"); return 1; }

    ticks = 0;
    alrm_mask(SIG_BLOCK);
    struct pollfd p[2] = {{.fd = c, .events = POLLIN}, {.fd = u, .events = POLLIN}};
    t0 = now_ns();
    alarm(1);
    rc = ppoll(p, 1, NULL, &none);
    result("5 tcp ppoll mask lets SIGALRM in", rc, errno, t0);
    alrm_mask(SIG_UNBLOCK);

    ticks = 0;
    struct itimerval every = {{0, 700000}, {0, 700000}}, off = {{0, 0}, {0, 0}};
    t0 = now_ns();
    setitimer(ITIMER_REAL, &every, NULL);
    rc = poll(p, 2, -1);
    e = errno;
    setitimer(ITIMER_REAL, &off, NULL);
    result("6 tcp+udp poll setitimer", rc, e, t0);

    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = l}, out[4];
    epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev);
    ev.data.fd = c;
    epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
    ticks = 0;
    t0 = now_ns();
    alarm(1);
    rc = epoll_wait(ep, out, 4, -1);
    result("7 tcp epoll_wait", rc, errno, t0);

    ticks = 0;
    handle(SIGUSR1, count_tick, SA_RESTART);
    timer_t tid = usr1_timer();
    struct itimerspec in15 = {{0, 0}, {1, 500000000}};
    t0 = now_ns();
    timer_settime(tid, 0, &in15, NULL);
    rc = epoll_wait(ep, out, 4, 3000);
    result("8 tcp epoll_wait 3s timer_create SA_RESTART", rc, errno, t0);
    timer_delete(tid);

    ticks = 0;
    t0 = now_ns();
    alarm(1);
    rc = epoll_pwait(ep, out, 4, 1500, &alrm);
    result("9 tcp epoll_pwait 1.5s mask blocks SIGALRM", rc, errno, t0);

    if (write(s, "late", 4) != 4) perror("write");
    ticks = 0;
    FD_ZERO(&rd);
    FD_SET(c, &rd);
    t0 = now_ns();
    alarm(1);
    rc = select(c + 1, &rd, NULL, NULL, NULL);
    alarm(0);
    printf("10 readable=%d ", FD_ISSET(c, &rd) != 0);
    result("tcp select with data", rc, errno, t0);
    close(ep);
    close(s);
    close(c);
    close(l);
    close(u);
    return 0;
}
