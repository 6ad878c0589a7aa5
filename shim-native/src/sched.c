/*
 * sched.c - the deterministic scheduler model (spec §8, token model).
 *
 * Exactly one managed thread holds the token and runs; every other managed thread sleeps on its
 * own futex word. Yield points change the model state, then pick() chooses the next holder from
 * the scheduler stream (stream 5) exactly as §8 prescribes, and the token is handed over. The
 * pthread hooks that drive the model are in hook_pthread.c (shared declarations: sched_model.h);
 * this file also models the waits other hooks need (sleeps, futexes, fds, the network).
 *
 * Locking: all model state is guarded by sched_lock (an engine spinlock, held only while the
 * state changes and pick() runs, never while waiting for the token). Since only the token holder
 * mutates state, the lock is uncontended in practice; it exists for threads leaving management
 * and for memory ordering.
 *
 * Extensions beyond the reference (RNG use unchanged for programs that do not use them):
 *   - timed waits carry a virtual-time deadline: a waiter whose deadline has passed becomes
 *     runnable at the next decision, and when nothing is runnable the clock jumps to the earliest
 *     deadline instead of reporting deadlock;
 *   - waits outside pthreads (sleeps, futexes, fds, child processes) are model states;
 *   - net waits are examined only when no thread can run (spec §8 blocked-on-net), and an idle
 *     process with simulated sockets waits for them in real time, paced (docs/shim.md "Network").
 */
#include "sched_model.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>

/* Yield-point sites, kept in alphabetical order so the statistics line is sorted. */
const char *const site_names[] = {
    "barrier_wait", "barrier_wait_blocked", "cond_broadcast", "cond_reacquire",
    "cond_reacquire_contended", "cond_signal", "cond_wait", "futex_wait", "futex_wake", "io_wait",
    "join", "mutex_lock",
    "mutex_lock_contended", "mutex_trylock", "mutex_unlock", "net_block", "net_send", "pthread_create", "rwlock_lock",
    "rwlock_lock_contended", "rwlock_trylock", "rwlock_unlock", "sched_yield", "sem_post",
    "sem_trywait", "sem_wait", "sem_wait_contended", "signal_wait", "sleep", "spin_lock_contended",
    "thread_finished",
};
_Static_assert(sizeof site_names / sizeof site_names[0] == S_COUNT, "one name per site");

thread_slot threads[MAX_THREADS];
static sync_obj objects[MAX_OBJECTS];
int nthreads;
int sched_started;
static int rr_cursor = NONE;
static int net_cursor = NONE;        /* the net waiter woken last (spec §8) */
static uint64_t decisions;
static uint64_t sites_hit;
atomic_int sched_lock;
WEFT_TLS int my_tid = NONE;

/* ------------------------------------------------------------------ token passing */

