/*
 * rtt_wire.c - the round trip of bench/rtt.c, but speaking the broker's wire protocol directly
 * (wire-and-abi.md §2-§3) instead of UDP through the shim: it measures the broker (and the Unix socket)
 * alone, so bench/broker-rtt.sh can tell the broker's share of a round trip from the shim's.
 *
 *   rtt_wire ROUNDS REPEATS      node id from WEFT_NODE_ID (0 = echo, 1 = pinger), broker from WEFT_BROKER
 *
 * Per round trip: Send+Ack, blocking Recv+Deliver on each side - the same four exchanges the shim makes.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "real_clock.h" /* real_ns(): real time even under weft */

static int fd;
static unsigned char buf[256];

static void put32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static uint32_t get32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static void xwrite(const unsigned char *p, size_t n) {
    while (n) { ssize_t w = write(fd, p, n); if (w <= 0) { perror("write"); exit(1); } p += w; n -= (size_t)w; }
}
static void xread(unsigned char *p, size_t n) {
    while (n) { ssize_t r = read(fd, p, n); if (r <= 0) { fprintf(stderr, "rtt_wire: broker closed\n"); exit(1); } p += r; n -= (size_t)r; }
}
/* reads one reply; returns its tag; a Deliver's payload (up to 8 bytes) and source go to the outs */
static int reply(uint32_t *src_ip, uint16_t *src_port, unsigned char *payload, uint32_t *plen) {
    xread(buf, 4);
    uint32_t len = get32(buf);
    if (len > sizeof buf) { fprintf(stderr, "rtt_wire: reply too long\n"); exit(1); }
    xread(buf, len);
    if (buf[0] == 2) {
        *src_ip = get32(buf + 1);
        *src_port = (uint16_t)(buf[5] | buf[6] << 8);
        *plen = get32(buf + 13);
        memcpy(payload, buf + 17, *plen < 8 ? *plen : 8);
    }
    return buf[0];
}
static void send_msg(const unsigned char *m, uint32_t n) {
    unsigned char f[128];
    put32(f, n);
    memcpy(f + 4, m, n);
    xwrite(f, n + 4);
}
static void addr(unsigned char *p, uint32_t ip, uint16_t port) { put32(p, ip); put16(p + 4, port); }

static void do_send(uint32_t sip, uint16_t sport, uint32_t dip, uint16_t dport, const void *pl, uint32_t n) {
    unsigned char m[64];
    m[0] = 3;
    addr(m + 1, sip, sport);
    addr(m + 7, dip, dport);
    put32(m + 13, n);
    memcpy(m + 17, pl, n);
    memset(m + 17 + n, 0, 8);
    send_msg(m, 25 + n);
    uint32_t a; uint16_t b; unsigned char c[8]; uint32_t d;
    if (reply(&a, &b, c, &d) != 1) { fprintf(stderr, "rtt_wire: no Ack\n"); exit(1); }
}
static int do_recv(uint32_t ip, uint16_t port, int blocking, uint32_t *sip, uint16_t *sport, unsigned char *pl, uint32_t *n) {
    unsigned char m[16];
    m[0] = 4;
    addr(m + 1, ip, port);
    m[7] = (unsigned char)blocking;
    memset(m + 8, 0, 8);
    send_msg(m, 16);
    return reply(sip, sport, pl, n);
}

int main(int argc, char **argv) {
    const char *b = getenv("WEFT_BROKER"), *id = getenv("WEFT_NODE_ID");
    if (argc < 3 || !b || !id) { fprintf(stderr, "usage: WEFT_BROKER=… WEFT_NODE_ID=0|1 rtt_wire ROUNDS REPEATS\n"); return 2; }
    long rounds = atol(argv[1]), repeats = atol(argv[2]);
    int node = atoi(id);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    strncpy(sa.sun_path, b, sizeof sa.sun_path - 1);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) { perror("connect"); return 1; }
    uint32_t me = 0x7F000001u + (uint32_t)node, echo = 0x7F000001u;
    uint16_t port = (uint16_t)(7000 + node);
    unsigned char m[16];
    m[0] = 1; put32(m + 1, (uint32_t)node); put32(m + 5, 0); send_msg(m, 9);
    uint32_t sip, n; uint16_t sport; unsigned char pl[8];
    reply(&sip, &sport, pl, &n);
    m[0] = 2; addr(m + 1, me, port); send_msg(m, 7);
    reply(&sip, &sport, pl, &n);
    if (node == 0) {
        for (;;) {
            do_recv(me, port, 1, &sip, &sport, pl, &n);
            if (n == 1 && pl[0] == 'q') break;
            do_send(me, port, sip, sport, pl, n);
        }
        printf("echo done\n");
        return 0;
    }
    for (;;) { /* sync: the echo may bind later */
        do_send(me, port, echo, 7000, "s", 1);
        struct timespec ms = {0, 1000000};
        syscall(SYS_nanosleep, &ms, NULL);
        if (do_recv(me, port, 0, &sip, &sport, pl, &n) == 2) break;
    }
    uint64_t best = UINT64_MAX;
    for (long k = 0; k < repeats; k++) {
        uint64_t t0 = real_ns();
        for (long i = 0; i < rounds; i++) {
            do_send(me, port, echo, 7000, &i, 8);
            do { do_recv(me, port, 1, &sip, &sport, pl, &n); } while (n != 8);
        }
        uint64_t dt = real_ns() - t0;
        if (dt < best) best = dt;
    }
    do_send(me, port, echo, 7000, "q", 1);
    printf("rtt: %ld round trips, best of %ld: %.2f us per round trip, %.2f us per datagram\n", rounds, repeats,
           best / 1000.0 / rounds, best / 2000.0 / rounds);
    return 0;
}
