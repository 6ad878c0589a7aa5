/*
 * sched.c - the deterministic scheduler (spec §8, token model) and the pthread hooks.
 *
 * Exactly one managed thread holds the token and runs; every other managed thread sleeps on its
 * own futex word. Yield points (the pthread calls) change the model state, then pick() chooses the
 * next holder from the scheduler stream (stream 5) exactly as §8 prescribes, and the token is
 * handed over. Managed threads never call the real mutex/cond/rwlock/barrier/semaphore
 * operations: ownership lives in a fixed-size, allocation-free object table.
 *
 * Locking: all model state is guarded by sched_lock (an engine spinlock, held only while the
 * state changes and pick() runs, never while waiting for the token). Since only the token holder
 * mutates state, the lock is uncontended in practice; it exists for threads leaving management
 * and for memory ordering.
 *
 * Extensions beyond the reference (RNG use unchanged for programs that do not use them):
 *   - timed waits (cond_timedwait/clockwait, mutex_timedlock, sem_timedwait) carry a virtual-time
 *     deadline: a waiter whose deadline has passed becomes runnable at the next decision, and when
 *     nothing is runnable the clock jumps to the earliest deadline instead of reporting deadlock;
 *   - rwlocks, barriers and semaphores are modelled;
 *   - pthread_cancel wakes a target blocked in a cancellable modelled wait, which then acts on
 *     the cancellation at a point where it holds the token, so the token cannot be wedged;
 *   - recursive and error-checking mutexes behave as their type says.
 */
#include "weft.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <poll.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#define MAX_THREADS 4096
#define MAX_OBJECTS 16384
#define NONE (-1)

enum tstate { T_UNUSED = 0, T_RUNNABLE, T_BLK_MUTEX, T_BLK_COND, T_BLK_JOIN, T_BLK_RD, T_BLK_WR,
              T_BLK_BARRIER, T_BLK_SEM, T_BLK_FUTEX, T_BLK_IO, T_SLEEP, T_FINISHED };

typedef struct thread_slot {
    int state;
    const void *obj;        /* what a blocked thread waits on (mutex, cond, ..., or join target) */
    int join_tid;
    uint64_t deadline;      /* virtual mono ns; 0 = untimed */
    int timed_out;          /* woken because its deadline passed */
    int cancel_woken;       /* woken by pthread_cancel */
    pthread_t pt;
    void *(*fn)(void *);
    void *arg;
    weft_io_wait *io;       /* T_BLK_IO: what readiness the thread waits for (probed at decisions) */
    atomic_int turn;        /* futex word: 1 = this thread now holds the token */
} thread_slot;

/* Yield-point sites, kept in alphabetical order so the statistics line is sorted. */
static const char *const site_names[] = {
    "barrier_wait", "barrier_wait_blocked", "cond_broadcast", "cond_reacquire",
    "cond_reacquire_contended", "cond_signal", "cond_wait", "futex_wait", "futex_wake", "io_wait",
    "join", "mutex_lock",
    "mutex_lock_contended", "mutex_trylock", "mutex_unlock", "net_block", "net_send", "pthread_create", "rwlock_lock",
    "rwlock_lock_contended", "rwlock_trylock", "rwlock_unlock", "sched_yield", "sem_post",
    "sem_trywait", "sem_wait", "sem_wait_contended", "sleep", "thread_finished",
};
enum site { S_BARRIER, S_BARRIER_BLK, S_COND_BCAST, S_COND_REACQ, S_COND_REACQ_C, S_COND_SIGNAL,
            S_COND_WAIT, S_FUTEX_WAIT, S_FUTEX_WAKE, S_IO_WAIT, S_JOIN, S_MUTEX_LOCK, S_MUTEX_LOCK_C, S_MUTEX_TRY, S_MUTEX_UNLOCK,
            S_NET_BLOCK, S_NET_SEND, S_CREATE, S_RW_LOCK, S_RW_LOCK_C, S_RW_TRY, S_RW_UNLOCK, S_YIELD, S_SEM_POST,
            S_SEM_TRY, S_SEM_WAIT, S_SEM_WAIT_C, S_SLEEP, S_FINISHED, S_COUNT };
_Static_assert(sizeof site_names / sizeof site_names[0] == S_COUNT, "one name per site");