static void futex(atomic_int *w, int op, int val) {
    weft_real_syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static void give_token(int tid) {
    atomic_store_explicit(&threads[tid].turn, 1, memory_order_release);
    futex(&threads[tid].turn, FUTEX_WAKE_PRIVATE, 1);
}

/* Waits until thread `tid` holds the token. `mask`: the signal mask to restore then, when the
 * caller blocked signals (under process scheduling, see switch_to); NULL: none were blocked. */
static void wait_token_masked(int tid, const uint64_t *mask) {
    /* A signal handler running while we wait does not hold the token: raising weft_depth makes
     * its hooks pass through instead of changing the model behind the holder's back. */
    weft_depth++;
    /* exchange consumes the token; a spurious futex return just loops */
    while (atomic_exchange_explicit(&threads[tid].turn, 0, memory_order_acquire) == 0)
        futex(&threads[tid].turn, FUTEX_WAIT_PRIVATE, 0);
    weft_depth--;
    /* pending handlers run here, in this thread's turn (it holds the token, weft_depth is 0) */
    if (mask) weft_pt_unmask_signals(mask);
}

/* A new thread's first turn: under process scheduling it was created with signals blocked
 * (pthread_create), and its turn restores its creator's mask. */
void wait_token(int tid) {
    wait_token_masked(tid, threads[tid].start_masked ? &threads[tid].start_mask : NULL);
}

/* After pick() chose `next` (called with sched_lock released): run it, and wait for our turn
 * unless we are the chosen one or are leaving management. Under process scheduling a signal sent
 * by another process of the tree must run its handler at a deterministic point: from the hand-over
 * until its next turn a thread blocks the asynchronous signals (before the hand-over: a handler
 * run after it would act as the holder), so the kernel leaves a process-directed one pending for
 * the thread that runs - it unblocks at the start of its turn, here or in proc_sched.c. */
void switch_to(int next, int me, int leaving) {
    if (next == me) return;
    uint64_t saved;
    int masked = !leaving && weft_pt_active();
    if (masked) weft_pt_mask_signals(&saved);
    if (next != NONE) give_token(next);
    if (!leaving) wait_token_masked(me, masked ? &saved : NULL);
}

/* ------------------------------------------------------------------ model helpers */

static int is_managed(void) { return my_tid != NONE; }

int weft_sched_managed(void) { return is_managed(); }

/* An unmanaged thread of a process whose other threads the scheduler manages (engine.c's clock). */
int weft_sched_foreign_thread(void) { return my_tid == NONE && sched_started && weft_cfg.sched && weft_engaged(); }

/* Open addressing with linear probing; destroyed objects leave a tombstone (key 1, never a
 * valid object address) that lookups skip and insertions reuse. */
static size_t obj_hash(uintptr_t key) { return (size_t)((key >> 3) * 0x9E3779B97F4A7C15ULL >> 50) % MAX_OBJECTS; }

sync_obj *obj_find(const void *addr) {
    uintptr_t key = (uintptr_t)addr;
    size_t h = obj_hash(key);
    for (size_t i = 0; i < MAX_OBJECTS; i++) {
        sync_obj *o = &objects[(h + i) % MAX_OBJECTS];
        if (o->key == key) return o;
        if (o->key == 0) return NULL;
    }
    return NULL;
}

sync_obj *obj_get(const void *addr, int kind) {
    uintptr_t key = (uintptr_t)addr;
    sync_obj *o = obj_find(addr);
    if (o) {
        if (o->kind != kind) { /* address reused for another kind of object: start fresh */
            memset(o, 0, sizeof *o);
            o->key = key; o->kind = kind; o->owner = NONE;
        }
        return o;
    }
    size_t h = obj_hash(key);
    for (size_t i = 0; i < MAX_OBJECTS; i++) {
        o = &objects[(h + i) % MAX_OBJECTS];
        if (o->key == 0 || o->key == TOMBSTONE) {
            memset(o, 0, sizeof *o);
            o->key = key; o->kind = kind; o->owner = NONE;
            return o;
        }
    }
    weft_errline("[weft] FATAL: more than %d synchronisation objects; cannot model more", MAX_OBJECTS);
    abort();
}

/* A fork child: the locks its vanished threads held are free (POSIX leaves them locked forever;
 * libraries re-initialise theirs in their atfork child handlers, which the model does not see). */
void sched_release_finished_owners(void) {
    for (size_t i = 0; i < MAX_OBJECTS; i++) {
        sync_obj *o = &objects[i];
        if (o->key == 0 || o->key == TOMBSTONE || (o->kind != O_MUTEX && o->kind != O_RWLOCK)) continue;
        if (o->owner != NONE && o->owner >= 0 && o->owner < MAX_THREADS && threads[o->owner].state == T_FINISHED) {
            o->owner = NONE;
            if (o->kind == O_MUTEX) o->count = 0;
        }
    }
}

static int unfinished_count(void) {
    int k = 0;
    for (int t = 0; t < nthreads; t++) if (threads[t].state != T_FINISHED && threads[t].state != T_UNUSED) k++;
    return k;
}

void wake_all(int state, const void *obj) {
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == state && threads[t].obj == obj) threads[t].state = T_RUNNABLE;
}

