/*
 * tcp_basic - simulated TCP sockets (docs/shim.md "TCP"), one scenario per run (argv[1]), all in
 * node 0 (127.0.0.1): a server and its clients are forked processes of one tree. Output is printed
 * so that it does not depend on real timing: a client prints and exits before the server, which
 * waits for it, prints what it saw.
 *   echo       blocking connect, write, read; accept; names of both ends
 *   nbconnect  non-blocking connect + poll(POLLOUT) + SO_ERROR; refused (non-blocking and blocking)
 *   epoll      an edge-triggered epoll server with three clients
 *   shutdown   shutdown(SHUT_WR) is EOF at the peer, who still answers
 *   epipe      a write to a closed peer: EPIPE with MSG_NOSIGNAL, SIGPIPE without
 *   forkserver accept, then a forked child serves the connection
 *   execcat    the accepted socket dup2'ed onto a child's stdin/stdout, which execs cat
 *   options    socket options read back, FIONREAD, MSG_PEEK, MSG_WAITALL, O_NONBLOCK, SO_RCVTIMEO, select
 *   twice      one socket listed twice in one poll (for reading and for writing, as nc does)
 *   duplex     one thread blocked reading a socket while another writes on it (scheduler-managed threads)
 *   reset      SO_LINGER {1,0}: the close is a reset (ECONNRESET at the peer)
 *   sendfile   sendfile from a file to a socket, splice from a socket into a pipe
 *   idlewait   a cluster node's timed epoll/poll on a pipe only (an asyncio client between connect retries)
 *              still takes its timeout in virtual time
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what) {
    printf("FAILED %s: %s\n", what, strerror(errno));
    fflush(stdout);
    exit(1);
}

static struct sockaddr_in addr(uint16_t port) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(0x7F000001);
    return a;
}

static int listener(uint16_t port, int flags) {
    int s = socket(AF_INET, SOCK_STREAM | flags, 0);
    if (s < 0) die("socket");
    int one = 1;
    if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one)) die("SO_REUSEADDR");
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    if (bind(s, (struct sockaddr *)&a, sizeof a)) die("bind");
    if (listen(s, 16)) die("listen");
    return s;
}

static int dial(uint16_t port) {
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (c < 0) die("socket");
    struct sockaddr_in a = addr(port);
    if (connect(c, (struct sockaddr *)&a, sizeof a)) die("connect");
    return c;
}

static const char *name(int fd, int peer) {
    static char buf[2][64];
    struct sockaddr_in a;
    socklen_t l = sizeof a;
    int rc = peer ? getpeername(fd, (struct sockaddr *)&a, &l) : getsockname(fd, (struct sockaddr *)&a, &l);
    char *b = buf[peer];
    if (rc) snprintf(b, 64, "error %s", strerror(errno));
    else snprintf(b, 64, "%u.%u.%u.%u:%u", ntohl(a.sin_addr.s_addr) >> 24, ntohl(a.sin_addr.s_addr) >> 16 & 255,
                  ntohl(a.sin_addr.s_addr) >> 8 & 255, ntohl(a.sin_addr.s_addr) & 255, ntohs(a.sin_port));
    return b;
}

/* reads until EOF: the byte count, the bytes in buf */
static ssize_t read_all(int fd, char *buf, size_t cap) {
    size_t got = 0;
    for (;;) {
        ssize_t r = read(fd, buf + got, cap - 1 - got);
        if (r < 0) die("read");
        if (r == 0) break;
        got += (size_t)r;
    }
    buf[got] = 0;
    return (ssize_t)got;
}

static void reap(pid_t p) {
    int st;
    if (waitpid(p, &st, 0) != p) die("waitpid");
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        printf("child failed: %d\n", st);
        exit(1);
    }
}

static uint64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* ------------------------------------------------------------------ scenarios */

