/*
 * net_timers - virtual timers against waits on simulated sockets (issue 29): run as a cluster node
 * (weft run --net ...), the sockets are the broker's; without the shim, the kernel's. Every line is
 * what a real machine prints (times in tenths of a second since the call began), so the transcript
 * under weft must equal the one without it.
 *   1 UDP recvfrom, alarm without SA_RESTART: EINTR at the alarm
 *   2 UDP recv, a periodic ITIMER_REAL with SA_RESTART: the receive goes on; the third tick's handler
 *     sends the datagram it then returns
 *   3 UDP recv with SO_RCVTIMEO and SA_RESTART: EINTR all the same (socket(7): never restarted)
 *   4 UDP recv with an SO_RCVTIMEO shorter than the alarm: EAGAIN at the timeout, no signal yet
 *   5 poll on a UDP socket, no timeout: EINTR at the alarm
 *   6 TCP accept, a POSIX timer (SIGUSR1): EINTR at the expiry
 *   7 TCP recv on a connected socket, alarm: EINTR at the alarm
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "net_timer_test.h"

static int send_fd = -1;
static struct sockaddr_in send_to;

/* Counts the signal; the third tick of scenario 2 sends the datagram the restarted receive then gets. */
static void on_signal(int sig) {
    count_tick(sig);
    if (send_fd >= 0 && ticks == 3)
        sendto(send_fd, "tick", 4, 0, (struct sockaddr *)&send_to, sizeof send_to);
}

static void rcvtimeo(int fd, long ms) {
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

int main(void) {
    char buf[64];
    int u = udp(4700), other = udp(4701);

    ticks = 0;
    handle(SIGALRM, on_signal, 0);
    long long t0 = now_ns();
    alarm(1);
    long rc = recvfrom(u, buf, sizeof buf, 0, NULL, NULL);
    result("1 udp recvfrom", rc, errno, t0);

    ticks = 0;
    handle(SIGALRM, on_signal, SA_RESTART);
    send_fd = other;
    send_to = addr(4700);
    struct itimerval every = {{0, 100000}, {0, 100000}}, off = {{0, 0}, {0, 0}};
    t0 = now_ns();
    setitimer(ITIMER_REAL, &every, NULL);
    rc = recv(u, buf, sizeof buf, 0);
    setitimer(ITIMER_REAL, &off, NULL);
    send_fd = -1;
    result("2 udp recv SA_RESTART", rc, errno, t0);
    if (rc > 0) printf("2 got \"%.*s\"\n", (int)rc, buf);

    ticks = 0;
    rcvtimeo(u, 5000);
    t0 = now_ns();
    alarm(1);
    rc = recv(u, buf, sizeof buf, 0);
    result("3 udp recv SO_RCVTIMEO=5s SA_RESTART", rc, errno, t0);

    ticks = 0;
    rcvtimeo(u, 500);
    t0 = now_ns();
    alarm(1);
    rc = recv(u, buf, sizeof buf, 0);
    int e = errno;
    alarm(0);
    result("4 udp recv SO_RCVTIMEO=0.5s alarm=1s", rc, e, t0);
    rcvtimeo(u, 0);

    ticks = 0;
    handle(SIGALRM, on_signal, 0);
    struct pollfd p = {.fd = u, .events = POLLIN};
    t0 = now_ns();
    alarm(1);
    rc = poll(&p, 1, -1);
    result("5 udp poll", rc, errno, t0);

    struct sockaddr_in la = addr(4800);
    int l = tcp_listener(4800);
    if (l < 0) return 1;
    ticks = 0;
    handle(SIGUSR1, on_signal, 0);
    timer_t tid = usr1_timer();
    struct itimerspec in1 = {{0, 0}, {1, 500000000}};
    t0 = now_ns();
    timer_settime(tid, 0, &in1, NULL);
    rc = accept(l, NULL, NULL);
    result("6 tcp accept timer_create", rc, errno, t0);
    timer_delete(tid);

    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c, (struct sockaddr *)&la, sizeof la)) { perror("tcp connect"); return 1; }
    int s = accept(l, NULL, NULL);
    if (s < 0) { perror("tcp accept"); return 1; }
    ticks = 0;
    t0 = now_ns();
    alarm(2);
    rc = recv(c, buf, sizeof buf, 0);
    result("7 tcp recv", rc, errno, t0);
    if (write(s, "late", 4) != 4) perror("write");
    rc = read(c, buf, sizeof buf);
    printf("7 then read %ld \"%.*s\"\n", rc, rc > 0 ? (int)rc : 0, buf);
    close(s);
    close(c);
    close(l);
    close(u);
    close(other);
    return 0;
}