enum okind { O_FREE = 0, O_MUTEX, O_RWLOCK, O_BARRIER, O_SEM, O_COND };
typedef struct sync_obj {
    uintptr_t key;
    int kind;
    int owner;              /* mutex owner / rwlock writer */
    unsigned count;         /* recursive depth / rwlock readers / barrier arrivals / sem value */
    unsigned need;          /* barrier size */
} sync_obj;

static thread_slot threads[MAX_THREADS];
static sync_obj objects[MAX_OBJECTS];
static int nthreads;                 /* logical tids handed out so far */
static int sched_started;            /* the main thread registered (first pthread_create) */
static int rr_cursor = NONE;
static int net_cursor = NONE;        /* the net waiter woken last (spec §8) */
static uint64_t decisions;
static uint64_t sites_hit;
static atomic_int sched_lock;
static WEFT_TLS int my_tid = NONE;

/* ------------------------------------------------------------------ real functions */

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);
typedef void (*exit_fn)(void *) __attribute__((noreturn));
typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*mutex_timed_fn)(pthread_mutex_t *, const struct timespec *);
typedef int (*mutex_clock_fn)(pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*cond_fn)(pthread_cond_t *);
typedef int (*cond_wait_fn)(pthread_cond_t *, pthread_mutex_t *);
typedef int (*cond_timed_fn)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
typedef int (*cond_clock_fn)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
typedef int (*yield_fn)(void);
typedef int (*cancel_fn)(pthread_t);
typedef int (*rw_fn)(pthread_rwlock_t *);
typedef int (*rw_timed_fn)(pthread_rwlock_t *, const struct timespec *);
typedef int (*barrier_init_fn)(pthread_barrier_t *, const pthread_barrierattr_t *, unsigned);
typedef int (*barrier_fn)(pthread_barrier_t *);
typedef int (*sem_init_fn)(sem_t *, int, unsigned);
typedef int (*sem_fn)(sem_t *);
typedef int (*sem_timed_fn)(sem_t *, const struct timespec *);
typedef int (*sem_getvalue_fn)(sem_t *, int *);

REAL_FN(create_fn, pthread_create)
REAL_FN(join_fn, pthread_join)
REAL_FN(exit_fn, pthread_exit)
REAL_FN(mutex_fn, pthread_mutex_lock)
REAL_FN(mutex_fn, pthread_mutex_trylock)
REAL_FN(mutex_fn, pthread_mutex_unlock)
REAL_FN(mutex_timed_fn, pthread_mutex_timedlock)
REAL_FN(mutex_clock_fn, pthread_mutex_clocklock)
REAL_FN(cond_fn, pthread_cond_signal)
REAL_FN(cond_fn, pthread_cond_broadcast)
REAL_FN(cond_wait_fn, pthread_cond_wait)
REAL_FN(cond_timed_fn, pthread_cond_timedwait)
REAL_FN(cond_clock_fn, pthread_cond_clockwait)
REAL_FN(yield_fn, sched_yield)
REAL_FN(cancel_fn, pthread_cancel)
REAL_FN(rw_fn, pthread_rwlock_rdlock)
REAL_FN(rw_fn, pthread_rwlock_wrlock)
REAL_FN(rw_fn, pthread_rwlock_tryrdlock)
REAL_FN(rw_fn, pthread_rwlock_trywrlock)
REAL_FN(rw_fn, pthread_rwlock_unlock)
REAL_FN(barrier_init_fn, pthread_barrier_init)
REAL_FN(barrier_fn, pthread_barrier_wait)
REAL_FN(sem_init_fn, sem_init)
REAL_FN(sem_fn, sem_wait)
REAL_FN(sem_fn, sem_trywait)
REAL_FN(sem_fn, sem_post)
REAL_FN(sem_timed_fn, sem_timedwait)
REAL_FN(sem_getvalue_fn, sem_getvalue)

/* ------------------------------------------------------------------ token passing */

