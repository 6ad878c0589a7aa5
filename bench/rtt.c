/*
 * rtt.c - per-datagram round trip between two nodes over plain UDP, for bench/broker-rtt.sh.
 *
 *   rtt ROLE ROUNDS REPEATS      ROLE 0 = echo (binds 127.0.0.1:7000), 1 = pinger (binds 127.0.0.2:7001),
 *                                "env" = take the role from WEFT_NODE_ID (node i is 127.0.0.(i+1) under weft)
 *   RTT_BUSY=1 rtt ...           receive by busy-polling (MSG_DONTWAIT in a loop) instead of sleeping in
 *                                recv: the native floor without the kernel's wake-up (natively only: under
 *                                weft every poll would be a broker request)
 *
 * The pinger retransmits a ping whose answer does not come within 100 ms (virtual under weft), so it
 * copes with an echo that binds late or is restarted, and ignores late duplicate answers. It times
 * REPEATS runs of ROUNDS round trips and prints the best. Time comes from a raw clock_gettime
 * system call, which the shim leaves alone when its backstop is off (bench/broker-rtt.sh sets
 * WEFT_BACKSTOP=0), so the figure is real time under weft too. The program
 * knows nothing of weft: the same binary runs natively and under the broker.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* node_addr and udp_bound: the cluster examples' plain-UDP helpers (nothing in them knows of weft) */
#include "../examples/cluster_common.h"

#include "real_clock.h" /* real_ns(): real time even under weft */

static int busy; /* RTT_BUSY=1: spin on MSG_DONTWAIT instead of sleeping in the kernel */

/* One receive: blocking (with the socket's timeout), or a busy poll with the same 100 ms limit. */
static ssize_t receive(int fd, void *buf, size_t n, struct sockaddr_in *from, socklen_t *fl) {
    if (!busy) return recvfrom(fd, buf, n, 0, (struct sockaddr *)from, fl);
    uint64_t t0 = real_ns();
    for (;;) {
        ssize_t r = recvfrom(fd, buf, n, MSG_DONTWAIT, (struct sockaddr *)from, fl);
        if (r >= 0 || real_ns() - t0 > 100000000u) return r;
    }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: rtt 0|1|env ROUNDS REPEATS\n");
        return 2;
    }
    const char *r = strcmp(argv[1], "env") == 0 ? getenv("WEFT_NODE_ID") : argv[1];
    int role = r ? atoi(r) : -1;
    long rounds = atol(argv[2]), repeats = atol(argv[3]);
    busy = getenv("RTT_BUSY") && strcmp(getenv("RTT_BUSY"), "1") == 0;
    char buf[64];
    if (role == 0) {
        int fd = udp_bound(0, 7000);
        for (;;) {
            struct sockaddr_in from;
            socklen_t fl = sizeof from;
            ssize_t n = receive(fd, buf, sizeof buf, &from, &fl);
            if (n < 0 && busy) continue; /* a busy echo waits as long as a blocking one */
            if (n < 0) { perror("recvfrom"); return 1; }
            if (n == 1 && buf[0] == 'q') break;
            sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl);
        }
        printf("echo done\n");
        return 0;
    }
    if (role != 1) {
        fprintf(stderr, "rtt: role must be 0 or 1\n");
        return 2;
    }
    int fd = udp_bound(1, 7001);
    struct sockaddr_in echo = node_addr(0, 7000);
    struct timeval tv = {0, 100000}; /* 100 ms per attempt; only a lost ping ever waits that long */
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    uint64_t best = UINT64_MAX;
    for (long k = 0; k < repeats; k++) {
        uint64_t t0 = real_ns();
        for (long i = 0; i < rounds; i++) {
            long id = k * rounds + i;
            sendto(fd, &id, sizeof id, 0, (struct sockaddr *)&echo, sizeof echo);
            for (;;) {
                ssize_t n = receive(fd, buf, sizeof buf, NULL, NULL);
                if (n < 0) { /* timed out: the ping or its answer is lost (or the echo is down) */
                    sendto(fd, &id, sizeof id, 0, (struct sockaddr *)&echo, sizeof echo);
                    continue;
                }
                if (n == 8 && memcmp(buf, &id, sizeof id) == 0) break;
                /* a late answer to an earlier retransmit: ignore */
            }
        }
        uint64_t dt = real_ns() - t0;
        if (dt < best) best = dt;
    }
    sendto(fd, "q", 1, 0, (struct sockaddr *)&echo, sizeof echo);
    printf("rtt: %ld round trips, best of %ld: %.2f us per round trip, %.2f us per datagram\n", rounds, repeats,
           best / 1000.0 / rounds, best / 2000.0 / rounds);
    return 0;
}
