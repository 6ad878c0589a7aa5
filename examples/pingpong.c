/* pingpong: a two-node request/reply with retransmission.
 *
 * Node 0 (127.0.0.1:4000) waits for "PING:<x>", replies "PONG:<x>" once and exits; with
 * PINGPONG_SERVE=N it answers N PINGs before exiting, and with PINGPONG_SERVE=0 it never exits (a
 * server for runs that end with `--end-when-exited 1`).
 * Node 1 (127.0.0.2:4001) sends "PING:<x>" with x from getrandom and polls for the PONG, one
 * usleep(1000) apart; with no PONG after PINGPONG_WAIT polls (default 20, doubling after each
 * resend: the server may simply not be up yet) it resends, at most PINGPONG_TRIES times (default
 * 10). It prints the PONG, or gives up with exit status 1 — a lost PONG cannot be repaired, since
 * the server has already gone. Node id from WEFT_NODE_ID. */
#include "cluster_common.h"

#define SERVER_PORT 4000
#define CLIENT_PORT 4001

static int server(void) {
    int fd = udp_bound(0, SERVER_PORT);
    char buf[MSG_MAX];
    int from;
    long serve = env_long("PINGPONG_SERVE", 1);
    for (long served = 0;;) {
        recv_text(fd, 0, buf, &from);
        if (strncmp(buf, "PING:", 5) != 0) continue;
        printf("server got: %s\n", buf);
        fflush(stdout);
        send_fmt(fd, from, CLIENT_PORT, "PONG:%s", buf + 5);
        if (serve > 0 && ++served == serve) return 0;
    }
}

static int client(void) {
    int fd = udp_bound(1, CLIENT_PORT);
    uint64_t x;
    if (getrandom(&x, sizeof x, 0) != (ssize_t)sizeof x) die("getrandom");
    char ping[MSG_MAX], want[MSG_MAX], buf[MSG_MAX];
    snprintf(ping, sizeof ping, "PING:%016llx", (unsigned long long)x);
    snprintf(want, sizeof want, "PONG:%016llx", (unsigned long long)x);
    long tries = env_long("PINGPONG_TRIES", 10), wait = env_long("PINGPONG_WAIT", 20);
    for (long attempt = 0; attempt < tries; attempt++, wait *= 2) {
        send_text(fd, 0, SERVER_PORT, ping);
        for (long poll = 0; poll < wait; poll++) {
            if (recv_text(fd, MSG_DONTWAIT, buf, NULL) >= 0) {
                if (strcmp(buf, want) != 0) continue;
                printf("client got: %s\n", buf);
                return 0;
            }
            usleep(1000);
        }
    }
    printf("client gave up after %ld tries\n", tries);
    return 1;
}

int main(void) {
    return two_node_main("pingpong", "server", server, "client", client);
}