static void futex(atomic_int *w, int op, int val) {
    weft_real_syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static void give_token(int tid) {
    atomic_store_explicit(&threads[tid].turn, 1, memory_order_release);
    futex(&threads[tid].turn, FUTEX_WAKE_PRIVATE, 1);
}

static void wait_token(int tid) {
    /* A signal handler running while we wait does not hold the token: raising weft_depth makes
     * its hooks pass through instead of changing the model behind the holder's back. */
    weft_depth++;
    /* exchange consumes the token; a spurious futex return just loops */
    while (atomic_exchange_explicit(&threads[tid].turn, 0, memory_order_acquire) == 0)
        futex(&threads[tid].turn, FUTEX_WAIT_PRIVATE, 0);
    weft_depth--;
}

/* After pick() chose `next` (called with sched_lock released): run it, and wait for our turn
 * unless we are the chosen one or are leaving management. */
static void switch_to(int next, int me, int leaving) {
    if (next == me) return;
    if (next != NONE) give_token(next);
    if (!leaving) wait_token(me);
}

/* ------------------------------------------------------------------ model helpers */

static int is_managed(void) { return my_tid != NONE; }

int weft_sched_managed(void) { return is_managed(); }

static int sched_engaged(void) {
    return my_tid != NONE && weft_engaged() && weft_cfg.sched;
}

/* Open addressing with linear probing; destroyed objects leave a tombstone (key 1, never a
 * valid object address) that lookups skip and insertions reuse. */
#define TOMBSTONE ((uintptr_t)1)
static size_t obj_hash(uintptr_t key) { return (size_t)((key >> 3) * 0x9E3779B97F4A7C15ULL >> 50) % MAX_OBJECTS; }

static sync_obj *obj_find(const void *addr) {
    uintptr_t key = (uintptr_t)addr;
    size_t h = obj_hash(key);
    for (size_t i = 0; i < MAX_OBJECTS; i++) {
        sync_obj *o = &objects[(h + i) % MAX_OBJECTS];
        if (o->key == key) return o;
        if (o->key == 0) return NULL;
    }
    return NULL;
}

static sync_obj *obj_get(const void *addr, int kind) {
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

static int unfinished_count(void) {
    int k = 0;
    for (int t = 0; t < nthreads; t++) if (threads[t].state != T_FINISHED && threads[t].state != T_UNUSED) k++;
    return k;
}

static void wake_all(int state, const void *obj) {
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == state && threads[t].obj == obj) threads[t].state = T_RUNNABLE;
}

/* The i-th (from 0, ascending tid) thread in `state` (and waiting on obj, unless obj is NULL). */
static int nth_in_state(int state, const void *obj, int i) {
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

static void probe_io_waiters(void) {
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == T_BLK_IO && !threads[t].io->net && weft_io_probe(threads[t].io)) {
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
        if (budget_ns != UINT64_MAX && spent >= budget_ns) return NONE;
        uint64_t step = budget_ns == UINT64_MAX ? UINT64_MAX : budget_ns - spent;
        /* ordinary waiters, or more fds than fit here, are only seen by re-probing */
        if ((io_waiters() > 0 || k == NET_WAIT_FDS) && step > slice) step = slice;
        struct timespec ts = {(time_t)(step / 1000000000ULL), (long)(step % 1000000000ULL)};
        weft_real_syscall(SYS_ppoll, pf, k, step == UINT64_MAX ? NULL : &ts, NULL, 8, 0);
        if (slice < 10000000) slice *= 2;
        int t = wake_ready_net_waiter();
        if (t != NONE) return t;
        probe_io_waiters();
        if (runnable_count() > 0) return NONE;
    }
}

/* Nothing can run and no virtual deadline is pending: only the outside world (a child process,
 * the terminal, the network) can make progress. Wait for it in real time, re-probing with a
 * growing pause (raw nanosleep: never the hooked one), and return the number now runnable. */
static int wait_for_outside(void) {
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
static int pick(enum site site) {
    sites_hit |= 1ULL << site;
    /* timed waiters whose virtual deadline has passed are runnable again (extension) */
    uint64_t now = weft_mono_peek();
    for (int t = 0; t < nthreads; t++)
        if (is_timed_blocked(&threads[t]) && threads[t].deadline <= now) time_out(&threads[t]);
    probe_io_waiters();

    /* R is never materialised (no 16 KB array on a possibly small thread stack): count it,
     * then find its i-th member by a second ascending scan. */
    int n = runnable_count(), best = NONE;
    if (n == 0 && net_waiters() > 0) {
        /* idle with net waiters: a ready one runs without a draw; else wait for real, paced
         * against the earliest virtual deadline (docs/shim.md "Network") */
        int woken = wake_ready_net_waiter();
        if (woken == NONE) {
            uint64_t budget = UINT64_MAX;
            for (int t = 0; t < nthreads; t++)
                if (is_timed_blocked(&threads[t]) && (best == NONE || threads[t].deadline < threads[best].deadline))
                    best = t;
            if (best != NONE) budget = weft_net_real_budget(threads[best].deadline > now ? threads[best].deadline - now : 0);
            best = NONE;
            woken = wait_real_for_net(budget);
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
        if (best != NONE) {
            weft_mono_at_least(threads[best].deadline);
            time_out(&threads[best]);
            n++;
        }
    }
    if (n == 0 && io_waiters() > 0) n = wait_for_outside();
    if (n == 0) {
        int k = unfinished_count();
        if (k == 0) return NONE;
        weft_errline("[weft] DEADLOCK: %d thread(s) blocked, none can make progress (at %s)", k,
                     site_names[site]);
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
#define YIELD(site) do { int next_ = pick(site); weft_spin_unlock(&sched_lock); switch_to(next_, my_tid, 0); } while (0)
#define LOCK() weft_spin_lock(&sched_lock)
#define UNLOCK() weft_spin_unlock(&sched_lock)

static void block_on(int state, const void *obj, uint64_t deadline) {
    thread_slot *s = &threads[my_tid];
    s->state = state;
    s->obj = obj;
    s->deadline = deadline;
    s->timed_out = 0;
}

/* Absolute deadline on `clock` -> virtual monotonic ns (0 means "no deadline"; never 0 itself). */
static uint64_t deadline_ns(clockid_t clock, const struct timespec *abs) {
    if (!abs) return 0;
    if (abs->tv_sec < 0) return 1;
    uint64_t t = (uint64_t)abs->tv_sec * 1000000000ULL + (uint64_t)abs->tv_nsec;
    if (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI)
        t = t > weft_cfg.real_base_ns ? t - weft_cfg.real_base_ns : 0;
    return t ? t : 1;
}

/* ------------------------------------------------------------------ threads */

static void finish_current(void) {
    int me = my_tid;
    LOCK();
    threads[me].state = T_FINISHED;
    for (int t = 0; t < nthreads; t++)
        if (threads[t].state == T_BLK_JOIN && threads[t].join_tid == me) threads[t].state = T_RUNNABLE;
    int next = pick(S_FINISHED);
    UNLOCK();
    /* from here on this OS thread is unmanaged: TLS destructors and exit paths pass through */
    my_tid = NONE;
    switch_to(next, me, 1);
}

static void finish_cleanup(void *unused) {
    (void)unused;
    if (my_tid != NONE) finish_current();
}

static void *trampoline(void *p) {
    int me = (int)(intptr_t)p;
    my_tid = me;
    wait_token(me);
    void *ret;
    /* pthread_exit and cancellation unwind through this handler, after the user's own ones */
    pthread_cleanup_push(finish_cleanup, NULL);
    ret = threads[me].fn(threads[me].arg);
    pthread_cleanup_pop(0);
    finish_current();
    return ret;
}

static void child_after_fork(void) {
    /* only the forking thread survives a fork: it keeps its tid, the rest are gone */
    for (int t = 0; t < nthreads; t++)
        if (t != my_tid && threads[t].state != T_UNUSED) threads[t].state = T_FINISHED;
    atomic_store(&sched_lock, 0);
}

WEFT_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    weft_note_thread_start(); /* before the thread exists: draws are locked from now on */
    if (!weft_engaged() || !weft_cfg.sched) return get_real_pthread_create()(th, attr, fn, arg);
    LOCK();
    if (!sched_started && my_tid == NONE) {
        /* the first pthread_create registers its caller (the main thread) as tid 0 */
        sched_started = 1;
        my_tid = 0;
        nthreads = 1;
        threads[0].state = T_RUNNABLE;
        threads[0].pt = pthread_self();
        pthread_atfork(NULL, NULL, child_after_fork);
    }
    if (my_tid == NONE || nthreads >= MAX_THREADS) {
        if (nthreads >= MAX_THREADS)
            weft_errline("[weft] WARNING: more than %d threads; this one runs unmanaged", MAX_THREADS);
        UNLOCK();
        return get_real_pthread_create()(th, attr, fn, arg);
    }
    int tid = nthreads++;
    thread_slot *s = &threads[tid];
    s->state = T_RUNNABLE;
    s->fn = fn;
    s->arg = arg;
    s->deadline = 0;
    atomic_store(&s->turn, 0);
    UNLOCK();
    WEFT_TRACE("pthread_create", "tid %d", tid);
    int rc = get_real_pthread_create()(th, attr, trampoline, (void *)(intptr_t)tid);
    LOCK();
    if (rc != 0) {
        s->state = T_FINISHED; /* never ran; its tid stays reserved */
        UNLOCK();
        return rc;
    }
    s->pt = *th;
    YIELD(S_CREATE);
    return 0;
}

/* Newest first: a finished thread's pthread_t (its stack address) is reused by later threads. */
static int tid_of(pthread_t pt) {
    for (int t = nthreads - 1; t >= 0; t--) if (threads[t].state != T_UNUSED && pthread_equal(threads[t].pt, pt)) return t;
    return NONE;
}

WEFT_EXPORT int pthread_join(pthread_t pt, void **ret) {
    if (sched_engaged()) {
        pthread_testcancel(); /* cancellation point, like the real join */
        LOCK();
        int t = tid_of(pt);
        WEFT_TRACE("pthread_join", "tid %d", t);
        if (t != NONE && t != my_tid && threads[t].state != T_FINISHED) {
            block_on(T_BLK_JOIN, NULL, 0);
            threads[my_tid].join_tid = t;
            YIELD(S_JOIN);
            if (threads[my_tid].cancel_woken) { threads[my_tid].cancel_woken = 0; pthread_testcancel(); }
        } else {
            UNLOCK();
        }
    }
    /* The target is finished in the model; it no longer needs the token, so reaping it while we
     * hold the token cannot deadlock. */
    return get_real_pthread_join()(pt, ret);
}

WEFT_EXPORT void pthread_exit(void *ret) {
    /* other managed threads finish through the trampoline's cleanup handler; main has none */
    if (my_tid == 0 && sched_engaged()) finish_current();
    get_real_pthread_exit()(ret);
}

WEFT_EXPORT int sched_yield(void) {
    if (!sched_engaged()) return get_real_sched_yield()();
    WEFT_TRACE("sched_yield", "%s", "");
    LOCK();
    YIELD(S_YIELD);
    return 0;
}

WEFT_EXPORT int pthread_cancel(pthread_t pt) {
    int rc = get_real_pthread_cancel()(pt);
    if (rc == 0 && sched_engaged()) {
        LOCK();
        int t = tid_of(pt);
        if (t != NONE) {
            int st = threads[t].state;
            /* wake a target blocked in a cancellable modelled wait; it acts on the request at
             * the next point where it holds the token */
            if (st == T_BLK_COND || st == T_BLK_JOIN || st == T_BLK_SEM || st == T_SLEEP || st == T_BLK_IO) {
                threads[t].state = T_RUNNABLE;
                threads[t].cancel_woken = 1;
                threads[t].deadline = 0;
            }
        }
        UNLOCK();
    }
    return rc;
}

/* ------------------------------------------------------------------ mutexes */

static int mutex_type(const pthread_mutex_t *m) { return m->__data.__kind & 3; } /* glibc layout */

/* Takes m for the caller or blocks; returns 0, EDEADLK, or ETIMEDOUT. Called with the lock held,
 * returns with it released. */
static int mutex_acquire(pthread_mutex_t *m, enum site free_site, enum site busy_site, uint64_t deadline) {
    for (;;) {
        sync_obj *o = obj_get(m, O_MUTEX);
        if (o->owner == NONE) {
            o->owner = my_tid;
            o->count = 1;
            YIELD(free_site);
            return 0;
        }
        if (o->owner == my_tid && mutex_type(m) == PTHREAD_MUTEX_RECURSIVE) {
            o->count++;
            YIELD(free_site);
            return 0;
        }
        if (o->owner == my_tid && mutex_type(m) == PTHREAD_MUTEX_ERRORCHECK) { UNLOCK(); return EDEADLK; }
        block_on(T_BLK_MUTEX, m, deadline);
        YIELD(busy_site);
        LOCK();
        if (threads[my_tid].timed_out) { threads[my_tid].timed_out = 0; UNLOCK(); return ETIMEDOUT; }
    }
}

static void mutex_release_locked(pthread_mutex_t *m) {
    sync_obj *o = obj_get(m, O_MUTEX);
    if (o->owner == my_tid && o->count > 1) { o->count--; return; }
    o->owner = NONE;
    o->count = 0;
    wake_all(T_BLK_MUTEX, m);
}

WEFT_EXPORT int pthread_mutex_lock(pthread_mutex_t *m) {
    if (!sched_engaged()) return get_real_pthread_mutex_lock()(m);
    WEFT_TRACE("pthread_mutex_lock", "%p", (void *)m);
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, 0);
}

WEFT_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs) {
    if (!sched_engaged()) return get_real_pthread_mutex_timedlock()(m, abs);
    WEFT_TRACE("pthread_mutex_timedlock", "%p", (void *)m);
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, deadline_ns(CLOCK_REALTIME, abs));
}

WEFT_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t c, const struct timespec *abs) {
    if (!sched_engaged()) return get_real_pthread_mutex_clocklock()(m, c, abs);
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, deadline_ns(c, abs));
}

