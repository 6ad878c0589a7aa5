/*
 * net_basic.c - simulated UDP through the shim (docs/shim.md "Network"), one scenario per run:
 *   net_basic basic|dontwait|rcvtimeo|poll|epoll|select|msg|connect|sockopt|passthrough
 *   net_basic wait [port]        block in recvfrom until a datagram (or an error) comes
 *   net_basic threadwait [port]  the same in a second (scheduler-managed) thread
 *   net_basic retransmit|threadretransmit T   send to 127.0.0.2:5000 every T virtual ms until a reply
 *   net_basic windowed|threadwindowed  windowed receives (run with WEFT_WINDOW_NS set)
 *   net_basic threadecho         two managed threads as client and echo server (schedule-dependent)
 *   net_basic threadpoll         the poll scenario in a managed thread
 *   net_basic sleeppoll T        poll with MSG_DONTWAIT, sleeping T virtual ms in between
 *   net_basic send ip port text  send one datagram
 * Node 0 is 127.0.0.1. Output is one line per step; the launcher's net tests compare it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "mono_clock.h"

static struct sockaddr_in addr(const char *ip, int port) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    return a;
}

static int udp(void) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) { perror("socket"); exit(2); }
    return fd;
}

static int bound(const char *ip, int port) {
    int fd = udp();
    struct sockaddr_in a = addr(ip, port);
    if (bind(fd, (struct sockaddr *)&a, sizeof a)) { perror("bind"); exit(2); }
    return fd;
}

static void sendto_str(int fd, const char *ip, int port, const char *s) {
    struct sockaddr_in a = addr(ip, port);
    if (sendto(fd, s, strlen(s), 0, (struct sockaddr *)&a, sizeof a) != (ssize_t)strlen(s)) { perror("sendto"); exit(2); }
}

static const char *ename(int e) {
    switch (e) {
    case EAGAIN: return "EAGAIN";
    case EIO: return "EIO";
    case ECONNRESET: return "ECONNRESET";
    case EINVAL: return "EINVAL";
    case ENOTCONN: return "ENOTCONN";
    case EDESTADDRREQ: return "EDESTADDRREQ";
    case ENOPROTOOPT: return "ENOPROTOOPT";
    case EFAULT: return "EFAULT";
    case EBADF: return "EBADF";
    default: return strerror(e);
    }
}

static void print_recv(const char *what, int fd, int flags) {
    char buf[128];
    struct sockaddr_in from;
    socklen_t fl = sizeof from;
    ssize_t n = recvfrom(fd, buf, sizeof buf - 1, flags, (struct sockaddr *)&from, &fl);
    if (n < 0) { printf("%s: %s\n", what, ename(errno)); return; }
    buf[n] = 0;
    char ip[32];
    inet_ntop(AF_INET, &from.sin_addr, ip, sizeof ip);
    printf("%s: \"%s\" from %s:%d\n", what, buf, ip, ntohs(from.sin_port));
}

static void print_name(const char *what, int fd) {
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    if (getsockname(fd, (struct sockaddr *)&a, &l)) { printf("%s: %s\n", what, ename(errno)); return; }
    char ip[32];
    inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
    printf("%s: %s:%d (len %d)\n", what, ip, ntohs(a.sin_port), (int)l);
}

static int basic(void) {
    int a = bound("127.0.0.1", 4000);
    int b = bound("0.0.0.0", 4001);          /* the wildcard is the node's own address */
    print_name("name a", a);
    print_name("name b", b);
    sendto_str(a, "127.0.0.1", 4001, "hello");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    print_recv("b got", b, 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* each clock read observes once (1 µs); a receive observes once more (spec §4) */
    printf("clock observations by the receive: %ld\n",
           ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec)) / 1000 - 1);
    int c = udp();                            /* unbound: the first send auto-binds from 50000 */
    print_name("name c before", c);
    sendto_str(c, "127.0.0.1", 4001, "auto");
    print_name("name c after", c);
    print_recv("b got", b, 0);
    sendto_str(b, "127.0.0.1", 50000, "back");
    print_recv("c got", c, 0);
    char buf[4];                              /* truncation: the rest of the datagram is dropped */
    sendto_str(a, "127.0.0.1", 4001, "truncated");
    ssize_t n = recv(b, buf, sizeof buf, 0);
    printf("short recv: %zd \"%.4s\"\n", n, buf);
    sendto_str(a, "127.0.0.1", 4001, "after");
    print_recv("b peeked", b, MSG_PEEK);
    print_recv("b got", b, 0);
    struct sockaddr_in bad = addr("127.0.0.1", 1);
    bad.sin_family = AF_UNIX;
    ssize_t r = sendto(a, "x", 1, 0, (struct sockaddr *)&bad, sizeof bad);
    printf("sendto bad family: %zd %s\n", r, ename(errno));
    r = sendto(a, NULL, 1, 0, NULL, 0);
    printf("sendto null buffer: %zd %s\n", r, ename(errno));
    int d = udp();
    r = recvfrom(d, buf, sizeof buf, 0, NULL, NULL);
    printf("recvfrom unbound: %zd %s\n", r, ename(errno));
    printf("close: %d %d %d %d\n", close(a), close(b), close(c), close(d));
    return 0;
}

