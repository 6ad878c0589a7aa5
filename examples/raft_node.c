/* raft_node: Raft leader election (no log) with in-process crash-restarts, for ElectionSafety.
 *
 * Usage: raft_node <ticks>        (RAFT_NNODES=N, RAFT_FIX=0|1, node id in WEFT_NODE_ID)
 *
 * Nodes 0..N-2 are servers; node N-1 is the observer, which paces the ticks (cluster_common.h) and
 * collects the reports. A follower whose election timer (6 + jitter(3) ticks — deliberately tight,
 * so two candidates often share a term) runs out becomes a candidate for term+1, votes for itself
 * and asks everyone for a vote, asking again every tick those that have not granted it. A server
 * grants at most one vote per term (votedFor) and a majority makes a leader, which sends heartbeats
 * every second tick, the first one 1-2 ticks after its election (a new leader is not heard from at
 * once). A higher term seen anywhere turns a server into a follower of that term.
 *
 * Each server crashes and restarts in-process at three seed-chosen ticks (3 + jitter(ticks/2),
 * 3 + jitter(ticks/2), 3 + jitter(2*ticks/3)): the crashed tick does no protocol work (what arrived
 * is lost) and drops the volatile state (role, vote tally, timer). RAFT_FIX=0 also forgets votedFor
 * — the bug: a restarted server can vote twice in one term, and two leaders can share it.
 * RAFT_FIX=1 keeps currentTerm and votedFor as if they were on stable storage.
 *
 * After every tick each server sends "RPT id date alive term role votedFor" to the observer
 * (role 0 follower, 1 candidate, 2 leader; alive=0 marks a crash-restart tick). */
#include "cluster_common.h"

#define MAX_SERVERS 31
enum { FOLLOWER = 0, CANDIDATE = 1, LEADER = 2 };

static int ticks, nservers, fix, me;
static int term, voted_for = -1, role = FOLLOWER, election_at, next_heartbeat;
static unsigned votes;
static int crash_at[3];
static rng_t rng;
static outbox_t out;

static int majority(void) { return nservers / 2 + 1; }

static void reset_timer(int t) { election_at = t + 6 + jitter(&rng, 3); }

static void adopt_term(int t, int new_term) {
    term = new_term;
    role = FOLLOWER;
    voted_for = -1;
    votes = 0;
    reset_timer(t);
}

static void handle(int t, const char *msg, int from) {
    int mt, granted;
    if (from < 0 || from >= nservers) return;
    if (sscanf(msg, "RV %d", &mt) == 1) {
        if (mt > term) adopt_term(t, mt);
        int grant = mt == term && (voted_for < 0 || voted_for == from);
        if (grant) {
            voted_for = from;
            reset_timer(t);
        }
        outbox_add(&out, from, "VOTE %d %d", term, grant);
    } else if (sscanf(msg, "VOTE %d %d", &mt, &granted) == 2) {
        if (mt > term) adopt_term(t, mt);
        if (role != CANDIDATE || mt != term || !granted) return;
        votes |= 1u << from;
        if (__builtin_popcount(votes) >= majority()) {
            role = LEADER;
            next_heartbeat = t + 1 + jitter(&rng, 2);
        }
    } else if (sscanf(msg, "HB %d", &mt) == 1) {
        if (mt > term) adopt_term(t, mt);
        if (mt == term && role != LEADER) {
            role = FOLLOWER;
            reset_timer(t);
        }
    }
}

static void crash_restart(int t) {
    role = FOLLOWER;
    votes = 0;
    reset_timer(t);
    if (fix == 0) voted_for = -1; /* the bug: votedFor was only in memory */
}

static int crashes_at(int t) { return t == crash_at[0] || t == crash_at[1] || t == crash_at[2]; }

/* Timer-driven work of a live tick: start an election, canvass, or send heartbeats. */
static void act(int t) {
    if (role != LEADER && t >= election_at) {
        term++;
        role = CANDIDATE;
        voted_for = me;
        votes = 1u << me;
        reset_timer(t);
    }
    for (int i = 0; i < nservers; i++) {
        if (i == me) continue;
        if (role == CANDIDATE && !(votes & (1u << i))) outbox_add(&out, i, "RV %d", term);
        if (role == LEADER && t >= next_heartbeat) outbox_add(&out, i, "HB %d", term);
    }
    if (role == LEADER && t >= next_heartbeat) next_heartbeat = t + 2;
}

static int run_server(void) {
    int proto = udp_bound(me, PROTO_PORT), ctrl = udp_bound(me, CTRL_PORT);
    crash_at[0] = 3 + jitter(&rng, ticks / 2);
    crash_at[1] = 3 + jitter(&rng, ticks / 2);
    crash_at[2] = 3 + jitter(&rng, 2 * ticks / 3);
    reset_timer(0);
    char buf[MSG_MAX];
    int t, from;
    member_pacing_t pace = {.ctrl_fd = ctrl, .observer = nservers, .drained = -1, .sent = -1};
    pacing_hello(&pace);
    for (;;) {
        int kind = pacing_next(&pace, &t);
        if (kind == CTRL_BYE) return 0;
        if (kind == CTRL_DRAIN) {
            while (recv_text(proto, MSG_DONTWAIT, buf, &from) >= 0)
                if (!crashes_at(t)) handle(t, buf, from);
            if (crashes_at(t)) {
                crash_restart(t);
                out.n = 0; /* replies not yet sent die with the process */
            }
            pacing_drained(&pace, t);
            continue;
        }
        int alive = !crashes_at(t);
        if (alive) act(t);
        outbox_flush(&out, proto);
        usleep(1000); /* one tick of (virtual) time */
        send_fmt(proto, nservers, PROTO_PORT, "RPT %d %d %d %d %d %d", me, t, alive, term, role, voted_for);
    }
}

/* The observer paces the ticks and waits for every server's report of each tick. */
typedef struct {
    int tick, verbose;
} observer_t;

static int accept_report(const char *text, int from, void *ctx) {
    observer_t *o = ctx;
    report_t r;
    if (from >= nservers || !parse_report(text, &r) || r.date != o->tick) return 0;
    if (o->verbose) fprintf(stderr, "%s\n", text);
    return 1;
}

static int run_observer(void) {
    observer_t o = {.verbose = env_long("RAFT_VERBOSE", 0) != 0}; /* every report on stderr, for native runs */
    pacer_t p;
    pacer_open(&p, me, nservers);
    for (int t = 0; t < ticks; t++) {
        o.tick = t;
        pacer_drain(&p, t);
        pacer_start(&p, 'S', t);
        pacer_await(&p, accept_report, &o);
    }
    pacer_bye(&p, nservers);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: raft_node <ticks>   (RAFT_NNODES, RAFT_FIX, WEFT_NODE_ID)\n");
        return 2;
    }
    ticks = atoi(argv[1]);
    int nnodes = (int)env_long("RAFT_NNODES", 6);
    fix = (int)env_long("RAFT_FIX", 0);
    me = my_node_id();
    nservers = nnodes - 1;
    if (ticks < 4 || nservers < 1 || nservers > MAX_SERVERS || fix < 0 || fix > 1 || me < 0 || me >= nnodes) {
        fprintf(stderr, "raft_node: need ticks >= 4, 2 <= RAFT_NNODES <= %d, RAFT_FIX in 0..1 and "
                        "WEFT_NODE_ID < RAFT_NNODES\n", MAX_SERVERS + 1);
        return 2;
    }
    rng = rng_for(run_seed(), me, 2);
    return me == nservers ? run_observer() : run_server();
}