WEFT_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m) {
    if (!sched_engaged()) return get_real_pthread_mutex_trylock()(m);
    LOCK();
    sync_obj *o = obj_get(m, O_MUTEX);
    int rc = EBUSY;
    if (o->owner == NONE) { o->owner = my_tid; o->count = 1; rc = 0; }
    else if (o->owner == my_tid && mutex_type(m) == PTHREAD_MUTEX_RECURSIVE) { o->count++; rc = 0; }
    WEFT_TRACE("pthread_mutex_trylock", "%p -> %d", (void *)m, rc);
    YIELD(S_MUTEX_TRY);
    return rc;
}

static WEFT_TLS pid_t my_kernel_tid;

/* A mutex the main thread really locked before it became managed (before the first
 * pthread_create) is unlocked for real: the model never saw it taken. */
static int really_locked_by_me(const pthread_mutex_t *m) {
    if (m->__data.__lock == 0) return 0;
    if (!my_kernel_tid) my_kernel_tid = (pid_t)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
    return m->__data.__owner == my_kernel_tid;
}

WEFT_EXPORT int pthread_mutex_unlock(pthread_mutex_t *m) {
    if (!sched_engaged() || really_locked_by_me(m)) return get_real_pthread_mutex_unlock()(m);
    WEFT_TRACE("pthread_mutex_unlock", "%p", (void *)m);
    LOCK();
    sync_obj *o = obj_get(m, O_MUTEX);
    if (o->owner != my_tid && mutex_type(m) != PTHREAD_MUTEX_NORMAL && mutex_type(m) != 3) {
        UNLOCK();
        return EPERM;
    }
    mutex_release_locked(m);
    YIELD(S_MUTEX_UNLOCK);
    return 0;
}