/* The i-th (from 0, ascending tid) thread in `state` (and waiting on obj, unless obj is NULL). */
int nth_in_state(int state, const void *obj, int i) {
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == state && (!obj || threads[t].obj == obj) && i-- == 0) return t;
    return NONE;
}

static int is_timed_blocked(const thread_slot *s) {
    return s->deadline != 0 && s->state != T_RUNNABLE && s->state != T_FINISHED &&
           s->state != T_UNUSED && s->state != T_BLK_JOIN;
}

static void time_out(thread_slot *s) {
    s->state = T_RUNNABLE;
    s->timed_out = 1;
    s->deadline = 0;
}

/* Threads waiting for readiness of fds the simulation does not own are probed (a zero-timeout
 * real call) at every decision, in ascending tid order. When the readiness comes from other
 * managed threads (a pipe or eventfd written by a worker) it is a function of the schedule, so
 * the decision stays deterministic. */
static int is_net_waiter(int t) {
    return threads[t].state == T_BLK_IO && threads[t].io && threads[t].io->net;
}

/* WEFT_IO_FN waits (process-shared mutexes and condition variables, signal waits) carry their own
 * probe; the rest are hook_io.c's. */
static int probe_io(weft_io_wait *w) {
    if (w->kind != WEFT_IO_FN) return weft_io_probe(w);
    if (!w->probe(w->probe_arg)) return 0;
    w->result = 0;
    w->err = 0;
    return 1;
}

static void probe_io_waiters(void) {
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == T_BLK_IO && !threads[t].io->net && probe_io(threads[t].io)) {
            threads[t].state = T_RUNNABLE;
            threads[t].deadline = 0;
        }
}

static int io_waiters(void) {
    int k = 0;
    for (int t = 0; t < nthreads; t++) if (threads[t].state == T_BLK_IO && !threads[t].io->net) k++;
    return k;
}

static int net_waiters(void) {
    int k = 0;
    for (int t = 0; t < nthreads; t++) if (is_net_waiter(t)) k++;
    return k;
}

static int runnable_count(void) {
    int n = 0;
    for (int t = 0; t < nthreads; t++) if (threads[t].state == T_RUNNABLE) n++;
    return n;
}

/*
 * Net waiters (a blocking receive, or a poll/select/epoll that involves simulated sockets) are
 * examined only when no thread can run, in order after net_cursor, and the first one that is ready
 * is woken without a draw (spec §8's blocked-on-net rule). Whether a datagram has arrived depends
 * on real time; confining that question to idle moments keeps every draw independent of it.
 */
static int wake_ready_net_waiter(void) {
    for (int i = 1; i <= nthreads; i++) {
        int t = (net_cursor + i) % nthreads;
        if (is_net_waiter(t) && weft_io_probe(threads[t].io)) {
            threads[t].state = T_RUNNABLE;
            threads[t].deadline = 0;
            net_cursor = t;
            return t;
        }
    }
    return NONE;
}

static uint64_t real_now_ns(void) {
    struct timespec ts;
    weft_real_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts, 0, 0, 0, 0);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Every thread is blocked and some wait on the network: wait for real, in the kernel, on every fd
 * the net waiters watch (their broker streams are armed, so a datagram makes them readable), for at
 * most budget_ns (UINT64_MAX: no limit). Ordinary fd waiters are re-probed between slices that grow
 * from 20 µs to 10 ms. Returns a woken net waiter (to run without a draw), or NONE when an ordinary
 * waiter became runnable or the budget is spent. Called with sched_lock held, like
 * wait_for_outside: every other managed thread is blocked, so nobody contends for it.
 */
