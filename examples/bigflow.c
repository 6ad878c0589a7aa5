/* bigflow: a bulk one-way transfer, for measuring datagram throughput.
 *
 * Node 1 (127.0.0.2:5001) is the receiver: it announces itself with "READY" until data flows, then
 * counts datagrams until "END" and prints what arrived. Node 0 (127.0.0.1:5000) waits for READY and
 * sends BIGFLOW_COUNT datagrams (default 20000) of BIGFLOW_SIZE bytes (default 1000, at most 1400),
 * each starting with its sequence number, pausing usleep(1000) every BIGFLOW_BURST datagrams
 * (default 64) so a native run does not overrun the kernel's socket buffer; then "END" five times.
 * Usage: bigflow (node id in WEFT_NODE_ID). */
#include "cluster_common.h"

#define SENDER_PORT 5000
#define RECEIVER_PORT 5001
#define MAX_SIZE 1400

static int sender(void) {
    int fd = udp_bound(0, SENDER_PORT);
    long count = env_long("BIGFLOW_COUNT", 20000), size = env_long("BIGFLOW_SIZE", 1000);
    long burst = env_long("BIGFLOW_BURST", 64);
    if (size < 16 || size > MAX_SIZE || count < 1 || burst < 1) {
        fprintf(stderr, "bigflow: need BIGFLOW_COUNT >= 1, 16 <= BIGFLOW_SIZE <= %d, BIGFLOW_BURST >= 1\n", MAX_SIZE);
        return 2;
    }
    char buf[MSG_MAX];
    while (recv_text(fd, 0, buf, NULL) >= 0 && strcmp(buf, "READY") != 0) {
    }
    static char data[MAX_SIZE];
    memset(data, 'x', sizeof data);
    struct sockaddr_in to = node_addr(1, RECEIVER_PORT);
    for (long i = 0; i < count; i++) {
        int n = snprintf(data, 24, "%ld ", i);
        data[n] = 'x';
        if (sendto(fd, data, (size_t)size, 0, (struct sockaddr *)&to, sizeof to) < 0) die("sendto");
        if ((i + 1) % burst == 0) usleep(1000);
    }
    for (int i = 0; i < 5; i++) send_text(fd, 1, RECEIVER_PORT, "END");
    printf("sender: %ld datagrams of %ld bytes sent\n", count, size);
    return 0;
}

static int receiver(void) {
    int fd = udp_bound(1, RECEIVER_PORT);
    static char buf[MAX_SIZE + 1];
    long got = 0, bytes = 0, reordered = 0, last = -1;
    int flowing = 0;
    for (long poll = 0;; poll++) {
        if (!flowing && poll % 50 == 0) send_text(fd, 0, SENDER_PORT, "READY");
        ssize_t n = recvfrom(fd, buf, MAX_SIZE, flowing ? 0 : MSG_DONTWAIT, NULL, NULL);
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) die("recvfrom");
            usleep(1000);
            continue;
        }
        flowing = 1;
        buf[n] = '\0';
        if (strcmp(buf, "END") == 0) break;
        long seq = strtol(buf, NULL, 10);
        if (seq < last) reordered++;
        else last = seq;
        got++;
        bytes += n;
    }
    printf("receiver: %ld datagrams, %ld bytes, %ld out of order\n", got, bytes, reordered);
    return 0;
}

int main(void) {
    return two_node_main("bigflow", "sender", sender, "receiver", receiver);
}