/* ------------------------------------------------------------------ condition variables */

/* glibc keeps the condattr clock in bit 1 of __wrefs (set by pthread_cond_init). */
static clockid_t cond_clock(const pthread_cond_t *c) {
    return (c->__data.__wrefs & 2) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

static int cond_wait_model(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline) {
    /* a cancellation point: a request made before we block is acted on here, mutex held */
    pthread_testcancel();
    LOCK();
    mutex_release_locked(m);
    block_on(T_BLK_COND, c, deadline);
    YIELD(S_COND_WAIT);
    LOCK();
    thread_slot *s = &threads[my_tid];
    int timed_out = s->timed_out;
    s->timed_out = 0;
    s->deadline = 0;
    int rc = mutex_acquire(m, S_COND_REACQ, S_COND_REACQ_C, 0);
    if (s->cancel_woken) { s->cancel_woken = 0; pthread_testcancel(); }
    if (rc) return rc;
    return timed_out ? ETIMEDOUT : 0;
}

WEFT_EXPORT int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    if (!sched_engaged()) return get_real_pthread_cond_wait()(c, m);
    WEFT_TRACE("pthread_cond_wait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, 0);
}

WEFT_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abs) {
    if (!sched_engaged()) return get_real_pthread_cond_timedwait()(c, m, abs);
    WEFT_TRACE("pthread_cond_timedwait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, deadline_ns(cond_clock(c), abs));
}

WEFT_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs) {
    if (!sched_engaged()) return get_real_pthread_cond_clockwait()(c, m, clk, abs);
    WEFT_TRACE("pthread_cond_clockwait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, deadline_ns(clk, abs));
}

WEFT_EXPORT int pthread_cond_signal(pthread_cond_t *c) {
    if (!sched_engaged()) return get_real_pthread_cond_signal()(c);
    WEFT_TRACE("pthread_cond_signal", "%p", (void *)c);
    LOCK();
    int n = 0;
    for (int t = 0; t < nthreads; t++) if (threads[t].state == T_BLK_COND && threads[t].obj == c) n++;
    if (n > 0) { /* this draw precedes the pick (spec §8) */
        int w = nth_in_state(T_BLK_COND, c, (int)(weft_stream_u64(WEFT_S_SCHED) % (uint64_t)n));
        threads[w].state = T_RUNNABLE;
    }
    YIELD(S_COND_SIGNAL);
    return 0;
}

WEFT_EXPORT int pthread_cond_broadcast(pthread_cond_t *c) {
    if (!sched_engaged()) return get_real_pthread_cond_broadcast()(c);
    WEFT_TRACE("pthread_cond_broadcast", "%p", (void *)c);
    LOCK();
    wake_all(T_BLK_COND, c);
    YIELD(S_COND_BCAST);
    return 0;
}

/* ------------------------------------------------------------------ rwlocks */

static int rw_acquire(pthread_rwlock_t *l, int write, int try, uint64_t deadline) {
    LOCK();
    for (;;) {
        sync_obj *o = obj_get(l, O_RWLOCK);
        int ok = write ? (o->owner == NONE && o->count == 0) : (o->owner == NONE);
        if (ok) {
            if (write) o->owner = my_tid; else o->count++;
            YIELD(try ? S_RW_TRY : S_RW_LOCK);
            return 0;
        }
        if (o->owner == my_tid) { UNLOCK(); return EDEADLK; }
        if (try) { YIELD(S_RW_TRY); return EBUSY; }
        block_on(write ? T_BLK_WR : T_BLK_RD, l, deadline);
        YIELD(S_RW_LOCK_C);
        LOCK();
        if (threads[my_tid].timed_out) { threads[my_tid].timed_out = 0; UNLOCK(); return ETIMEDOUT; }
    }
}

WEFT_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_rwlock_rdlock()(l);
    return rw_acquire(l, 0, 0, 0);
}
WEFT_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_rwlock_wrlock()(l);
    return rw_acquire(l, 1, 0, 0);
}
WEFT_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_rwlock_tryrdlock()(l);
    return rw_acquire(l, 0, 1, 0);
}
WEFT_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_rwlock_trywrlock()(l);
    return rw_acquire(l, 1, 1, 0);
}
WEFT_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_rwlock_unlock()(l);
    LOCK();
    sync_obj *o = obj_get(l, O_RWLOCK);
    if (o->owner == my_tid) o->owner = NONE;
    else if (o->count > 0) o->count--;
    wake_all(T_BLK_RD, l);
    wake_all(T_BLK_WR, l);
    YIELD(S_RW_UNLOCK);
    return 0;
}

