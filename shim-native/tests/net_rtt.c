/*
 * net_rtt.c - per-datagram round trip: node 0 (127.0.0.1:4000) echoes, node 1 (127.0.0.2:4001)
 * sends ROUNDS datagrams one at a time and prints the real time per round trip. The role comes
 * from WEFT_NODE_ID (0 or 1), so `weft run --net "" --nodes 2` and two native processes run the
 * same program. Real time is read with a raw clock_gettime system call (the shim's clock is
 * virtual). Usage: net_rtt [ROUNDS]   (bench-net.sh drives it)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long real_ns(void) {
    struct timespec t;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static struct sockaddr_in addr(const char *ip, int port) {
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    return a;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 5000;
    const char *node = getenv("WEFT_NODE_ID");
    int server = node && strcmp(node, "0") == 0;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in me = server ? addr("127.0.0.1", 4000) : addr("127.0.0.2", 4001);
    struct sockaddr_in peer = server ? addr("127.0.0.2", 4001) : addr("127.0.0.1", 4000);
    if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof me)) { perror("socket/bind"); return 2; }
    char buf[64] = "ping";
    if (server) {
        for (long i = 0; i <= rounds; i++) { /* one extra: the client's start-up probe */
            struct sockaddr_in from;
            socklen_t fl = sizeof from;
            ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
            if (n < 0 || sendto(fd, buf, (size_t)n, 0, (struct sockaddr *)&from, fl) < 0) { perror("echo"); return 1; }
        }
        return 0;
    }
    /* start-up: retry until the server is bound (it may start later) */
    struct timeval tv = {0, 20000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    for (;;) {
        sendto(fd, buf, 8, 0, (struct sockaddr *)&peer, sizeof peer);
        if (recv(fd, buf, sizeof buf, 0) >= 0) break;
    }
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    long long t0 = real_ns();
    for (long i = 0; i < rounds; i++) {
        if (sendto(fd, buf, 8, 0, (struct sockaddr *)&peer, sizeof peer) < 0 || recv(fd, buf, sizeof buf, 0) < 0) {
            perror("round trip");
            return 1;
        }
    }
    printf("%.2f us per round trip (%ld rounds)\n", (double)(real_ns() - t0) / 1000.0 / (double)rounds, rounds);
    return 0;
}