#define NET_WAIT_FDS 64
static int wait_real_for_net(uint64_t budget_ns) {
    struct pollfd pf[NET_WAIT_FDS];
    uint64_t start = real_now_ns();
    uint64_t slice = 20000;
    for (;;) {
        int k = 0;
        for (int t = 0; t < nthreads; t++)
            if (is_net_waiter(t)) k += weft_io_wait_fds(threads[t].io, pf + k, NET_WAIT_FDS - k);
        uint64_t spent = real_now_ns() - start;
        /* windowed: once the node's idle wait is declared the broker ends the wait, in virtual time */
        int declared = weft_cfg.window_ns && weft_tcp_idle_declared();
        if (budget_ns != UINT64_MAX && spent >= budget_ns && !declared) {
            if (!weft_net_broker_behind()) return NONE;
            start += spent; /* the broker had not read our requests yet: its time starts now */
            spent = 0;
        }
        uint64_t step = budget_ns == UINT64_MAX || declared ? UINT64_MAX : budget_ns - spent;
        /* ordinary waiters, or more fds than fit here, are only seen by re-probing */
        if ((io_waiters() > 0 || k == NET_WAIT_FDS) && step > slice) step = slice;
        /* windowed, not declared (another process of the node runs): look again every 1 ms */
        if (weft_cfg.window_ns && !declared && step > 1000000) step = 1000000;
        struct timespec ts = {(time_t)(step / 1000000000ULL), (long)(step % 1000000000ULL)};
        weft_real_syscall(SYS_ppoll, pf, k, step == UINT64_MAX ? NULL : &ts, NULL, 8, 0);
        if (slice < 10000000) slice *= 2;
        int t = wake_ready_net_waiter();
        if (t != NONE) return t;
        probe_io_waiters();
        if (runnable_count() > 0) return NONE;
        if (weft_cfg.window_ns) weft_tcp_redeclare_idle();
    }
}

/* Nothing can run and no virtual deadline is pending: only the outside world (a child process,
 * the terminal, the network) can make progress. Wait for it in real time, re-probing with a
 * growing pause (raw nanosleep: never the hooked one), and return the number now runnable. */
static int any_io_ready(void *unused) {
    (void)unused;
    probe_io_waiters();
    return runnable_count() > 0;
}

static int wait_for_outside(void) {
    /* under process scheduling the outside may be another process of the tree, which can only
     * run while this one waits for the run token's turns */
    weft_pt_block_inside(any_io_ready, NULL);
    long pause_ns = 20000;
    for (;;) {
        struct timespec d = {0, pause_ns};
        weft_real_syscall(SYS_nanosleep, &d, NULL, 0, 0, 0, 0);
        if (pause_ns < 10000000) pause_ns *= 2;
        probe_io_waiters();
        int n = 0;
        for (int t = 0; t < nthreads; t++) if (threads[t].state == T_RUNNABLE) n++;
        if (n) return n;
    }
}

/*
 * The decision of §8. Called with sched_lock held by the token holder. Returns the tid that
 * runs next (possibly the caller), or NONE when every thread has finished.
 */
