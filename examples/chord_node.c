/* chord_node: one node of a Chord ring with fail-silent members, for studying ring repair.
 *
 * Usage: chord_node <m> <ticks> <base>     (CHORD_NNODES=N, CHORD_FIX=0|1|2, node id in WEFT_NODE_ID)
 *
 * Identifiers live on a circle of 2^m. Nodes 0..N-2 are members; node N-1 is the observer, which
 * paces the ticks (cluster_common.h) and collects every member's state report. Members 0..base-1
 * start as the ideal ring (successor list of length 2: succ, succ2; and prdc). The others are
 * appendages: each joins at tick 2 + jitter(6) and fails at tick ticks/3 + jitter(ticks/3).
 *
 * Operations, as in the 2001 Chord paper with the PODC successor-list recovery:
 *   join       FIND my id around the ring; the member m with my id between m and m.succ answers
 *              with m.succ, which I take as my successor;
 *   stabilize  ask succ for its prdc p; adopt p as succ if it lies between me and succ; notify succ;
 *   notified   adopt the notifier as prdc if I have none, mine is known dead, or it lies between;
 *   reconcile  succ2 := succ.succ (a GETSUCC request);
 *   update     replace a known-dead succ by succ2;
 *   flush      drop a known-dead prdc.
 * Each periodic operation runs on its own jittered schedule: folding reconcile/update/flush into
 * stabilize would close the windows in which the anomalies live.
 *
 * Failure is fail-silent with detection latency: a failing appendage broadcasts "DEAD <id>" once over
 * the same (possibly lossy, reordering) network, reports alive=0 and falls silent.
 *
 * CHORD_FIX: 0 = no liveness check on any adoption (the 2001 protocol); 1 = stabilize does not adopt
 * a known-dead predecessor of its successor; 2 = nothing known dead is adopted anywhere (stabilize,
 * notified, reconcile, update, join) and the GETSUCC responder never answers with a known-dead node.
 *
 * After every tick each member sends "RPT ident date alive succ succ2 prdc" to the observer. After
 * <ticks> come 8 quiescent rounds (every maintenance operation every tick, no joins or failures) and a
 * final report dated ticks + 9. The observer exits 3 when a failure left some member with no live
 * entry in its successor list — the papers' precondition, under which such runs are discarded. */
#include "cluster_common.h"

#define TAIL_ROUNDS 8
#define MAX_MEMBERS 62

static int m_bits, ticks, base, nmembers, fix, me;
static int ident_of[MAX_MEMBERS];
static int ring_size;

/* ---- identifiers ------------------------------------------------------------------------------ */

/* Is b strictly between a and c going clockwise? (a == c: everything but a.) */
static int between(int a, int b, int c) {
    if (a < c) return a < b && b < c;
    return a < b || b < c;
}

static int index_of(int ident) {
    for (int i = 0; i < nmembers; i++)
        if (ident_of[i] == ident) return i;
    return -1;
}

/* Base members are spread evenly; appendages land inside the base gaps at seed-chosen offsets.
 * Every node computes the same table from the run seed. */
static void assign_identifiers(uint64_t seed) {
    int gap = ring_size / base;
    for (int i = 0; i < base; i++) ident_of[i] = i * gap + 1;
    rng_t r = rng_for(seed, -1, 7);
    for (int i = base; i < nmembers; i++) {
        int g = (i - base) % base, id;
        do {
            id = (ident_of[g] + 1 + jitter(&r, gap - 1)) % ring_size;
        } while (index_of(id) >= 0);
        ident_of[i] = id;
    }
}

/* ---- member state ----------------------------------------------------------------------------- */

static int id, succ = -1, succ2 = -1, prdc = -1, joined;
static unsigned char *known_dead; /* by ident: a DEAD notice arrived */
static int join_tick = -1, fail_tick = -1, join_sent = -1;
static int next_stabilize, next_reconcile, next_update, next_flush;
static rng_t rng;
static outbox_t out;

static int dead(int ident) { return ident >= 0 && known_dead[ident]; }
static int alive_succ(void) { return dead(succ) ? succ2 : succ; }

