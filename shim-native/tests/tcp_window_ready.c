/*
 * tcp_window_ready - a wait on a simulated TCP socket together with an ordinary fd that is ready
 * already (docs/shim.md "TCP", windowed runs), as netcat polls its socket with stdin at EOF.
 *   tcp_window_ready server [WAITS]  listens on 127.0.0.1:7400; 10 times each, poll, select and
 *                             epoll_wait (those named in WAITS, default all) without a timeout on {a
 *                             pipe holding a byte, the listener}: each returns at once for the pipe;
 *                             then it waits for the listener alone, accepts and reads to EOF
 *   tcp_window_ready client   makes its socket, sleeps 1 s (virtual), connects, sends "hello", closes
 * Run the client as node 0 and the server as node 1 of a windowed cluster: the server's first
 * operations (key: its clock 0, node 1) wait until the client's connect at 1 s is buffered. Every
 * wait of the loop must then be asked at once: a TcpWait held for the listener lets the broker seal
 * the connect, and taking it back once the kernel saw the pipe comes later than that (a late op:
 * the run is discarded).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what) {
    printf("FAILED %s: %s\n", what, strerror(errno));
    exit(1);
}

static struct sockaddr_in addr(void) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(7400)};
    a.sin_addr.s_addr = htonl(0x7F000001);
    return a;
}

/* WAITS names "poll" (a comma list, whole words) */
static int named(const char *waits, const char *name) {
    size_t n = strlen(name);
    for (const char *p = waits; (p = strstr(p, name)); p += n)
        if ((p == waits || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
    return 0;
}

static int server(const char *waits) {
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = addr();
    if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 4)) die("listen");
    int p[2];
    if (pipe(p) || write(p[1], "x", 1) != 1) die("pipe");
    int pipe_seen = 0, listener_seen = 0, asked = 0;
    for (int i = 0; named(waits, "poll") && i < 10; i++, asked++) {
        struct pollfd f[2] = {{.fd = p[0], .events = POLLIN}, {.fd = l, .events = POLLIN}};
        if (poll(f, 2, -1) < 1) die("poll");
        pipe_seen += (f[0].revents & POLLIN) != 0;
        listener_seen += (f[1].revents & POLLIN) != 0;
    }
    for (int i = 0; named(waits, "select") && i < 10; i++, asked++) {
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(p[0], &rd);
        FD_SET(l, &rd);
        if (select((l > p[0] ? l : p[0]) + 1, &rd, NULL, NULL, NULL) < 1) die("select");
        pipe_seen += FD_ISSET(p[0], &rd) != 0;
        listener_seen += FD_ISSET(l, &rd) != 0;
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = p[0]};
    if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev)) die("epoll pipe");
    ev.data.fd = l;
    if (epoll_ctl(ep, EPOLL_CTL_ADD, l, &ev)) die("epoll listener");
    for (int i = 0; named(waits, "epoll") && i < 10; i++, asked++) {
        struct epoll_event got[2];
        int n = epoll_wait(ep, got, 2, -1);
        if (n < 1) die("epoll_wait");
        for (int j = 0; j < n; j++) {
            pipe_seen += got[j].data.fd == p[0];
            listener_seen += got[j].data.fd == l;
        }
    }
    printf("the ready pipe ended %d of %d waits at once; the listener was ready in %d\n", pipe_seen, asked,
           listener_seen);
    struct pollfd f = {.fd = l, .events = POLLIN};
    if (poll(&f, 1, -1) != 1) die("poll listener");
    int c = accept(l, NULL, NULL);
    if (c < 0) die("accept");
    char buf[64];
    size_t got = 0;
    for (ssize_t r; (r = read(c, buf + got, sizeof buf - 1 - got)) > 0;) got += (size_t)r;
    buf[got] = 0;
    printf("server read \"%s\"\n", buf);
    return 0;
}

static int client(void) {
    struct sockaddr_in a = addr();
    int c = socket(AF_INET, SOCK_STREAM, 0);  /* known to the broker from here on, at its clock 0 */
    if (c < 0) die("socket");
    sleep(1);
    if (connect(c, (struct sockaddr *)&a, sizeof a)) die("connect");
    if (write(c, "hello", 5) != 5) die("write");
    close(c);
    printf("client sent hello\n");
    return 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (argc > 1 && !strcmp(argv[1], "server")) return server(argc > 2 ? argv[2] : "poll,select,epoll");
    if (argc > 1 && !strcmp(argv[1], "client")) return client();
    fprintf(stderr, "usage: tcp_window_ready server [poll,select,epoll] | client\n");
    return 2;
}