static void echo(void) {
    int l = listener(7000, 0);
    printf("listening on %s\n", name(l, 0));
    fflush(stdout);
    pid_t p = fork();
    if (p == 0) {
        int c = dial(7000);
        printf("client %s -> %s\n", name(c, 0), name(c, 1));
        if (write(c, "hello", 5) != 5) die("write");
        char buf[64];
        ssize_t n = read(c, buf, sizeof buf);
        if (n < 0) die("read");
        printf("client got: \"%.*s\"\n", (int)n, buf);
        close(c);
        exit(0);
    }
    struct sockaddr_in from;
    socklen_t fl = sizeof from;
    int a = accept(l, (struct sockaddr *)&from, &fl);
    if (a < 0) die("accept");
    char buf[64];
    ssize_t n = recv(a, buf, sizeof buf, 0);
    if (n < 0) die("recv");
    char out[80];
    int m = snprintf(out, sizeof out, "echo:%.*s", (int)n, buf);
    if (send(a, out, (size_t)m, 0) != m) die("send");
    char rest[8];
    ssize_t eof = read(a, rest, sizeof rest);
    reap(p);
    printf("server got: \"%.*s\" from port %u (len %u); accepted %s <- %s; then read %zd\n", (int)n, buf,
           ntohs(from.sin_port), fl, name(a, 0), name(a, 1), eof);
    close(a);
    close(l);
}

static void nbconnect(void) {
    int l = listener(7001, 0);
    int c = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = addr(7001);
    int rc = connect(c, (struct sockaddr *)&a, sizeof a);
    printf("non-blocking connect: %d %s\n", rc, rc ? strerror(errno) : "");
    struct pollfd pf = {.fd = c, .events = POLLOUT};
    rc = poll(&pf, 1, 5000);
    printf("poll: %d revents%s%s%s\n", rc, pf.revents & POLLOUT ? " POLLOUT" : "", pf.revents & POLLERR ? " POLLERR" : "",
           pf.revents & POLLHUP ? " POLLHUP" : "");
    int err = -1;
    socklen_t el = sizeof err;
    getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &el);
    printf("SO_ERROR: %d; peer %s\n", err, name(c, 1));
    int s = accept(l, NULL, NULL);
    printf("accepted: %s\n", s >= 0 ? "yes" : strerror(errno));

    int r = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in none = addr(7999);
    rc = connect(r, (struct sockaddr *)&none, sizeof none);
    printf("connect to nothing (non-blocking): %d %s\n", rc, rc ? strerror(errno) : "");
    pf = (struct pollfd){.fd = r, .events = POLLOUT | POLLIN};
    rc = poll(&pf, 1, 5000);
    printf("poll: %d%s%s\n", rc, pf.revents & POLLERR ? " POLLERR" : "", pf.revents & POLLHUP ? " POLLHUP" : "");
    err = -1;
    getsockopt(r, SOL_SOCKET, SO_ERROR, &err, &el);
    printf("SO_ERROR: %s\n", strerror(err));
    int b = socket(AF_INET, SOCK_STREAM, 0);
    rc = connect(b, (struct sockaddr *)&none, sizeof none);
    printf("connect to nothing (blocking): %d %s\n", rc, rc ? strerror(errno) : "");
}

static void epoll_server(void) {
    int l = listener(7002, SOCK_NONBLOCK);
    pid_t kids[3];
    for (int i = 0; i < 3; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            int c = dial(7002);
            char msg[32];
            int m = snprintf(msg, sizeof msg, "client %d", i);
            if (write(c, msg, (size_t)m) != m) die("write");
            char buf[64];
            ssize_t n = read(c, buf, sizeof buf);
            if (n <= 0) die("read reply");
            close(c);
            exit(0);
        }
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN | EPOLLET, .data.fd = l};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev)) die("epoll_ctl");
    char seen[3][64];
    int nseen = 0, closed = 0, accepted = 0, waits = 0;
    while (closed < 3) {
        struct epoll_event evs[8];
        int n = epoll_wait(ep, evs, 8, -1);
        if (n < 0) die("epoll_wait");
        waits++;
        for (int i = 0; i < n; i++) {
            int fd = evs[i].data.fd;
            if (fd == l) {
                for (;;) {  /* edge-triggered: accept until EAGAIN */
                    int a = accept4(l, NULL, NULL, SOCK_NONBLOCK);
                    if (a < 0) { if (errno != EAGAIN) die("accept4"); break; }
                    accepted++;
                    struct epoll_event ce = {.events = EPOLLIN | EPOLLET | EPOLLRDHUP, .data.fd = a};
                    if (epoll_ctl(ep, EPOLL_CTL_ADD, a, &ce)) die("epoll_ctl client");
                }
                continue;
            }
            for (;;) {      /* read until EAGAIN or EOF */
                char buf[64];
                ssize_t r = read(fd, buf, sizeof buf - 1);
                if (r < 0) { if (errno != EAGAIN) die("read"); break; }
                if (r == 0) { epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL); close(fd); closed++; break; }
                buf[r] = 0;
                if (nseen < 3) snprintf(seen[nseen++], 64, "%s", buf);
                char out[80];
                int m = snprintf(out, sizeof out, "ok %s", buf);
                if (write(fd, out, (size_t)m) != m) die("write reply");
            }
        }
    }
    for (int i = 0; i < 3; i++) reap(kids[i]);
    qsort(seen, (size_t)nseen, sizeof seen[0], (int (*)(const void *, const void *))strcmp);
    printf("accepted %d, closed %d, waits > 0: %d\n", accepted, closed, waits > 0);
    for (int i = 0; i < nseen; i++) printf("server got: %s\n", seen[i]);
}