/* Also to myself: a node that is its own successor stabilizes against its own prdc, as in the paper. */
static void send_to_ident(int ident, const char *text) {
    int node = index_of(ident);
    if (node >= 0) outbox_add(&out, node, "%s", text);
}

static void handle(const char *msg, int from) {
    int from_ident = from >= 0 && from < nmembers ? ident_of[from] : -1;
    int x, o, h;
    char buf[MSG_MAX];
    if (sscanf(msg, "DEAD %d", &x) == 1) {
        if (x >= 0 && x < ring_size) known_dead[x] = 1;
    } else if (sscanf(msg, "FIND %d %d %d", &x, &o, &h) == 3) {
        if (!joined || succ < 0) return;
        if (between(id, x, succ)) {
            outbox_add(&out, o, "FOUND %d", succ);
        } else if (h < nmembers) {
            snprintf(buf, sizeof buf, "FIND %d %d %d", x, o, h + 1);
            send_to_ident(alive_succ(), buf);
        }
    } else if (sscanf(msg, "FOUND %d", &x) == 1) {
        if (joined || (fix >= 2 && dead(x))) return;
        succ = x;
        joined = 1;
    } else if (strcmp(msg, "GETPRED") == 0) {
        if (joined) outbox_add(&out, from, "PRED %d", prdc);
    } else if (sscanf(msg, "PRED %d", &x) == 1) {
        if (from_ident != succ) return; /* an answer from a former successor */
        if (x >= 0 && x != id && between(id, x, succ) && !(fix >= 1 && dead(x))) succ = x;
        snprintf(buf, sizeof buf, "NOTIFY");
        send_to_ident(succ, buf);
    } else if (strcmp(msg, "NOTIFY") == 0) {
        if (!joined || from_ident < 0 || (fix >= 2 && dead(from_ident))) return;
        if (prdc < 0 || dead(prdc) || between(prdc, from_ident, id)) prdc = from_ident;
    } else if (strcmp(msg, "GETSUCC") == 0) {
        if (!joined) return;
        int answer = succ;
        if (fix >= 2 && dead(answer)) answer = dead(succ2) ? -1 : succ2;
        if (answer >= 0) outbox_add(&out, from, "SUCC %d", answer);
    } else if (sscanf(msg, "SUCC %d", &x) == 1) {
        if (from_ident != succ || (fix >= 2 && dead(x))) return;
        succ2 = x;
    }
}

/* Timer-driven work at tick t; in the quiescent tail every maintenance operation runs each tick. */
static void timers(int t, int tail) {
    if (!joined) {
        if (!tail && join_tick >= 0 && t >= join_tick && (join_sent < 0 || t - join_sent >= 6)) {
            outbox_add(&out, jitter(&rng, base), "FIND %d %d 0", id, me);
            join_sent = t;
        }
        return;
    }
    if (tail || t >= next_update) {
        if ((succ < 0 || dead(succ)) && succ2 >= 0 && !(fix >= 2 && dead(succ2))) succ = succ2;
        next_update = t + 3 + jitter(&rng, 3);
    }
    if (tail || t >= next_flush) {
        if (dead(prdc)) prdc = -1;
        next_flush = t + 6 + jitter(&rng, 6);
    }
    if (tail || t >= next_stabilize) {
        send_to_ident(succ, "GETPRED");
        next_stabilize = t + 3 + jitter(&rng, 3);
    }
    if (tail || t >= next_reconcile) {
        send_to_ident(succ, "GETSUCC");
        next_reconcile = t + 4 + jitter(&rng, 4);
    }
}

static void report(int fd, int date, int alive) {
    send_fmt(fd, nmembers, PROTO_PORT, "RPT %d %d %d %d %d %d", id, date, alive, succ, succ2, prdc);
}