static int dontwait(void) {
    int a = bound("127.0.0.1", 4000);
    int b = bound("127.0.0.1", 4001);
    print_recv("MSG_DONTWAIT on empty", b, MSG_DONTWAIT);
    fcntl(b, F_SETFL, fcntl(b, F_GETFL) | O_NONBLOCK);
    printf("O_NONBLOCK reported: %d\n", (fcntl(b, F_GETFL) & O_NONBLOCK) != 0);
    print_recv("O_NONBLOCK on empty", b, 0);
    sendto_str(a, "127.0.0.1", 4001, "now");
    print_recv("O_NONBLOCK with data", b, 0);
    fcntl(b, F_SETFL, fcntl(b, F_GETFL) & ~O_NONBLOCK);
    sendto_str(a, "127.0.0.1", 4001, "again");
    print_recv("MSG_DONTWAIT with data", b, MSG_DONTWAIT);
    int c = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in ca = addr("127.0.0.1", 4002);
    bind(c, (struct sockaddr *)&ca, sizeof ca);
    print_recv("SOCK_NONBLOCK on empty", c, 0);
    return 0;
}

static int rcvtimeo(void) {
    int b = bound("127.0.0.1", 4001);
    struct timeval tv = {2, 500000};
    setsockopt(b, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    struct timeval back;
    socklen_t bl = sizeof back;
    getsockopt(b, SOL_SOCKET, SO_RCVTIMEO, &back, &bl);
    printf("SO_RCVTIMEO: %ld.%06ld\n", (long)back.tv_sec, (long)back.tv_usec);
    for (int i = 0; i < 3; i++) {
        long long t0 = mono_ms();
        print_recv("timed recv", b, 0);
        printf("virtual ms waited: %lld\n", mono_ms() - t0);
    }
    int a = bound("127.0.0.1", 4000);
    sendto_str(a, "127.0.0.1", 4001, "in time");
    long long t0 = mono_ms();
    print_recv("timed recv", b, 0);
    printf("virtual ms waited: %lld\n", mono_ms() - t0);
    return 0;
}

/* The readiness scenarios' fixture: sockets a (port 4000) and b (4001), then a pipe beside them. */
static int sockets_and_pipe(int *a, int *b, int pfd[2]) {
    *a = bound("127.0.0.1", 4000);
    *b = bound("127.0.0.1", 4001);
    return pipe(pfd);
}

static void show_poll(const char *what, struct pollfd *p, int rc) {
    printf("%s: rc %d pipe %s socket %s\n", what, rc, (p[0].revents & POLLIN) ? "readable" : "-",
           (p[1].revents & POLLIN) ? "readable" : "-");
}

static int pollmix(void) {
    int a, b, pfd[2];
    if (sockets_and_pipe(&a, &b, pfd)) return 2;
    struct pollfd p[2] = {{.fd = pfd[0], .events = POLLIN}, {.fd = b, .events = POLLIN}};
    long long t0 = mono_ms();
    int rc = poll(p, 2, 1000);
    show_poll("nothing", p, rc);
    printf("virtual ms waited: %lld\n", mono_ms() - t0);
    if (write(pfd[1], "x", 1) != 1) return 2;
    rc = poll(p, 2, 1000);
    show_poll("pipe written", p, rc);
    char c;
    if (read(pfd[0], &c, 1) != 1) return 2;
    sendto_str(a, "127.0.0.1", 4001, "dgram");
    rc = poll(p, 2, -1);
    show_poll("datagram sent", p, rc);
    rc = poll(p, 2, -1);
    show_poll("not read yet", p, rc);
    print_recv("b got", b, 0);
    rc = poll(p, 2, 0);
    show_poll("after reading", p, rc);
    struct pollfd w = {.fd = a, .events = POLLOUT};
    rc = poll(&w, 1, 0);
    printf("writable: %d %s\n", rc, (w.revents & POLLOUT) ? "POLLOUT" : "-");
    return 0;
}

static int selectmix(void) {
    int a, b, pfd[2];
    if (sockets_and_pipe(&a, &b, pfd)) return 2;
    int nfds = (b > pfd[0] ? b : pfd[0]) + 1;
    for (int round = 0; round < 2; round++) {
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(pfd[0], &rd);
        FD_SET(b, &rd);
        struct timeval tv = {1, 0};
        long long t0 = mono_ms();
        int rc = select(nfds, &rd, NULL, NULL, &tv);
        printf("select: rc %d pipe %d socket %d (virtual ms %lld)\n", rc, FD_ISSET(pfd[0], &rd),
               FD_ISSET(b, &rd), mono_ms() - t0);
        if (round == 0) sendto_str(a, "127.0.0.1", 4001, "sel");
    }
    print_recv("b got", b, 0);
    return 0;
}

static int epollmix(void) {
    int a, b, pfd[2];
    if (sockets_and_pipe(&a, &b, pfd)) return 2;
    int ep = epoll_create1(0);
    struct epoll_event e = {.events = EPOLLIN, .data.u32 = 1};
    epoll_ctl(ep, EPOLL_CTL_ADD, pfd[0], &e);
    e.data.u32 = 2;
    epoll_ctl(ep, EPOLL_CTL_ADD, b, &e);
    struct epoll_event out[4];
    long long t0 = mono_ms();
    int rc = epoll_wait(ep, out, 4, 500);
    printf("epoll nothing: rc %d (virtual ms %lld)\n", rc, mono_ms() - t0);
    sendto_str(a, "127.0.0.1", 4001, "ep");
    rc = epoll_wait(ep, out, 4, -1);
    printf("epoll datagram: rc %d tag %u\n", rc, rc > 0 ? out[0].data.u32 : 0);
    print_recv("b got", b, 0);
    if (write(pfd[1], "x", 1) != 1) return 2;
    rc = epoll_wait(ep, out, 4, -1);
    printf("epoll pipe: rc %d tag %u\n", rc, rc > 0 ? out[0].data.u32 : 0);
    return 0;
}

static int msgs(void) {
    int a = bound("127.0.0.1", 4000);
    int b = bound("127.0.0.1", 4001);
    struct sockaddr_in to = addr("127.0.0.1", 4001);
    struct iovec out[3] = {{"sc", 2}, {"att", 3}, {"ered", 4}};
    struct msghdr m = {.msg_name = &to, .msg_namelen = sizeof to, .msg_iov = out, .msg_iovlen = 3};
    printf("sendmsg: %zd\n", sendmsg(a, &m, 0));
    char x[4], y[16];
    struct sockaddr_in from;
    struct iovec in[2] = {{x, sizeof x}, {y, sizeof y}};
    struct msghdr r = {.msg_name = &from, .msg_namelen = sizeof from, .msg_iov = in, .msg_iovlen = 2};
    ssize_t n = recvmsg(b, &r, 0);
    printf("recvmsg: %zd \"%.4s\" + \"%.*s\" from port %d flags %s\n", n, x, (int)(n > 4 ? n - 4 : 0), y,
           ntohs(from.sin_port), (r.msg_flags & MSG_TRUNC) ? "MSG_TRUNC" : "0");
    sendmsg(a, &m, 0);
    struct iovec small = {x, 3};
    struct msghdr r2 = {.msg_iov = &small, .msg_iovlen = 1};
    n = recvmsg(b, &r2, 0);
    printf("recvmsg small: %zd \"%.3s\" flags %s\n", n, x, (r2.msg_flags & MSG_TRUNC) ? "MSG_TRUNC" : "0");
    sendmsg(a, &m, 0);
    n = recv(b, x, 3, MSG_TRUNC);
    printf("recv MSG_TRUNC: %zd\n", n);
    return 0;
}

static int connected(void) {
    int a = bound("127.0.0.1", 4000);
    int b = bound("127.0.0.1", 4001);
    int c = bound("127.0.0.1", 4002);
    struct sockaddr_in pb = addr("127.0.0.1", 4001), pa = addr("127.0.0.1", 4000);
    struct sockaddr_in peer;
    socklen_t pl = sizeof peer;
    int rc = getpeername(a, (struct sockaddr *)&peer, &pl);
    printf("getpeername before: %d %s\n", rc, ename(errno));
    ssize_t r = send(a, "x", 1, 0);
    printf("send unconnected: %zd %s\n", r, ename(errno));
    printf("connect: %d\n", connect(a, (struct sockaddr *)&pb, sizeof pb));
    pl = sizeof peer;
    getpeername(a, (struct sockaddr *)&peer, &pl);
    printf("getpeername: port %d\n", ntohs(peer.sin_port));
    printf("send: %zd\n", send(a, "via send", 8, 0));
    printf("write: %zd\n", write(a, "via write", 9));
    print_recv("b got", b, 0);
    print_recv("b got", b, 0);
    connect(b, (struct sockaddr *)&pa, sizeof pa);
    sendto_str(c, "127.0.0.1", 4001, "from a stranger");   /* a connected socket ignores it */
    if (write(a, "from the peer", 13) != 13) return 2;
    char buf[64];
    ssize_t n = read(b, buf, sizeof buf);
    printf("read: %zd \"%.*s\"\n", n, (int)(n > 0 ? n : 0), buf);
    struct sockaddr_in un = {.sin_family = AF_UNSPEC};
    printf("disconnect: %d\n", connect(a, (struct sockaddr *)&un, sizeof un));
    pl = sizeof peer;
    rc = getpeername(a, (struct sockaddr *)&peer, &pl);
    printf("getpeername after: %d %s\n", rc, ename(errno));
    return 0;
}

static int sockopt(void) {
    int a = udp();
    int v;
    socklen_t l = sizeof v;
    getsockopt(a, SOL_SOCKET, SO_TYPE, &v, &l);
    printf("SO_TYPE dgram: %d\n", v == SOCK_DGRAM);
    l = sizeof v;
    getsockopt(a, SOL_SOCKET, SO_DOMAIN, &v, &l);
    printf("SO_DOMAIN inet: %d\n", v == AF_INET);
    int one = 1;
    printf("SO_REUSEADDR: %d\n", setsockopt(a, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one));
    l = sizeof v;
    getsockopt(a, SOL_SOCKET, SO_REUSEADDR, &v, &l);
    printf("SO_REUSEADDR back: %d\n", v);
    l = sizeof v;
    int rc = getsockopt(a, SOL_SOCKET, 9999, &v, &l);
    printf("unknown option: %d %s\n", rc, ename(errno));
    rc = setsockopt(a, SOL_SOCKET, SO_REUSEADDR, &one, 1);
    printf("short option: %d %s\n", rc, ename(errno));
    return 0;
}

static int passthrough(void) {
    int t = socket(AF_INET6, SOCK_STREAM, 0);   /* AF_INET streams are simulated (tcp_basic.c) */
    int u = socket(AF_UNIX, SOCK_DGRAM, 0);
    int s = udp();
    int v;
    socklen_t l = sizeof v;
    getsockopt(t, SOL_SOCKET, SO_TYPE, &v, &l);
    printf("tcp6 is a real stream socket: %d\n", v == SOCK_STREAM);
    printf("unix socket: %d\n", u >= 0);
    printf("udp simulated: %d\n", s >= 0);
    return 0;
}

static int wait_for(int port) {
    int b = bound("127.0.0.1", port);
    printf("waiting\n");
    fflush(stdout);
    print_recv("got", b, 0);
    return 0;
}

/* A client that retransmits on every receive timeout until a reply comes; prints how many sends
 * it took. The pacing rule bounds that count by real time, not by CPU speed. */
static int retransmit(int timeout_ms) {
    int c = bound("127.0.0.1", 4000);
    struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char buf[64];
    long sends = 0;
    long long t0 = mono_ms();
    for (;;) {
        sendto_str(c, "127.0.0.2", 5000, "req");
        sends++;
        ssize_t n = recv(c, buf, sizeof buf, 0);
        if (n >= 0) break;
        if (errno != EAGAIN) { printf("recv: %s\n", ename(errno)); return 1; }
    }
    long long waited = mono_ms() - t0;
    printf("reply after %ld sends; virtual ms per send %lld\n", sends, waited / sends);
    return 0;
}

/* A node that polls with MSG_DONTWAIT and sleeps T virtual ms between polls until a datagram comes. */
static int sleeppoll(int sleep_ms) {
    int c = bound("127.0.0.1", 4000);
    char buf[64];
    long polls = 0;
    while (recv(c, buf, sizeof buf, MSG_DONTWAIT) < 0) {
        polls++;
        usleep((useconds_t)sleep_ms * 1000);
    }
    printf("datagram after %ld empty polls\n", polls);
    return 0;
}

/* Two managed threads as two nodes: a client sends PING:i and waits (SO_RCVTIMEO 50 ms) for the
 * echo, a server echoes; both draw rand() between steps, so the printed values depend on the
 * schedule. The same seed must print the same lines every run. */
static int echo_fd, client_fd;
static void *echo_server(void *unused) {
    (void)unused;
    char buf[64];
    struct sockaddr_in from;
    for (int i = 0; i < 5; i++) {
        socklen_t fl = sizeof from;
        ssize_t n = recvfrom(echo_fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
        if (n < 0) { printf("server: %s\n", ename(errno)); return NULL; }
        printf("server: %.*s rand %d\n", (int)n, buf, rand() % 1000);
        sendto(echo_fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
    }
    return NULL;
}
static void *echo_client(void *unused) {
    (void)unused;
    struct timeval tv = {0, 50000};
    setsockopt(client_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char msg[32], buf[64];
    for (int i = 0; i < 5; i++) {
        snprintf(msg, sizeof msg, "PING:%d", i);
        sendto_str(client_fd, "127.0.0.1", 4000, msg);
        ssize_t n = recv(client_fd, buf, sizeof buf, 0);
        printf("client: %s rand %d\n", n < 0 ? ename(errno) : "echo", rand() % 1000);
    }
    return NULL;
}
static int threadecho(void) {
    echo_fd = bound("127.0.0.1", 4000);
    client_fd = bound("127.0.0.1", 4001);
    pthread_t a, b;
    pthread_create(&a, NULL, echo_server, NULL);
    pthread_create(&b, NULL, echo_client, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("virtual ms: %lld\n", mono_ms());
    return 0;
}

/* Windowed (WEFT_WINDOW_NS > 0): a timed receive, a blocking one, a non-blocking one; socket b is
 * closed, c stays open (Goodbye at exit). The test moves the broker's horizon between steps. */
static int windowed(void) {
    int b = bound("127.0.0.1", 4001);
    int c = bound("127.0.0.1", 4002);
    (void)c;
    struct timeval tv = {1, 0};
    setsockopt(b, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    long long t0 = mono_ms();
    print_recv("timed", b, 0);
    printf("virtual ms waited: %lld\n", mono_ms() - t0);
    tv.tv_sec = 0;
    setsockopt(b, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    print_recv("blocking", b, 0);
    printf("virtual s now: %lld\n", mono_ms() / 1000);
    print_recv("nonblocking", b, MSG_DONTWAIT);
    close(b);
    return 0;
}

/* The modes: a scenario takes no argument, or argv[2] as a number (a port or virtual ms, 4001 when
 * absent); a "thread..." mode runs its scenario in a second, scheduler-managed thread and exits 0. */
typedef struct mode {
    const char *name;
    int (*run)(void);
    int (*run_arg)(int);
    int threaded;
} mode;

static const mode modes[] = {
    {"basic", basic, NULL, 0}, {"dontwait", dontwait, NULL, 0}, {"rcvtimeo", rcvtimeo, NULL, 0},
    {"poll", pollmix, NULL, 0}, {"select", selectmix, NULL, 0}, {"epoll", epollmix, NULL, 0},
    {"msg", msgs, NULL, 0}, {"connect", connected, NULL, 0}, {"sockopt", sockopt, NULL, 0},
    {"passthrough", passthrough, NULL, 0}, {"threadecho", threadecho, NULL, 0},
    {"windowed", windowed, NULL, 0}, {"threadwindowed", windowed, NULL, 1}, {"threadpoll", pollmix, NULL, 1},
    {"wait", NULL, wait_for, 0}, {"threadwait", NULL, wait_for, 1}, {"sleeppoll", NULL, sleeppoll, 0},
    {"retransmit", NULL, retransmit, 0}, {"threadretransmit", NULL, retransmit, 1},
};

typedef struct mode_call { const mode *mode; int arg; } mode_call;

static int run_mode(const mode_call *c) { return c->mode->run ? c->mode->run() : c->mode->run_arg(c->arg); }

static void *run_mode_thread(void *c) {
    run_mode(c);
    return NULL;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    const char *m = argc > 1 ? argv[1] : "basic";
    int arg = argc > 2 ? atoi(argv[2]) : 4001;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(m, modes[i].name)) continue;
        mode_call c = {&modes[i], arg};
        if (!c.mode->threaded) return run_mode(&c);
        pthread_t t;
        pthread_create(&t, NULL, run_mode_thread, &c);
        pthread_join(t, NULL);
        return 0;
    }
    if (!strcmp(m, "send") && argc > 4) {
        int s = udp();
        sendto_str(s, argv[2], atoi(argv[3]), argv[4]);
        return 0;
    }
    fprintf(stderr, "usage: net_basic MODE\n");
    return 2;
}