/* ------------------------------------------------------------------ barriers */

WEFT_EXPORT int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned count) {
    int rc = get_real_pthread_barrier_init()(b, a, count);
    if (rc == 0 && weft_engaged() && weft_cfg.sched) {
        LOCK();
        sync_obj *o = obj_get(b, O_BARRIER);
        o->need = count;
        o->count = 0;
        UNLOCK();
    }
    return rc;
}

WEFT_EXPORT int pthread_barrier_wait(pthread_barrier_t *b) {
    if (!sched_engaged()) return get_real_pthread_barrier_wait()(b);
    LOCK();
    sync_obj *o = obj_get(b, O_BARRIER);
    if (o->need == 0) { UNLOCK(); return get_real_pthread_barrier_wait()(b); } /* not initialised by us */
    if (++o->count >= o->need) {
        o->count = 0;
        wake_all(T_BLK_BARRIER, b);
        YIELD(S_BARRIER);
        return PTHREAD_BARRIER_SERIAL_THREAD; /* the last arrival is the serial thread */
    }
    block_on(T_BLK_BARRIER, b, 0);
    YIELD(S_BARRIER_BLK);
    return 0;
}

/* ------------------------------------------------------------------ semaphores */

static sync_obj *sem_obj(sem_t *s) {
    sync_obj *o = obj_get(s, O_SEM);
    if (o->need == 0) { /* first sight: adopt the real value once */
        int v = 0;
        get_real_sem_getvalue()(s, &v);
        o->count = v > 0 ? (unsigned)v : 0;
        o->need = 1;
    }
    return o;
}

