/* sfserver GEN: a single-threaded TCP echo server on 127.0.0.1:7000. It echoes one line per connection.
 * When it listens it writes one byte to fd 3 (a pipe from the agent) so the agent knows it is ready. */
#include "sfevent.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

int main(int argc, char **argv) {
    int gen = argc > 1 ? atoi(argv[1]) : 1;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    /* A restarted server must bind while the killed one's connections sit in TIME_WAIT. */
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(SF_PORT);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 16) != 0) {
        sf_emit("server", "\"e\":\"bind_failed\",\"gen\":%d", gen);
        return 1;
    }
    sf_emit("server", "\"e\":\"listen\",\"gen\":%d,\"port\":%d", gen, SF_PORT);
    if (write(3, "1", 1) == 1) close(3);
    for (;;) {
        int c = accept(s, NULL, NULL);
        if (c < 0) continue;
        char line[256];
        size_t len = 0;
        while (len < sizeof line - 1) {
            ssize_t r = read(c, line + len, sizeof line - 1 - len);
            if (r <= 0) break;
            len += (size_t)r;
            if (memchr(line, '\n', len)) break;
        }
        line[len] = 0;
        char id[32] = "";
        sscanf(line, "%31s", id);
        sf_emit("server", "\"e\":\"echo\",\"gen\":%d,\"id\":\"%s\"", gen, id);
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(c, line + off, len - off);
            if (w <= 0) break;
            off += (size_t)w;
        }
        close(c);
    }
}