static void shutdown_eof(void) {
    int l = listener(7003, 0);
    pid_t p = fork();
    if (p == 0) {
        int c = dial(7003);
        if (write(c, "request", 7) != 7) die("write");
        if (shutdown(c, SHUT_WR)) die("shutdown");
        char buf[64];
        ssize_t n = read_all(c, buf, sizeof buf);
        printf("client got %zd bytes after its shutdown: \"%s\"\n", n, buf);
        exit(0);
    }
    int a = accept(l, NULL, NULL);
    char buf[64];
    ssize_t n = read_all(a, buf, sizeof buf);
    if (write(a, "response", 8) != 8) die("write");
    close(a);
    reap(p);
    printf("server read %zd bytes then EOF: \"%s\"\n", n, buf);
}

static volatile sig_atomic_t sigpipes;
static void on_sigpipe(int s) { (void)s; sigpipes++; }

static void epipe(void) {
    signal(SIGPIPE, on_sigpipe);
    int l = listener(7004, 0);
    int c = dial(7004);
    int a = accept(l, NULL, NULL);
    close(a);
    char b;
    ssize_t r = read(c, &b, 1);
    printf("read after the peer closed: %zd\n", r);
    r = send(c, "x", 1, MSG_NOSIGNAL);
    printf("send MSG_NOSIGNAL: %zd %s, SIGPIPEs %d\n", r, strerror(errno), (int)sigpipes);
    r = write(c, "x", 1);
    printf("write: %zd %s, SIGPIPEs %d\n", r, strerror(errno), (int)sigpipes);
}

static void forkserver(void) {
    int l = listener(7005, 0);
    pid_t client = fork();
    if (client == 0) {
        int c = dial(7005);
        if (write(c, "ping", 4) != 4) die("write");
        char buf[64];
        ssize_t n = read_all(c, buf, sizeof buf);
        printf("client got %zd: \"%s\"\n", n, buf);
        exit(0);
    }
    int a = accept(l, NULL, NULL);
    pid_t worker = fork();
    if (worker == 0) {          /* the connection's own process, as socat's fork option */
        close(l);
        char buf[64];
        ssize_t n = read(a, buf, sizeof buf);
        if (n <= 0) die("worker read");
        char out[80];
        int m = snprintf(out, sizeof out, "pong from the worker for %.*s", (int)n, buf);
        if (write(a, out, (size_t)m) != m) die("worker write");
        close(a);
        exit(0);
    }
    close(a);                   /* the worker holds the connection now: its close is the FIN */
    reap(worker);
    reap(client);
    printf("server: worker and client done; still listening: %s\n", name(l, 0));
}

static void execcat(void) {
    int l = listener(7006, 0);
    pid_t client = fork();
    if (client == 0) {
        int c = dial(7006);
        const char *msg = "through cat\nand back\n";
        if (write(c, msg, strlen(msg)) != (ssize_t)strlen(msg)) die("write");
        shutdown(c, SHUT_WR);
        char buf[128];
        ssize_t n = read_all(c, buf, sizeof buf);
        printf("client got %zd: %s", n, buf);
        exit(0);
    }
    int a = accept(l, NULL, NULL);
    pid_t cat = fork();
    if (cat == 0) {
        dup2(a, 0);
        dup2(a, 1);
        close(a);
        close(l);
        execlp("cat", "cat", (char *)NULL);
        die("exec cat");
    }
    close(a);
    reap(cat);
    reap(client);
    printf("cat exited\n");
}