WEFT_EXPORT int sem_init(sem_t *s, int pshared, unsigned v) {
    int rc = get_real_sem_init()(s, pshared, v);
    if (rc == 0 && weft_engaged() && weft_cfg.sched) {
        LOCK();
        sync_obj *o = obj_get(s, O_SEM);
        o->count = v;
        o->need = 1;
        UNLOCK();
    }
    return rc;
}

static int sem_acquire(sem_t *s, int try, uint64_t deadline) {
    if (!try) pthread_testcancel(); /* sem_wait is a cancellation point */
    LOCK();
    for (;;) {
        sync_obj *o = sem_obj(s);
        if (o->count > 0) {
            o->count--;
            YIELD(try ? S_SEM_TRY : S_SEM_WAIT);
            return 0;
        }
        if (try) { YIELD(S_SEM_TRY); errno = EAGAIN; return -1; }
        block_on(T_BLK_SEM, s, deadline);
        YIELD(S_SEM_WAIT_C);
        LOCK();
        thread_slot *me = &threads[my_tid];
        if (me->cancel_woken) { me->cancel_woken = 0; UNLOCK(); pthread_testcancel(); LOCK(); }
        if (me->timed_out) { me->timed_out = 0; UNLOCK(); errno = ETIMEDOUT; return -1; }
    }
}

