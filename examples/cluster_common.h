/* cluster_common.h: the small pieces every cluster example shares — who am I, my seeded jitter,
 * UDP sockets on 127.0.0.(node+1), and the observer-paced tick barrier used by chord_node and
 * raft_node. Plain POSIX sockets only: the programs know nothing about any test harness.
 * Header-only (static inline functions) so each example stays a single compilation unit. */
#ifndef CLUSTER_COMMON_H
#define CLUSTER_COMMON_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#define MSG_MAX 256

/* ---- identity and configuration ---------------------------------------------------------- */

static inline long env_long(const char *name, long fallback) {
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') return fallback;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "%s=\"%s\": not an integer\n", name, v);
        exit(2);
    }
    return x;
}

static inline int my_node_id(void) { return (int)env_long("WEFT_NODE_ID", 0); }

/* The run seed (0 when unset): every node of a cluster derives shared facts from it, so it must
 * not be drawn per process. */
static inline uint64_t run_seed(void) {
    const char *v = getenv("WEFT_SEED");
    return v != NULL && *v != '\0' ? strtoull(v, NULL, 10) : 0;
}

/* ---- seeded randomness (SplitMix64) --------------------------------------------------------- */

typedef struct { uint64_t s; } rng_t;

static inline uint64_t rng_next(rng_t *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A stream private to (seed, node, purpose): nodes must not draw the same jitter. */
static inline rng_t rng_for(uint64_t seed, int node, uint64_t purpose) {
    rng_t r = {seed ^ ((uint64_t)(node + 1) * 0xD1B54A32D192ED03ULL) ^ (purpose * 0x8CB92BA72F3D8DD7ULL)};
    rng_next(&r);
    return r;
}

/* Uniform in [0, n); n <= 0 gives 0. */
static inline int jitter(rng_t *r, int n) { return n <= 0 ? 0 : (int)(rng_next(r) % (uint64_t)n); }

/* ---- UDP on 127.0.0.(node+1) ---------------------------------------------------------------- */

static inline struct sockaddr_in node_addr(int node, int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(0x7F000001u + (uint32_t)node);
    return a;
}

static inline void die(const char *what) {
    fprintf(stderr, "%s: %s\n", what, strerror(errno));
    exit(1);
}

static inline int udp_bound(int node, int port) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) die("socket");
    struct sockaddr_in a = node_addr(node, port);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        fprintf(stderr, "bind 127.0.0.%d:%d: %s\n", node + 1, port, strerror(errno));
        exit(1);
    }
    return fd;
}

static inline void send_text(int fd, int node, int port, const char *text) {
    struct sockaddr_in a = node_addr(node, port);
    if (sendto(fd, text, strlen(text), 0, (struct sockaddr *)&a, sizeof a) < 0) die("sendto");
}

