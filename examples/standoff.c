/* standoff: a ring of N nodes (STANDOFF_NODES, default 2) passing a token once around.
 *
 * Default (STANDOFF_FIRST unset or -1): nobody starts the token, and every node waits for its
 * predecessor in a blocking recvfrom with no deadline — a deadlock on purpose, for the broker's
 * deadlock verdict. With STANDOFF_TIMEOUT_MS=T each of those waits has SO_RCVTIMEO T instead (a
 * timed wait, never a deadlock): the node prints "node K timed out" and exits 0.
 *
 * STANDOFF_FIRST=F: node F starts the token once every other node has said READY (each one repeats
 * READY every 10 ms of virtual time until its token comes, so none is lost to a node not yet bound);
 * each node prints "node K got the token", passes it on and exits.
 *
 * STANDOFF_WAIT=poll or select (with neither of the above): each node first waits in poll() / select() with no
 * timeout on its socket alone (the event-loop shape; the deadlock verdict covers it as a blocking recvfrom).
 *
 * Node k listens on 127.0.0.(k+1):6000; node id from WEFT_NODE_ID. */
#include <poll.h>
#include <sys/select.h>
#include <sys/time.h>
#include "cluster_common.h"

#define PORT 6000

static void set_timeout(int fd, long ms) {
    struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0) die("setsockopt");
}

static const char *wait_kind = "";

/* STANDOFF_WAIT: wait until fd is readable in poll() or select() with no timeout. */
static void wait_readable(int fd) {
    if (strcmp(wait_kind, "poll") == 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        while (poll(&p, 1, -1) < 0)
            if (errno != EINTR) die("poll");
    } else if (strcmp(wait_kind, "select") == 0) {
        for (;;) {
            fd_set rd;
            FD_ZERO(&rd);
            FD_SET(fd, &rd);
            if (select(fd + 1, &rd, NULL, NULL, NULL) >= 0) break;
            if (errno != EINTR) die("select");
        }
    }
}

/* One datagram as text into buf; -1 on a timeout. */
static int receive(int fd, char *buf, int *from) {
    wait_readable(fd);
    for (;;) {
        struct sockaddr_in src;
        socklen_t len = sizeof src;
        ssize_t n = recvfrom(fd, buf, MSG_MAX - 1, 0, (struct sockaddr *)&src, &len);
        if (n >= 0) {
            buf[n] = '\0';
            if (from) *from = (int)(ntohl(src.sin_addr.s_addr) - 0x7F000001u);
            return (int)n;
        }
        if (errno == EAGAIN || errno == EWOULDBLOCK) return -1;
        if (errno != EINTR) die("recvfrom");
    }
}

int main(void) {
    int me = my_node_id();
    long nodes = env_long("STANDOFF_NODES", 2), first = env_long("STANDOFF_FIRST", -1);
    long timeout_ms = env_long("STANDOFF_TIMEOUT_MS", 0);
    if (nodes < 1 || nodes > 64 || me >= nodes) {
        fprintf(stderr, "standoff: node %d outside STANDOFF_NODES=%ld (1..64)\n", me, nodes);
        return 2;
    }
    int fd = udp_bound(me, PORT);
    int next = (int)((me + 1) % nodes);
    char buf[MSG_MAX];
    if (first < 0 || first >= nodes) {
        if (timeout_ms > 0) set_timeout(fd, timeout_ms);
        else if (getenv("STANDOFF_WAIT")) wait_kind = getenv("STANDOFF_WAIT");
        for (;;) {
            if (receive(fd, buf, NULL) < 0) {
                printf("node %d timed out\n", me);
                return 0;
            }
            if (strcmp(buf, "TOKEN") == 0) break; /* nobody sends one */
        }
    } else if (me == first) {
        int ready[64] = {0}, count = 0, from;
        while (count < nodes - 1) {
            receive(fd, buf, &from);
            if (strcmp(buf, "READY") == 0 && from >= 0 && from < nodes && !ready[from]) {
                ready[from] = 1;
                count++;
            }
        }
        printf("node %d starts the token\n", me);
        send_text(fd, next, PORT, "TOKEN");
        return 0;
    } else {
        set_timeout(fd, 10);
        for (;;) {
            send_text(fd, (int)first, PORT, "READY");
            if (receive(fd, buf, NULL) >= 0 && strcmp(buf, "TOKEN") == 0) break;
        }
    }
    printf("node %d got the token\n", me);
    if (next != first) send_text(fd, next, PORT, "TOKEN");
    return 0;
}