int pick(enum site site) {
    sites_hit |= 1ULL << site;
    /* timed waiters whose virtual deadline has passed are runnable again (extension) */
    uint64_t now = weft_mono_peek();
    for (int t = 0; t < nthreads; t++)
        if (is_timed_blocked(&threads[t]) && threads[t].deadline <= now) time_out(&threads[t]);
    probe_io_waiters();

    /* R is never materialised (no 16 KB array on a possibly small thread stack): count it,
     * then find its i-th member by a second ascending scan. */
    int n = runnable_count(), best = NONE;
    int nets = n == 0 ? net_waiters() : 0;
    if (n == 0 && (nets > 0 || atomic_load(&weft_net_open) > 0)) {
        /* idle in a process with simulated sockets: a ready net waiter runs without a draw; else
         * wait for real, paced against the earliest virtual deadline (docs/shim.md "Network"),
         * so peers get real time before the clock jumps */
        int woken = nets ? wake_ready_net_waiter() : NONE;
        /* windowed: the process is idle again after one of its TCP waits was answered; its other
         * armed waits must bound the node again (hook_tcp.c, weft_tcp_redeclare_idle) */
        if (woken == NONE && weft_cfg.window_ns && nets > 0 && weft_tcp_redeclare_idle()) woken = wake_ready_net_waiter();
        if (woken == NONE) {
            for (int t = 0; t < nthreads; t++)
                if (is_timed_blocked(&threads[t]) && (best == NONE || threads[t].deadline < threads[best].deadline))
                    best = t;
            if (best != NONE || nets > 0) {
                uint64_t budget = UINT64_MAX;
                if (best != NONE) budget = weft_net_real_budget(threads[best].deadline > now ? threads[best].deadline - now : 0);
                /* windowed: the node's idle wait carries that deadline; the broker ends it in virtual time.
                 * While another process of the node runs (a fork child writing a file), no time passes for
                 * this one: it waits for that process to go idle or exit, then declares; only after 2 s of
                 * real time does the pacing rule's jump apply (a child that never waits on the simulation) */
                if (weft_cfg.window_ns && weft_tcp_idle_declared()) budget = UINT64_MAX;
                else if (weft_cfg.window_ns && nets > 0 && budget != UINT64_MAX && budget < 2000000000ULL &&
                         weft_tcp_waits_here())
                    budget = 2000000000ULL;
                woken = wait_real_for_net(budget);
            }
            best = NONE;
        }
        if (woken != NONE) {
            rr_cursor = woken;
            decisions++;
            return woken;
        }
        n = runnable_count();
    }
    /* A thread that yields while it alone can run is waiting for time to pass (a back-off
     * loop): let the earliest deadline fire instead of spinning forever. */
    int idle_yield = site == S_YIELD && n == 1 && my_tid != NONE && threads[my_tid].state == T_RUNNABLE;
    if (n == 0 || idle_yield) {
        /* nothing can run: jump the clock to the earliest deadline rather than deadlock */
        for (int t = 0; t < nthreads; t++)
            if (is_timed_blocked(&threads[t]) && (best == NONE || threads[t].deadline < threads[best].deadline))
                best = t;
        /* under process scheduling a waiter on an fd, a child or a shared semaphore may be served
         * by another process of the tree: let the tree run until it is idle before the deadline
         * fires (weft_pt_block_bounded_inside; sched_lock stays held, as in wait_for_outside) */
        if (best != NONE && !idle_yield && io_waiters() > 0 && weft_pt_block_bounded_inside(any_io_ready, NULL, threads[best].deadline)) {
            n = runnable_count();
            best = NONE;
        }
        /* under process scheduling the whole process sleeps until that deadline in the tree's wake
         * order (a handler run meanwhile does not end it: the thread model has no EINTR for it) */
        if (best != NONE && !idle_yield && io_waiters() == 0) weft_pt_sleep_until_inside(threads[best].deadline);
        if (best != NONE) {
            uint64_t at = threads[best].deadline;
            weft_mono_at_least(at);
            /* every waiter due at that instant wakes, so which runs first (and handles a signal its
             * timer sent at that instant first) is the seeded draw below, not the lowest index */
            for (int t = 0; t < nthreads; t++)
                if (is_timed_blocked(&threads[t]) && threads[t].deadline <= at) {
                    time_out(&threads[t]);
                    n++;
                }
        }
    }
    if (n == 0 && io_waiters() > 0) n = wait_for_outside();
    if (n == 0) {
        int k = unfinished_count();
        if (k == 0) return NONE;
        weft_errline("[weft] DEADLOCK: %d thread(s) blocked, none can make progress (at %s)", k,
                     site_names[site]);
        weft_pt_exit(0); /* abort skips the destructor: pass the run token on, remove the run segment */
        abort();
    }
    int chosen;
    uint64_t d = weft_stream_u64(WEFT_S_SCHED);
    if (!weft_cfg.strategy_rr) {
        chosen = nth_in_state(T_RUNNABLE, NULL, (int)(d % (uint64_t)n));
    } else if (d % 100 < 20) {
        chosen = nth_in_state(T_RUNNABLE, NULL, (int)(weft_stream_u64(WEFT_S_SCHED) % (uint64_t)n));
    } else {
        chosen = nth_in_state(T_RUNNABLE, NULL, 0);
        for (int t = rr_cursor + 1; t < nthreads; t++)
            if (t >= 0 && threads[t].state == T_RUNNABLE) { chosen = t; break; }
    }
    rr_cursor = chosen;
    decisions++;
    return chosen;
}