static inline void send_fmt(int fd, int node, int port, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static inline void send_fmt(int fd, int node, int port, const char *fmt, ...) {
    char buf[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    send_text(fd, node, port, buf);
}

/* Receives one datagram as a NUL-terminated string; the sender's node index goes to *from.
 * Returns the length, or -1 when nothing is waiting (only with MSG_DONTWAIT). */
static inline int recv_text(int fd, int flags, char *buf, int *from) {
    struct sockaddr_in src;
    socklen_t len = sizeof src;
    if (from) *from = -1;
    for (;;) {
        ssize_t n = recvfrom(fd, buf, MSG_MAX - 1, flags, (struct sockaddr *)&src, &len);
        if (n >= 0) {
            buf[n] = '\0';
            if (from) *from = (int)(ntohl(src.sin_addr.s_addr) - 0x7F000001u);
            return (int)n;
        }
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) return -1;
        die("recvfrom");
    }
}

/* ---- observer-paced ticks ------------------------------------------------------------------
 * Node processes run at whatever speed the OS gives them, so a free-running "tick" would mean a
 * different amount of protocol progress on every run. Instead the observer (node N-1) paces every
 * tick in two phases. It sends from its control port to each member's control port; members answer
 * to the observer's protocol port, where their reports go too:
 *   GO R t  -> every member drains its protocol socket and handles what arrived, queueing replies;
 *              then it answers DRAINED t;
 *   GO S t  -> every member sends its queued replies and its timer-driven requests, then its RPT.
 * Nothing is sent while anyone drains, so what a member sees at tick t is exactly what was sent
 * before it — a function of the seed and the network's per-datagram fates, not of OS timing.
 * Start-up: a member sends HELLO once bound, and answers every WHO with HELLO; the observer sends
 * WHO to everyone once bound. Whichever binds last, one of the two messages meets a bound socket.
 * A HELLO during the run is a member whose process was restarted: the observer sends it the GO of
 * the current phase again, and the new process joins in at that tick with a fresh state. A member
 * answers a repeated GO for a phase it already did without doing it again.
 * The observer ends the run with BYE. Pacing waits block: under a lossy or partitioned network a
 * lost control message stalls the run (use latency specs with these targets). */

#define PROTO_PORT 9000 /* protocol traffic; the observer's RPT port (the checkers' convention) */
#define CTRL_PORT 9001  /* tick pacing */
#define MAX_NODES 64

enum { CTRL_DRAIN, CTRL_SEND, CTRL_BYE };

/* A member's end of the pacing. */
typedef struct {
    int ctrl_fd;   /* bound to CTRL_PORT */
    int observer;  /* node id of the observer */
    int drained;   /* last tick drained, -1 before the first */
    int sent;      /* last tick whose send phase ran */
} member_pacing_t;

static inline void pacing_hello(member_pacing_t *m) { send_text(m->ctrl_fd, m->observer, PROTO_PORT, "HELLO"); }

static inline void pacing_drained(member_pacing_t *m, int tick) {
    m->drained = tick;
    send_fmt(m->ctrl_fd, m->observer, PROTO_PORT, "DRAINED %d", tick);
}

/* Blocks for the next phase to run; returns its kind and tick. Repeats of phases already run are
 * answered (DRAINED again) or ignored here. */
static inline int pacing_next(member_pacing_t *m, int *tick) {
    char buf[MSG_MAX];
    for (;;) {
        recv_text(m->ctrl_fd, 0, buf, NULL);
        char phase;
        if (strcmp(buf, "BYE") == 0) return CTRL_BYE;
        if (strcmp(buf, "WHO") == 0) {
            pacing_hello(m);
        } else if (sscanf(buf, "GO %c %d", &phase, tick) == 2) {
            if (phase == 'R' && *tick > m->drained) return CTRL_DRAIN;
            if (phase == 'R') send_fmt(m->ctrl_fd, m->observer, PROTO_PORT, "DRAINED %d", *tick);
            if (phase == 'S' && *tick > m->sent) {
                m->sent = *tick;
                return CTRL_SEND;
            }
        }
    }
}

/* Messages a member queues while draining and sends in its send phase. */
typedef struct {
    int n;
    int node[64];
    char text[64][MSG_MAX];
} outbox_t;

static inline void outbox_add(outbox_t *o, int node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline void outbox_add(outbox_t *o, int node, const char *fmt, ...) {
    if (o->n == 64) return; /* a full outbox drops, like a full socket buffer */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(o->text[o->n], MSG_MAX, fmt, ap);
    va_end(ap);
    o->node[o->n++] = node;
}

static inline void outbox_flush(outbox_t *o, int fd) {
    for (int i = 0; i < o->n; i++) send_text(fd, o->node[i], PROTO_PORT, o->text[i]);
    o->n = 0;
}

/* The observer's end: members still taking part, and where their answers arrive. */
typedef struct {
    int in_fd;     /* the observer's PROTO_PORT socket: HELLO, DRAINED and RPT arrive here */
    int ctrl_fd;   /* the observer's CTRL_PORT socket: GO, WHO and BYE leave from here */
    int n;         /* members still in the run */
    int node[MAX_NODES];
    char phase;    /* the phase under way ('R' or 'S'), for restarted members */
    int tick;
} pacer_t;

static inline int pacer_has(const pacer_t *p, int node) {
    for (int i = 0; i < p->n; i++)
        if (p->node[i] == node) return 1;
    return 0;
}

static inline void pacer_remove(pacer_t *p, int node) {
    for (int i = 0; i < p->n; i++)
        if (p->node[i] == node) {
            p->node[i] = p->node[--p->n];
            return;
        }
}

/* Waits until every member has said HELLO (see the start-up note above). */
static inline void pacer_gather(pacer_t *p) {
    char buf[MSG_MAX];
    int seen[MAX_NODES] = {0}, count = 0, from;
    for (int i = 0; i < p->n; i++) send_text(p->ctrl_fd, p->node[i], CTRL_PORT, "WHO");
    while (count < p->n) {
        recv_text(p->in_fd, 0, buf, &from);
        if (strcmp(buf, "HELLO") == 0 && pacer_has(p, from) && !seen[from]) {
            seen[from] = 1;
            count++;
        }
    }
}

/* Opens the observer's end for members 0..members-1 on the observer's two ports and waits for their HELLOs. */
static inline void pacer_open(pacer_t *p, int observer, int members) {
    memset(p, 0, sizeof *p);
    p->in_fd = udp_bound(observer, PROTO_PORT);
    p->ctrl_fd = udp_bound(observer, CTRL_PORT);
    p->n = members;
    for (int i = 0; i < members; i++) p->node[i] = i;
    pacer_gather(p);
}

/* main() of a two-node example: node 0 runs zero(), node 1 runs one(); any other WEFT_NODE_ID is a usage error. */
static inline int two_node_main(const char *prog, const char *role0, int (*zero)(void), const char *role1, int (*one)(void)) {
    int me = my_node_id();
    if (me != 0 && me != 1) {
        fprintf(stderr, "%s: WEFT_NODE_ID must be 0 (%s) or 1 (%s)\n", prog, role0, role1);
        return 2;
    }
    return me == 0 ? zero() : one();
}

static inline void pacer_go(pacer_t *p, int node) {
    char buf[MSG_MAX];
    snprintf(buf, sizeof buf, "GO %c %d", p->phase, p->tick);
    send_text(p->ctrl_fd, node, CTRL_PORT, buf);
}

/* Starts phase ('R' or 'S') of tick for every member in the run. */
static inline void pacer_start(pacer_t *p, char phase, int tick) {
    p->phase = phase;
    p->tick = tick;
    for (int i = 0; i < p->n; i++) pacer_go(p, p->node[i]);
}

/* Waits for one accepted answer from every member that was in the run when the phase started;
 * accept(text, from, ctx) says whether a message is the answer. Every message is shown to accept —
 * also late ones from members no longer waited for — since datagrams of one member may arrive in
 * any order. A HELLO gets the current GO again (a restarted member). */
static inline void pacer_await(pacer_t *p, int (*accept)(const char *text, int from, void *ctx), void *ctx) {
    char buf[MSG_MAX];
    int waiting[MAX_NODES] = {0}, count = p->n, from;
    for (int i = 0; i < p->n; i++) waiting[p->node[i]] = 1;
    while (count > 0) {
        recv_text(p->in_fd, 0, buf, &from);
        if (from < 0 || from >= MAX_NODES) continue;
        if (!waiting[from]) {
            if (strcmp(buf, "HELLO") != 0) accept(buf, from, ctx);
        } else if (strcmp(buf, "HELLO") == 0) {
            pacer_go(p, from);
        } else if (accept(buf, from, ctx)) {
            waiting[from] = 0;
            count--;
        }
    }
}

static inline int accept_drained(const char *text, int from, void *ctx) {
    (void)from;
    int t;
    return sscanf(text, "DRAINED %d", &t) == 1 && t == *(int *)ctx;
}

/* Runs the drain phase of tick for every member. */
static inline void pacer_drain(pacer_t *p, int tick) {
    pacer_start(p, 'R', tick);
    pacer_await(p, accept_drained, &tick);
}

static inline void pacer_bye(pacer_t *p, int nmembers) {
    for (int i = 0; i < nmembers; i++) send_text(p->ctrl_fd, i, CTRL_PORT, "BYE");
}

/* A state report as the checkers parse it: "RPT" and six integers. */
typedef struct { int a, date, alive, b, c, d; } report_t;

static inline int parse_report(const char *text, report_t *r) {
    return sscanf(text, "RPT %d %d %d %d %d %d", &r->a, &r->date, &r->alive, &r->b, &r->c, &r->d) == 6;
}

#endif