static void options(void) {
    int l = listener(7007, 0);
    int c = dial(7007);
    int a = accept(l, NULL, NULL);
    int one = 1, v = 0;
    socklen_t vl = sizeof v;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    int idle = 30;
    setsockopt(c, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    int rcvbuf = 4096;
    setsockopt(c, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    struct linger lg = {1, 5};
    setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    getsockopt(c, IPPROTO_TCP, TCP_NODELAY, &v, &vl);
    printf("TCP_NODELAY %d", v);
    getsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &v, &vl);
    printf(" SO_KEEPALIVE %d", v);
    getsockopt(c, IPPROTO_TCP, TCP_KEEPIDLE, &v, &vl);
    printf(" TCP_KEEPIDLE %d", v);
    getsockopt(c, SOL_SOCKET, SO_RCVBUF, &v, &vl);
    printf(" SO_RCVBUF %d", v);
    getsockopt(c, SOL_SOCKET, SO_TYPE, &v, &vl);
    printf(" SO_TYPE %s", v == SOCK_STREAM ? "SOCK_STREAM" : "?");
    socklen_t ll = sizeof lg;
    memset(&lg, 0, sizeof lg);
    getsockopt(c, SOL_SOCKET, SO_LINGER, &lg, &ll);
    printf(" SO_LINGER {%d,%d}\n", lg.l_onoff, lg.l_linger);

    if (write(a, "0123456789", 10) != 10) die("write");
    int avail = -1;
    ioctl(c, FIONREAD, &avail);
    char buf[32];
    ssize_t n = recv(c, buf, 4, MSG_PEEK);
    printf("FIONREAD %d; peek %zd \"%.*s\"", avail, n, (int)n, buf);
    n = recv(c, buf, 3, 0);
    printf("; read %zd \"%.*s\"\n", n, (int)n, buf);

    pid_t p = fork();
    if (p == 0) {   /* the rest arrives in two writes: MSG_WAITALL waits for both */
        usleep(1000);
        if (write(a, "abc", 3) != 3) die("write");
        usleep(1000);
        if (write(a, "def", 3) != 3) die("write");
        exit(0);
    }
    n = recv(c, buf, 13, MSG_WAITALL);
    printf("MSG_WAITALL: %zd \"%.*s\"\n", n, (int)n, buf);
    reap(p);

    fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
    n = read(c, buf, sizeof buf);
    printf("O_NONBLOCK reported %d; empty read: %zd %s\n", (fcntl(c, F_GETFL) & O_NONBLOCK) != 0, n, strerror(errno));
    n = recv(c, buf, sizeof buf, MSG_DONTWAIT);
    printf("MSG_DONTWAIT: %zd %s\n", n, strerror(errno));
    fcntl(c, F_SETFL, fcntl(c, F_GETFL) & ~O_NONBLOCK);

    struct timeval tv = {2, 500000};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    uint64_t t0 = now_ms();
    n = read(c, buf, sizeof buf);
    printf("SO_RCVTIMEO read: %zd %s after %lu virtual ms\n", n, strerror(errno), (unsigned long)(now_ms() - t0));

    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(c, &rd);
    struct timeval zero = {0, 0};
    int rc = select(c + 1, &rd, NULL, NULL, &zero);
    printf("select, nothing to read: %d\n", rc);
    if (write(a, "!", 1) != 1) die("write");
    FD_ZERO(&rd);
    FD_SET(c, &rd);
    fd_set wr;
    FD_ZERO(&wr);
    FD_SET(c, &wr);
    struct timeval five = {5, 0};
    rc = select(c + 1, &rd, &wr, NULL, &five);
    printf("select after a write: %d readable %d writable %d\n", rc, FD_ISSET(c, &rd) != 0, FD_ISSET(c, &wr) != 0);
}

static void twice(void) {
    int l = listener(7008, 0);
    int c = dial(7008);
    int a = accept(l, NULL, NULL);
    struct pollfd pf[2] = {{.fd = c, .events = POLLIN}, {.fd = c, .events = POLLOUT}};
    int rc = poll(pf, 2, 1000);
    printf("nothing to read: rc %d, in %d out %d\n", rc, pf[0].revents == POLLIN, pf[1].revents == POLLOUT);
    if (write(a, "x", 1) != 1) die("write");
    rc = poll(pf, 2, 1000);
    printf("data: rc %d, in %d out %d; events kept %d %d\n", rc, pf[0].revents == POLLIN, pf[1].revents == POLLOUT,
           pf[0].events == POLLIN, pf[1].events == POLLOUT);
}

static int duplex_fd;
static char duplex_got[64];
static void *duplex_reader(void *arg) {
    (void)arg;
    ssize_t n = read(duplex_fd, duplex_got, sizeof duplex_got - 1);
    if (n < 0) die("reader");
    duplex_got[n] = 0;
    return NULL;
}

static void duplex(void) {
    int l = listener(7009, 0);
    int c = dial(7009);
    int a = accept(l, NULL, NULL);
    duplex_fd = c;
    pthread_t t;
    pthread_create(&t, NULL, duplex_reader, NULL);
    usleep(1000);                       /* the reader waits on c first (virtual time) */
    if (write(c, "ping", 4) != 4) die("write while another thread reads");
    char buf[16];
    ssize_t n = read(a, buf, sizeof buf);
    if (n != 4) die("peer read");
    if (write(a, "pong", 4) != 4) die("peer write");
    pthread_join(t, NULL);
    printf("peer got \"%.*s\"; the reader got \"%s\"\n", (int)n, buf, duplex_got);
}

static void reset(void) {
    int l = listener(7010, 0);
    int c = dial(7010);
    int a = accept(l, NULL, NULL);
    struct linger lg = {1, 0};
    setsockopt(a, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    int d = dup(a);
    close(a);                           /* not the last copy: nothing happens yet */
    struct pollfd pf = {.fd = c, .events = POLLIN};
    printf("after closing one copy: poll %d\n", poll(&pf, 1, 0));
    close(d);                           /* the last: a reset */
    char b;
    ssize_t r = read(c, &b, 1);
    printf("read after the reset: %zd %s\n", r, strerror(errno));
}

static void sendfile_splice(void) {
    int l = listener(7011, 0);
    int c = dial(7011);
    int a = accept(l, NULL, NULL);
    char path[] = "/tmp/weft-tcp-sendfile-XXXXXX";
    int f = mkstemp(path);
    if (f < 0) die("mkstemp");
    unlink(path);
    if (write(f, "0123456789abcdef", 16) != 16) die("write file");
    off_t off = 4;
    ssize_t n = sendfile(c, f, &off, 8);
    printf("sendfile: %zd, offset now %ld\n", n, (long)off);
    int p[2];
    if (pipe(p)) die("pipe");
    n = splice(a, NULL, p[1], NULL, 64, 0);
    char buf[32];
    ssize_t m = read(p[0], buf, sizeof buf);
    printf("splice to a pipe: %zd; the pipe holds \"%.*s\"\n", n, (int)m, buf);
    if (write(p[1], "back", 4) != 4) die("write pipe");
    n = splice(p[0], NULL, a, NULL, 4, 0);
    m = read(c, buf, sizeof buf);
    printf("splice from a pipe: %zd; the peer got \"%.*s\"\n", n, (int)m, buf);
}

static void idlewait(void) {
    int p[2];
    if (pipe(p)) die("pipe");
    struct pollfd pf = {.fd = p[0], .events = POLLIN};
    uint64_t t0 = now_ms();
    int rc = poll(&pf, 1, 1000);
    printf("poll on a pipe: %d after %lu virtual ms\n", rc, (unsigned long)(now_ms() - t0));
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = p[0]};
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    t0 = now_ms();
    rc = epoll_wait(ep, &ev, 1, 500);
    printf("epoll on a pipe: %d after %lu virtual ms\n", rc, (unsigned long)(now_ms() - t0));
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    const char *s = argc > 1 ? argv[1] : "";
    if (!strcmp(s, "echo")) echo();
    else if (!strcmp(s, "nbconnect")) nbconnect();
    else if (!strcmp(s, "epoll")) epoll_server();
    else if (!strcmp(s, "shutdown")) shutdown_eof();
    else if (!strcmp(s, "epipe")) epipe();
    else if (!strcmp(s, "forkserver")) forkserver();
    else if (!strcmp(s, "execcat")) execcat();
    else if (!strcmp(s, "options")) options();
    else if (!strcmp(s, "twice")) twice();
    else if (!strcmp(s, "duplex")) duplex();
    else if (!strcmp(s, "reset")) reset();
    else if (!strcmp(s, "sendfile")) sendfile_splice();
    else if (!strcmp(s, "idlewait")) idlewait();
    else { fprintf(stderr, "unknown scenario %s\n", s); return 2; }
    return 0;
}