/* State change + decision + handover in one step: the common shape of every yield point. */

void block_on(int state, const void *obj, uint64_t deadline) {
    thread_slot *s = &threads[my_tid];
    s->state = state;
    s->obj = obj;
    s->deadline = deadline;
    s->timed_out = 0;
}

/* Absolute deadline on `clock` -> virtual monotonic ns (0 means "no deadline"; never 0 itself). */
uint64_t deadline_ns(clockid_t clock, const struct timespec *abs) {
    if (!abs) return 0;
    if (abs->tv_sec < 0) return 1;
    uint64_t t = (uint64_t)abs->tv_sec * 1000000000ULL + (uint64_t)abs->tv_nsec;
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI)
        t = t > weft_cfg.real_base_ns ? t - weft_cfg.real_base_ns : 0;
    return t ? t : 1;
}

/* ------------------------------------------------------------------ waits on time, futexes, fds */

int weft_sched_active(void) { return sched_engaged(); }

/* A managed thread's sleep is a wait with a virtual deadline: the others run meanwhile, and when
 * nobody else can, the clock jumps to the earliest deadline. */
void weft_sched_sleep_until(uint64_t deadline) {
    pthread_testcancel(); /* sleeps are cancellation points */
    LOCK();
    block_on(T_SLEEP, NULL, deadline ? deadline : 1);
    YIELD(S_SLEEP);
    LOCK();
    threads[my_tid].timed_out = 0;
    int cancelled = threads[my_tid].cancel_woken;
    threads[my_tid].cancel_woken = 0;
    UNLOCK();
    if (cancelled) pthread_testcancel();
}

/* FUTEX_WAIT on a word only managed threads touch, modelled: returns 0 (woken), EAGAIN (the word
 * had changed) or ETIMEDOUT. */
int weft_sched_futex_wait(const atomic_int *word, int expected, uint64_t deadline) {
    LOCK();
    if (atomic_load(word) != expected) { YIELD(S_FUTEX_WAIT); return EAGAIN; }
    block_on(T_BLK_FUTEX, word, deadline);
    YIELD(S_FUTEX_WAIT);
    LOCK();
    int timed_out = threads[my_tid].timed_out;
    threads[my_tid].timed_out = 0;
    UNLOCK();
    return timed_out ? ETIMEDOUT : 0;
}

/* FUTEX_WAKE: wakes up to n modelled waiters (ascending tid, no draw); returns how many. */
int weft_sched_futex_wake(const void *word, int n) {
    LOCK();
    int woken = 0;
    for (int t = 0; t < nthreads && woken < n; t++)
        if (threads[t].state == T_BLK_FUTEX && threads[t].obj == word) {
            threads[t].state = T_RUNNABLE;
            threads[t].deadline = 0;
            woken++;
        }
    YIELD(S_FUTEX_WAKE);
    return woken;
}

/* Waits until weft_io_probe(w) reports readiness (returns 1) or the virtual deadline passes
 * (returns 0). The token is never held while blocked: the thread is simply not runnable. */