static int run_member(void) {
    int proto = udp_bound(me, PROTO_PORT), ctrl = udp_bound(me, CTRL_PORT);
    id = ident_of[me];
    known_dead = calloc((size_t)ring_size, 1);
    if (!known_dead) die("calloc");
    if (me < base) {
        joined = 1;
        succ = ident_of[(me + 1) % base];
        succ2 = ident_of[(me + 2) % base];
        prdc = ident_of[(me + base - 1) % base];
    } else {
        join_tick = 2 + jitter(&rng, 6);
        fail_tick = ticks / 3 + jitter(&rng, ticks / 3);
    }
    next_stabilize = 1 + jitter(&rng, 3);
    next_reconcile = 1 + jitter(&rng, 4);
    next_update = 1 + jitter(&rng, 3);
    next_flush = 1 + jitter(&rng, 4);

    char buf[MSG_MAX];
    int t, from, failed = 0;
    member_pacing_t pace = {.ctrl_fd = ctrl, .observer = nmembers, .drained = -1, .sent = -1};
    pacing_hello(&pace);
    for (;;) {
        int kind = pacing_next(&pace, &t);
        if (kind == CTRL_BYE) return 0;
        int tail = t >= ticks;
        if (kind == CTRL_DRAIN) {
            if (!failed && !tail && t == fail_tick) {
                /* Dying at the start of tick t: the death report follows every report of tick t-1 and
                 * precedes every report of tick t, so the checker's failure-precondition test sees the
                 * others' state as it was when the failure happened. The DEAD notices go out in the send
                 * phase, like all protocol traffic. */
                report(proto, t, 0);
                failed = 1;
            } else if (!failed) {
                while (recv_text(proto, MSG_DONTWAIT, buf, &from) >= 0) handle(buf, from);
            }
            pacing_drained(&pace, t);
            continue;
        }
        if (failed) {
            if (t == fail_tick) {
                for (int i = 0; i < nmembers; i++)
                    if (i != me) send_fmt(proto, i, PROTO_PORT, "DEAD %d", id);
                send_fmt(proto, nmembers, PROTO_PORT, "DONE %d", t);
            }
            continue; /* a failed node stays bound and silent until the run ends */
        }
        timers(t, tail);
        outbox_flush(&out, proto);
        usleep(1000); /* one tick of (virtual) time */
        report(proto, t == ticks + TAIL_ROUNDS ? ticks + 9 : t, 1);
    }
}

/* ---- observer ----------------------------------------------------------------------------------- */

/* The papers' precondition: when a member fails, every other live member still has a live entry in
 * its successor list. Checked on the reports as they arrive (the same rule the checker applies). */
static int latest_succ[MAX_MEMBERS], latest_succ2[MAX_MEMBERS], latest_date[MAX_MEMBERS], has_latest[MAX_MEMBERS];
static int failed_member[MAX_MEMBERS];

static int failed_ident(int ident) {
    int i = index_of(ident);
    return i < 0 || failed_member[i];
}

static int precondition_broken_by(int dead_index, int tick) {
    failed_member[dead_index] = 1;
    for (int i = 0; i < nmembers; i++) {
        if (i == dead_index || failed_member[i] || !has_latest[i]) continue;
        int ok1 = latest_succ[i] >= 0 && !failed_ident(latest_succ[i]);
        int ok2 = latest_succ2[i] >= 0 && !failed_ident(latest_succ2[i]);
        if (!ok1 && !ok2) {
            fprintf(stderr, "chord observer: at tick %d the failure of %d left member %d with no live successor "
                            "(succ=%d succ2=%d): the run breaks the failure precondition\n",
                    tick, ident_of[dead_index], ident_of[i], latest_succ[i], latest_succ2[i]);
            return 1;
        }
    }
    return 0;
}

/* What the observer learns while it waits for the members' answers. */
typedef struct {
    int date;                   /* the report date expected in this send phase */
    int verbose;
    int broken;                 /* the failure precondition broke */
    int tick;
    unsigned char dead[MAX_MEMBERS];    /* its death report arrived */
    unsigned char leaving[MAX_MEMBERS]; /* its DONE arrived: it leaves the pacing */
} observer_t;

static void observe_report(observer_t *o, const report_t *r, int from, const char *text) {
    if (o->verbose) fprintf(stderr, "%s\n", text);
    if (r->alive) {
        if (!has_latest[from] || r->date >= latest_date[from]) {
            has_latest[from] = 1;
            latest_date[from] = r->date;
            latest_succ[from] = r->b;
            latest_succ2[from] = r->c;
        }
    } else if (!o->dead[from]) {
        o->dead[from] = 1;
        if (!o->broken) o->broken = precondition_broken_by(from, o->tick);
    }
}