WEFT_EXPORT int sem_wait(sem_t *s) {
    if (!sched_engaged()) return get_real_sem_wait()(s);
    return sem_acquire(s, 0, 0);
}
WEFT_EXPORT int sem_trywait(sem_t *s) {
    if (!sched_engaged()) return get_real_sem_trywait()(s);
    return sem_acquire(s, 1, 0);
}
WEFT_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abs) {
    if (!sched_engaged()) return get_real_sem_timedwait()(s, abs);
    return sem_acquire(s, 0, deadline_ns(CLOCK_REALTIME, abs));
}
WEFT_EXPORT int sem_post(sem_t *s) {
    if (!sched_engaged()) return get_real_sem_post()(s);
    LOCK();
    sync_obj *o = sem_obj(s);
    o->count++;
    wake_all(T_BLK_SEM, s);
    YIELD(S_SEM_POST);
    return 0;
}
WEFT_EXPORT int sem_getvalue(sem_t *s, int *v) {
    if (!sched_engaged()) return get_real_sem_getvalue()(s, v);
    LOCK();
    *v = (int)sem_obj(s)->count;
    UNLOCK();
    return 0;
}

/* ------------------------------------------------------------------ destruction */

/* Forget the model state of a destroyed object so the table does not fill up. */
static void obj_forget(const void *addr) {
    if (!weft_engaged() || !weft_cfg.sched || !sched_started) return;
    LOCK();
    sync_obj *o = obj_find(addr);
    if (o) o->key = TOMBSTONE;
    UNLOCK();
}

typedef int (*destroy_fn)(void *);
REAL_FN(destroy_fn, pthread_mutex_destroy)
REAL_FN(destroy_fn, pthread_rwlock_destroy)
REAL_FN(destroy_fn, pthread_barrier_destroy)
REAL_FN(destroy_fn, sem_destroy)

WEFT_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m) {
    obj_forget(m);
    return get_real_pthread_mutex_destroy()(m);
}
WEFT_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *l) {
    obj_forget(l);
    return get_real_pthread_rwlock_destroy()(l);
}
WEFT_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b) {
    obj_forget(b);
    return get_real_pthread_barrier_destroy()(b);
}
WEFT_EXPORT int sem_destroy(sem_t *s) {
    obj_forget(s);
    return get_real_sem_destroy()(s);
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

int weft_sched_net_block(weft_io_wait *w, uint64_t deadline) { return io_wait_at(w, deadline, S_NET_BLOCK); }

void weft_sched_net_send(void) {
    LOCK();
    YIELD(S_NET_SEND);
}

/* pthread spinlocks: a busy holder may be descheduled, so spinning must yield. */
typedef int (*spin_fn)(pthread_spinlock_t *);
REAL_FN(spin_fn, pthread_spin_lock)
REAL_FN(spin_fn, pthread_spin_trylock)
WEFT_EXPORT int pthread_spin_lock(pthread_spinlock_t *l) {
    if (!sched_engaged()) return get_real_pthread_spin_lock()(l);
    while (get_real_pthread_spin_trylock()(l) != 0) sched_yield();
    return 0;
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