static int io_wait_at(weft_io_wait *w, uint64_t deadline, enum site site) {
    LOCK();
    threads[my_tid].io = w;
    block_on(T_BLK_IO, w, deadline);
    YIELD(site);
    LOCK();
    int timed_out = threads[my_tid].timed_out;
    threads[my_tid].timed_out = 0;
    threads[my_tid].io = NULL;
    int cancelled = threads[my_tid].cancel_woken;
    threads[my_tid].cancel_woken = 0;
    UNLOCK();
    if (cancelled) { /* poll, select, epoll_wait and read are cancellation points */
        pthread_testcancel();
        w->result = -1;
        w->err = EINTR;
        return 1;
    }
    return !timed_out;
}

int weft_sched_io_wait(weft_io_wait *w, uint64_t deadline) { return io_wait_at(w, deadline, S_IO_WAIT); }

/* A managed thread waits until probe(arg) says ready (1), the virtual deadline passes (0) or
 * pthread_cancel wakes it (-1; the caller decides when to act on the request: a condition
 * variable re-acquires its mutex first). Process-shared objects (proc_sync.c) and signal waits
 * (hook_signal.c) wait this way: the probe runs at every decision, like an fd wait's. */
int sched_probe_wait(int (*probe)(void *), void *arg, uint64_t deadline, enum site site) {
    if (probe(arg)) return 1;
    weft_io_wait w = {.kind = WEFT_IO_FN, .probe = probe, .probe_arg = arg};
    LOCK();
    threads[my_tid].io = &w;
    block_on(T_BLK_IO, &w, deadline);
    YIELD(site);
    LOCK();
    thread_slot *s = &threads[my_tid];
    int timed_out = s->timed_out, cancelled = s->cancel_woken;
    s->timed_out = 0;
    s->cancel_woken = 0;
    s->io = NULL;
    UNLOCK();
    return cancelled ? -1 : !timed_out;
}

int weft_sched_net_block(weft_io_wait *w, uint64_t deadline) { return io_wait_at(w, deadline, S_NET_BLOCK); }

/* Windowed TCP (hook_tcp.c): called by the token holder (or pick(), sched_lock held), so the other
 * threads are blocked and their slots stand still (the caller, running, is never counted). The earliest virtual deadline of a timed wait
 * of another thread (0: none): a wait that makes the node idle carries it, so the broker wakes the
 * node for it in virtual time instead of the scheduler after a real-time budget. */
uint64_t weft_sched_idle_deadline(void) {
    uint64_t d = 0;
    for (int t = 0; t < nthreads; t++)
        if (is_timed_blocked(&threads[t]) && (d == 0 || threads[t].deadline < d)) d = threads[t].deadline;
    return d;
}

/* Other threads parked at a TCP idle point (a net wait on fd WEFT_TCP_IDLE_FD) that will arm a
 * wait of their own before the process waits: only the last of them may declare the node idle. */
int weft_sched_armers_pending(void) {
    int k = 0;
    for (int t = 0; t < nthreads; t++)
        if (is_net_waiter(t) && threads[t].io->kind == WEFT_IO_NET && threads[t].io->fd == WEFT_TCP_IDLE_FD) k++;
    return k;
}

void weft_sched_net_send(void) {
    LOCK();
    YIELD(S_NET_SEND);
}

/* ------------------------------------------------------------------ statistics */

void weft_sched_stats_at_exit(void) {
    if (!weft_cfg.stats) return;
    char buf[1024];
    int n = weft_fmt(buf, sizeof buf, "[weft] scheduler: %d logical thread(s), %lu decision(s), ",
                     nthreads > 0 ? nthreads : 1, (unsigned long)decisions);
    int distinct = __builtin_popcountll(sites_hit);
    n += weft_fmt(buf + n, sizeof buf - (size_t)n, "%d distinct yield-point site(s): [", distinct);
    int first = 1;
    for (int s = 0; s < S_COUNT; s++) {
        if (!(sites_hit & (1ULL << s))) continue;
        n += weft_fmt(buf + n, sizeof buf - (size_t)n, "%s\"%s\"", first ? "" : ", ", site_names[s]);
        first = 0;
    }
    weft_fmt(buf + n, sizeof buf - (size_t)n, "]");
    weft_errline("%s", buf);
}