/* A death report is sent at the start of the dying member's tick and may arrive in either phase,
 * before or after the DONE that ends its last send phase (datagrams of one channel can overtake). */
static int is_death_report(const char *text, int from, observer_t *o) {
    report_t r;
    if (from >= nmembers || !parse_report(text, &r) || r.alive) return 0;
    observe_report(o, &r, from, text);
    return 1;
}

/* Drain phase: DRAINED of this tick counts. */
static int accept_drain_answer(const char *text, int from, void *ctx) {
    observer_t *o = ctx;
    int t;
    if (is_death_report(text, from, o)) return 0;
    return sscanf(text, "DRAINED %d", &t) == 1 && t == o->tick;
}

/* Send phase: a live member answers with its report, a dying one with DONE after its DEAD notices. */
static int accept_send_answer(const char *text, int from, void *ctx) {
    observer_t *o = ctx;
    report_t r;
    int t;
    if (from >= nmembers || is_death_report(text, from, o)) return 0;
    if (sscanf(text, "DONE %d", &t) == 1) {
        o->leaving[from] = 1;
        return t == o->tick;
    }
    if (!parse_report(text, &r) || r.date != o->date) return 0;
    observe_report(o, &r, from, text);
    return 1;
}

static int run_observer(void) {
    observer_t o = {.verbose = env_long("CHORD_VERBOSE", 0) != 0}; /* every report on stderr, for native runs */
    pacer_t p;
    pacer_open(&p, me, nmembers);
    for (int t = 0; t <= ticks + TAIL_ROUNDS && p.n > 0; t++) {
        o.tick = t;
        o.date = t == ticks + TAIL_ROUNDS ? ticks + 9 : t;
        pacer_start(&p, 'R', t);
        pacer_await(&p, accept_drain_answer, &o);
        pacer_start(&p, 'S', t);
        pacer_await(&p, accept_send_answer, &o);
        for (int i = 0; i < nmembers; i++)
            if (o.leaving[i]) {
                pacer_remove(&p, i); /* it stays bound and silent until BYE */
                o.leaving[i] = 0;
            }
    }
    pacer_bye(&p, nmembers);
    return o.broken ? 3 : 0;
}

/* ---- main ---------------------------------------------------------------------------------------- */

/* A member that failed leaves the pacing after its last send phase but stays bound and silent until
 * the final BYE, so datagrams sent to it are queued whatever the processes' speed (a stable recording). */
int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: chord_node <m> <ticks> <base>   (CHORD_NNODES, CHORD_FIX, WEFT_NODE_ID)\n");
        return 2;
    }
    m_bits = atoi(argv[1]);
    ticks = atoi(argv[2]);
    base = atoi(argv[3]);
    int nnodes = (int)env_long("CHORD_NNODES", 7);
    fix = (int)env_long("CHORD_FIX", 0);
    me = my_node_id();
    nmembers = nnodes - 1;
    if (m_bits < 2 || m_bits > 20 || ticks < 3 || base < 1 || nmembers < base || nmembers > MAX_MEMBERS ||
        fix < 0 || fix > 2 || me < 0 || me >= nnodes) {
        fprintf(stderr, "chord_node: need 2 <= m <= 20, ticks >= 3, 1 <= base <= CHORD_NNODES-1 <= %d, "
                        "CHORD_FIX in 0..2 and WEFT_NODE_ID < CHORD_NNODES\n", MAX_MEMBERS);
        return 2;
    }
    ring_size = 1 << m_bits;
    if (ring_size / base < 2 + (nmembers - base + base - 1) / base) {
        fprintf(stderr, "chord_node: 2^m is too small for %d members\n", nmembers);
        return 2;
    }
    uint64_t seed = run_seed();
    assign_identifiers(seed);
    rng = rng_for(seed, me, 1);
    return me == nmembers ? run_observer() : run_member();
}
