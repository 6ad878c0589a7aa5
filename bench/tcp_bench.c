/*
 * tcp_bench.c - a TCP request/response round trip and a bulk transfer between two nodes, timed in real time.
 *
 * Usage: tcp_bench ROLE ROUNDS MBYTES      ROLE 0 = server on 127.0.0.1:7100, 1 = client, "env" = WEFT_NODE_ID
 * The client connects (retrying while the server is not listening yet), makes ROUNDS round trips of a 64-byte
 * request and a 64-byte answer, then sends MBYTES MiB and waits for the server's one-byte receipt. It prints
 *   rr: <us> us per round trip
 *   bulk: <MiB/s> MiB/s (<n> bytes)
 * timed with a raw clock_gettime system call (real_clock.h), so the figures are real time under weft too.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "real_clock.h"

static int full_read(int fd, char *b, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static int full_write(int fd, const char *b, size_t n) {
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(fd, b + done, n - done);
        if (w <= 0) return -1;
        done += (size_t)w;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: tcp_bench ROLE ROUNDS MBYTES\n"); return 2; }
    int role = strcmp(argv[1], "env") == 0 ? atoi(getenv("WEFT_NODE_ID") ? getenv("WEFT_NODE_ID") : "0") : atoi(argv[1]);
    long rounds = atol(argv[2]);
    long total = atol(argv[3]) * 1024L * 1024L;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(7100)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    static char buf[256 * 1024];
    char msg[64];
    memset(msg, 'x', sizeof msg);
    int one = 1;
    if (role == 0) {
        int l = socket(AF_INET, SOCK_STREAM, 0);
        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 4)) { perror("server"); return 1; }
        int c = accept(l, NULL, NULL);
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        for (long i = 0; i < rounds; i++) {
            if (full_read(c, msg, sizeof msg) || full_write(c, msg, sizeof msg)) { perror("server rr"); return 1; }
        }
        long got = 0;
        while (got < total) {
            ssize_t r = read(c, buf, sizeof buf);
            if (r <= 0) { perror("server bulk"); return 1; }
            got += r;
        }
        full_write(c, "k", 1);
        close(c);
        close(l);
        return 0;
    }
    int c = -1;
    for (int tries = 0; tries < 2000; tries++) {
        c = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&a, sizeof a) == 0) break;
        close(c);
        c = -1;
        usleep(5000);
    }
    if (c < 0) { perror("client connect"); return 1; }
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    uint64_t t0 = real_ns();
    for (long i = 0; i < rounds; i++) {
        if (full_write(c, msg, sizeof msg) || full_read(c, msg, sizeof msg)) { perror("client rr"); return 1; }
    }
    uint64_t t1 = real_ns();
    long sent = 0;
    while (sent < total) {
        long n = total - sent < (long)sizeof buf ? total - sent : (long)sizeof buf;
        if (full_write(c, buf, (size_t)n)) { perror("client bulk"); return 1; }
        sent += n;
    }
    char k;
    if (full_read(c, &k, 1)) { perror("client receipt"); return 1; }
    uint64_t t2 = real_ns();
    printf("rr: %.2f us per round trip\n", rounds ? (double)(t1 - t0) / 1e3 / (double)rounds : 0.0);
    printf("bulk: %.1f MiB/s (%ld bytes)\n", (double)total / (1024.0 * 1024.0) / ((double)(t2 - t1) / 1e9), total);
    close(c);
    return 0;
}
