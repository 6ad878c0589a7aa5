/* kvreplica: a replicated register whose replica trusts arrival order — one process, two threads
 * acting as two nodes (both on 127.0.0.1).
 *
 * The writer (port 7001) sends "UPDATE:1" .. "UPDATE:K" (K = KV_UPDATES, default 8) in one burst,
 * then "READ", and waits for "VALUE:<v>". The replica (port 7000) starts after a short nap and
 * applies every UPDATE in the order datagrams arrive, with no version check — the bug — and answers
 * READ with what it holds. When the network reorders the burst, the read is stale (exit status 1);
 * on a FIFO network it is always K. Prints "final=<v> expected=<K> stale=<0|1>".
 *
 * The writer also prints its operations as a register history (history_line.h, docs/history.md):
 * each UPDATE is a write acknowledged once sent — the protocol has no acks, and the replica promises
 * the last write — and the READ is a read returning what came back, so a stale read is a
 * linearizability violation for weft check history --model register. */
#include <pthread.h>
#include "cluster_common.h"
#include "history_line.h"

#define REPLICA_PORT 7000
#define WRITER_PORT 7001

static int replica_fd, writer_fd, updates;

static void *replica(void *arg) {
    (void)arg;
    char buf[MSG_MAX];
    int value = 0, v;
    usleep(2000); /* lets the writer's burst pile up, as behind a slow link */
    for (;;) {
        if (recv_text(replica_fd, MSG_DONTWAIT, buf, NULL) < 0) {
            usleep(1000);
            continue;
        }
        if (sscanf(buf, "UPDATE:%d", &v) == 1) {
            value = v; /* last arrival wins, whatever its version */
        } else if (strcmp(buf, "READ") == 0) {
            send_fmt(replica_fd, 0, WRITER_PORT, "VALUE:%d", value);
            return NULL;
        }
    }
}

static void *writer(void *arg) {
    int *result = arg;
    char buf[MSG_MAX];
    char value[32];
    for (int v = 1; v <= updates; v++) {
        snprintf(value, sizeof value, "%d", v);
        history_event(0, "invoke", "write", value);
        send_fmt(writer_fd, 0, REPLICA_PORT, "UPDATE:%d", v);
        history_event(0, "ok", "write", value);
    }
    history_event(0, "invoke", "read", NULL);
    send_text(writer_fd, 0, REPLICA_PORT, "READ");
    for (int poll = 0; poll < 10000; poll++) {
        if (recv_text(writer_fd, MSG_DONTWAIT, buf, NULL) >= 0 && sscanf(buf, "VALUE:%d", result) == 1) {
            snprintf(value, sizeof value, "%d", *result);
            history_event(0, "ok", "read", value);
            return NULL;
        }
        usleep(1000);
    }
    history_event(0, "info", "read", NULL);
    return NULL;
}

int main(void) {
    updates = (int)env_long("KV_UPDATES", 8);
    /* Both sockets exist before either thread runs, so no datagram finds its receiver unbound. */
    replica_fd = udp_bound(0, REPLICA_PORT);
    writer_fd = udp_bound(0, WRITER_PORT);
    int result = -1;
    pthread_t r, w;
    pthread_create(&r, NULL, replica, NULL);
    pthread_create(&w, NULL, writer, &result);
    pthread_join(w, NULL);
    if (result < 0) {
        printf("no reply from the replica\n");
        return 2;
    }
    pthread_join(r, NULL);
    int stale = result != updates;
    printf("final=%d expected=%d stale=%d\n", result, updates, stale);
    return stale;
}
