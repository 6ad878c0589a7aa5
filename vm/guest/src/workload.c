/* sfclient REQUESTS PACE_MS SALT: sends REQUESTS operations, each an opaque id ("r0007") and a payload
 * derived from SALT, one connection per operation, and retries an operation until it gets an answer
 * (the server may be dead or restarting). Every attempt, error and response is an event; each completed
 * operation also goes to /run/sf-results for the checker. */
#include "sfevent.h"
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>

#define MAX_ATTEMPTS 400

static const char *err_name(int e) {
    switch (e) {
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case EPIPE: return "EPIPE";
    default: return "EOTHER";
    }
}

/* One attempt: 0 and the echoed line in reply, or an errno-like code (-1 = connection closed early). */
static int attempt(const char *msg, char *reply, size_t cap) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_port = htons(SF_PORT);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(s);
        return e;
    }
    size_t len = strlen(msg);
    if (send(s, msg, len, MSG_NOSIGNAL) != (ssize_t)len) {
        int e = errno;
        close(s);
        return e;
    }
    size_t got = 0;
    while (got < cap - 1) {
        ssize_t r = read(s, reply + got, cap - 1 - got);
        if (r < 0) {
            int e = errno;
            close(s);
            return e;
        }
        if (r == 0) break;
        got += (size_t)r;
        if (memchr(reply, '\n', got)) break;
    }
    close(s);
    reply[got] = 0;
    return memchr(reply, '\n', got) ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc < 4) return 64;
    int requests = atoi(argv[1]);
    long pace = atol(argv[2]);
    uint64_t salt = strtoull(argv[3], NULL, 10);
    FILE *results = fopen(SF_RESULTS, "w");
    if (!results) return 65;
    int completed = 0;
    for (int i = 0; i < requests; i++) {
        char id[16], payload[20], msg[64];
        uint64_t st = salt ^ ((uint64_t)i * 0x100000001B3ull);
        snprintf(id, sizeof id, "r%04d", i);
        snprintf(payload, sizeof payload, "%016llx", (unsigned long long)sf_splitmix(&st));
        snprintf(msg, sizeof msg, "%s %s\n", id, payload);
        int ok = 0;
        for (int n = 1; n <= MAX_ATTEMPTS && !ok; n++) {
            sf_emit("client", "\"e\":\"req\",\"id\":\"%s\",\"attempt\":%d,\"payload\":\"%s\"", id, n, payload);
            char reply[128];
            int rc = attempt(msg, reply, sizeof reply);
            if (rc != 0) {
                sf_emit("client", "\"e\":\"error\",\"id\":\"%s\",\"attempt\":%d,\"err\":\"%s\"", id, n,
                        rc < 0 ? "EOF" : err_name(rc));
                sf_sleep_ms(n < 4 ? n : 4);
                continue;
            }
            char echo_id[32] = "", got[32] = "";
            sscanf(reply, "%31s %31s", echo_id, got);
            sf_emit("client", "\"e\":\"resp\",\"id\":\"%s\",\"attempt\":%d,\"echo_id\":\"%s\",\"got\":\"%s\"", id, n,
                    echo_id, got);
            fprintf(results, "%s %s %s %s\n", id, payload, echo_id, got);
            ok = 1;
        }
        if (!ok) {
            sf_emit("client", "\"e\":\"giveup\",\"id\":\"%s\"", id);
            fclose(results);
            return 2;
        }
        completed++;
        sf_sleep_ms(pace);
    }
    fclose(results);
    sf_emit("client", "\"e\":\"done\",\"completed\":%d", completed);
    return 0;
}
