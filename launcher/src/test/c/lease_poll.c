/* lease_poll: the receive lease's test program (docs/broker.md, "Receive leases"). Two nodes on port 7000.
 * Node 1 waits in one blocking recvfrom for "GO", prints it and exits. Node 0 polls its own socket with
 * MSG_DONTWAIT POLLS times (default 100), 1 ms of virtual time apart (usleep), and finds nothing each time:
 * nobody sends to it. Then it sends "GO" to node 1, prints how many polls were empty, and exits.
 * Node id from WEFT_NODE_ID; the node's address is 127.0.0.(id+1). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in addr_of(int node) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons(7000);
    a.sin_addr.s_addr = htonl(0x7F000001u + (unsigned)node);
    return a;
}

int main(void) {
    const char *id = getenv("WEFT_NODE_ID"), *p = getenv("POLLS");
    int me = id ? atoi(id) : 0, polls = p ? atoi(p) : 100;
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in self = addr_of(me);
    if (fd < 0 || bind(fd, (struct sockaddr *)&self, sizeof self) < 0) { perror("lease_poll: socket"); return 1; }
    char buf[64];
    if (me == 1) {
        ssize_t n = recvfrom(fd, buf, sizeof buf - 1, 0, NULL, NULL);
        if (n < 0) { perror("lease_poll: recvfrom"); return 1; }
        buf[n] = '\0';
        printf("node 1 got %s\n", buf);
        return 0;
    }
    int empty = 0;
    for (int i = 0; i < polls; i++) {
        if (recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT, NULL, NULL) < 0 && errno == EAGAIN) empty++;
        usleep(1000);
    }
    struct sockaddr_in peer = addr_of(1);
    if (sendto(fd, "GO", 2, 0, (struct sockaddr *)&peer, sizeof peer) != 2) { perror("lease_poll: sendto"); return 1; }
    printf("node 0: %d of %d polls empty\n", empty, polls);
    return 0;
}
