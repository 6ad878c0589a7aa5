/*
 * proc_sync.c - synchronisation objects shared between processes (issue 18 item 1): mutexes,
 * rwlocks and spinlocks, condition variables and barriers made process-shared
 * (pthread_*attr_setpshared, pthread_spin_init), and the timed waits on them and on
 * process-shared semaphores.
 *
 * Another process, with its own scheduler model, may hold or signal these objects, so a per-process
 * model cannot tell when they become available. What the shim does instead:
 *   - a lock (mutex, rwlock, spinlock) keeps its real state (glibc's lock word, owner, robust
 *     list, reader count) as the arbiter between processes; inside a process the thread model
 *     still decides among its threads (hook_pthread.c takes the real lock only when the model says
 *     no thread of this process is in the way). When the real lock is busy the holder is another
 *     process: the caller waits until a look at the lock word says it is free, then tries again
 *     (ps_take) - a managed thread in the model (T_BLK_IO, probed at every decision), a thread
 *     without the model as a process wait for the run token's turns (weft_pt_block*);
 *   - a condition variable's and a barrier's waiters and wake-ups are counted by the shim in the
 *     object's own memory (below), so a wake-up in any process releases a waiter in any other; a
 *     waiter is a process wait until the object's generation moves;
 *   - a timed wait in a process without the thread model is a bounded process wait: it returns as
 *     soon as the object is available, and when the tree is idle (nobody can make it available)
 *     the deadline passes in virtual time (the clock moves to it, ETIMEDOUT) without real waiting.
 *
 * Safety: nothing here allocates or calls a hooked function; probes are atomic loads of the
 * object's words, safe to run from any thread of the process (the scheduler probes a managed
 * thread's wait from whichever thread decides); the real trylocks run in the thread that takes the
 * lock (glibc records it as the owner).
 */
#include "sched_model.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <linux/futex.h>
#include <sys/syscall.h>

typedef int (*mutex_fn)(pthread_mutex_t *);
typedef int (*rw_fn)(pthread_rwlock_t *);
typedef int (*spin_fn)(pthread_spinlock_t *);
REAL_FN(mutex_fn, pthread_mutex_trylock)
REAL_FN(rw_fn, pthread_rwlock_tryrdlock)
REAL_FN(rw_fn, pthread_rwlock_trywrlock)
REAL_FN(spin_fn, pthread_spin_trylock)

/* ------------------------------------------------------------------ waiting with a probe */

/* A probe that remembers whether it said "ready" (weft_pt_block returns the same way when
 * process scheduling gives up). */
struct gate { int (*ready)(void *); void *arg; int got; };
static int gate_ready(void *p) {
    struct gate *g = p;
    return g->got = g->ready(g->arg);
}

int ps_wait(int (*ready)(void *), void *arg, uint64_t deadline, enum site site) {
    if (sched_engaged()) return sched_probe_wait(ready, arg, deadline, site);
    if (ready(arg)) return PW_READY;
    if (!weft_engaged() || !weft_pt_active()) return PW_REAL;
    struct gate g = {ready, arg, 0};
    if (!deadline) {
        weft_pt_block(gate_ready, &g);
        return g.got ? PW_READY : PW_REAL; /* not ready: process scheduling was given up */
    }
    if (deadline <= weft_mono_peek()) return PW_TIMEOUT;
    if (weft_pt_block_bounded(gate_ready, &g, deadline) || g.got) return PW_READY;
    if (!weft_pt_active()) return PW_REAL;
    weft_mono_at_least(deadline); /* the tree is idle: nobody can serve the wait before its deadline */
    WEFT_TRACE("timed_wait", "deadline passed at %lu ns", (unsigned long)deadline);
    return PW_TIMEOUT;
}

/* ------------------------------------------------------------------ generations */

/* Condition variables and barriers wake their waiters by moving a generation word in the object's
 * memory; a waiter notes the generation when it starts waiting. */
struct gen_probe { _Atomic uint32_t *gen; uint32_t seen; };

static int gen_moved(void *p) {
    struct gen_probe *g = p;
    return atomic_load(g->gen) != g->seen;
}

/* Without any scheduler to wait in (process scheduling off or given up, or re-entered): block for
 * real on the generation word; a deadline is waited for as that much real time, then passed. */
static int gen_block_real(struct gen_probe *p, uint64_t deadline) {
    while (!gen_moved(p)) {
        struct timespec t, *tp = NULL;
        if (deadline) {
            uint64_t now = weft_mono_peek();
            if (now >= deadline) return PW_TIMEOUT;
            t.tv_sec = (time_t)((deadline - now) / 1000000000ULL);
            t.tv_nsec = (long)((deadline - now) % 1000000000ULL);
            tp = &t;
        }
        if (weft_real_syscall(SYS_futex, p->gen, FUTEX_WAIT, p->seen, tp, NULL, 0) < 0 && errno == ETIMEDOUT &&
            !gen_moved(p)) {
            weft_mono_at_least(deadline);
            return PW_TIMEOUT;
        }
    }
    return PW_READY;
}

/* Waits until the generation moves: PW_READY, PW_TIMEOUT or PW_CANCEL (woken by pthread_cancel). */
static int gen_wait(struct gen_probe *p, uint64_t deadline, enum site site) {
    int r = ps_wait(gen_moved, p, deadline, site);
    if (r == PW_REAL) r = gen_block_real(p, deadline);
    if (r != PW_READY && gen_moved(p)) r = PW_READY; /* a wake-up that came with the timeout */
    return r;
}

/* After moving a generation: only waiters blocked for real sleep on the word; the rest are probed. */
static void gen_wake(_Atomic uint32_t *gen) {
    weft_real_syscall(SYS_futex, gen, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* A yield point of the thread model (when the caller is managed) and of the tree, after making a
 * shared object available to waiters in other threads and processes. */
void ps_yield_both(enum site site) {
    if (sched_engaged()) {
        LOCK();
        YIELD(site);
    }
    weft_pt_yield(site_names[site]);
}

/* ------------------------------------------------------------------ locks */

/*
 * Takes a lock with try(obj) (a real trylock: EBUSY while busy), waiting while it is busy until
 * looks_free(obj) - one atomic load of the lock word saying the try would succeed - then trying
 * again (someone may have been quicker). looks_free never says "free" where the try would fail, so
 * a lost race waits again instead of spinning. Returns the try's result (0, EOWNERDEAD, EAGAIN ...),
 * ETIMEDOUT, or PW_REAL when neither scheduler can wait (the caller makes the real call). A managed
 * caller must not hold sched_lock.
 */
static int ps_take(int (*try)(void *), int (*looks_free)(void *), void *obj, uint64_t deadline, enum site site) {
    for (;;) {
        int rc = try(obj);
        if (rc != EBUSY) return rc;
        WEFT_TRACE(site_names[site], "%p held by another process", obj);
        int r = ps_wait(looks_free, obj, deadline, site);
        if (r == PW_TIMEOUT) return ETIMEDOUT;
        if (r == PW_REAL) return PW_REAL;
        /* ready, or woken by pthread_cancel (-1: taking a lock is not a cancellation point): try again */
    }
}

static pid_t kernel_tid(void) { return (pid_t)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0); }

/* A thread without the model waits for another process only under process scheduling; a lock it
 * holds itself is the real call's business (EDEADLK, a recursive count, or a hang, as without the
 * shim). */
static int unmanaged_waits(int shared, pid_t owner) {
    return shared && weft_engaged() && weft_pt_active() && (owner == 0 || owner != kernel_tid());
}

/* glibc marks a process-shared mutex with PTHREAD_MUTEX_PSHARED_BIT (128) in __kind. */
int ps_mutex_shared(const pthread_mutex_t *m) { return (m->__data.__kind & 128) != 0; }

static int mutex_try(void *m) { return get_real_pthread_mutex_trylock()(m); }

/* Free: no owner tid in the lock word (a plain mutex's word is 0 when free; a robust one whose
 * owner died reads as free, its OWNER_DIED bit aside: the try then says EOWNERDEAD). */
static int mutex_looks_free(void *m) {
    return (atomic_load((_Atomic int *)(void *)&((pthread_mutex_t *)m)->__data.__lock) & FUTEX_TID_MASK) == 0;
}

int ps_mutex_take(pthread_mutex_t *m, enum site busy_site, uint64_t deadline) {
    return ps_take(mutex_try, mutex_looks_free, m, deadline, busy_site);
}

/* A thread without the model (a single-threaded process): the lock's result (0, EOWNERDEAD,
 * ENOTRECOVERABLE, ETIMEDOUT), or PW_REAL: make the real call. */
int ps_mutex_lock_unmanaged(pthread_mutex_t *m, uint64_t deadline) {
    if (!unmanaged_waits(ps_mutex_shared(m), m->__data.__owner)) return PW_REAL;
    return ps_mutex_take(m, S_MUTEX_LOCK_C, deadline);
}

/*
 * glibc's rwlock (2.25+): __shared is 1 for a process-shared one (0 otherwise, also for
 * PTHREAD_RWLOCK_INITIALIZER); __readers holds the reader count from bit 3 and the flags
 * WRPHASE (1) and WRLOCKED (2); __cur_writer the writing thread's tid (its unlock checks it, so
 * only the writer itself may take the write lock for real). The looks-free tests are the try
 * functions' own conditions (a writer: no readers, not write-locked; a reader: not write-locked in
 * a write phase, nor write-locked at all when writers are preferred non-recursively).
 */
int ps_rwlock_shared(const pthread_rwlock_t *l) { return l->__data.__shared != 0; }

#define RW_WRPHASE 1u
#define RW_WRLOCKED 2u
static unsigned rw_word(void *l) {
    return atomic_load((_Atomic unsigned *)(void *)&((pthread_rwlock_t *)l)->__data.__readers);
}
static int rw_read_free(void *l) {
    unsigned r = rw_word(l);
    int writers_first = ((pthread_rwlock_t *)l)->__data.__flags == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
    return !(r & RW_WRLOCKED) || (!(r & RW_WRPHASE) && !writers_first);
}
static int rw_write_free(void *l) {
    unsigned r = rw_word(l);
    return !(r & RW_WRLOCKED) && (r >> 3) == 0;
}
static int rw_try_read(void *l) { return get_real_pthread_rwlock_tryrdlock()(l); }
static int rw_try_write(void *l) { return get_real_pthread_rwlock_trywrlock()(l); }

/* The real rwlock for the calling thread: a try (EBUSY when busy), or a wait for other processes. */
int ps_rwlock_take(pthread_rwlock_t *l, int write, int try, uint64_t deadline) {
    int (*take)(void *) = write ? rw_try_write : rw_try_read;
    if (try) return take(l);
    return ps_take(take, write ? rw_write_free : rw_read_free, l, deadline, S_RW_LOCK_C);
}

int ps_rwlock_lock_unmanaged(pthread_rwlock_t *l, int write, uint64_t deadline) {
    if (!unmanaged_waits(ps_rwlock_shared(l), l->__data.__cur_writer)) return PW_REAL;
    return ps_rwlock_take(l, write, 0, deadline);
}

/* glibc's spinlock (x86-64) is one int, 1 when free (pthread_spin_init and _unlock store 1, the
 * lock decrements it, the trylock swaps exactly 1 for 0: measured), and says nothing about being
 * process-shared. */
static int spin_try(void *l) { return get_real_pthread_spin_trylock()(l); }
static int spin_free(void *l) { return atomic_load((_Atomic int *)l) == 1; }

int ps_spin_lock(pthread_spinlock_t *l) { return ps_take(spin_try, spin_free, (void *)l, 0, S_SPIN_LOCK_C); }

/* ------------------------------------------------------------------ condition variables */

/*
 * A process-shared condition variable's state, kept in the object's own memory: two counters in
 * the first 8 bytes, where glibc keeps its waiter sequence (__wseq). Why that is safe:
 * pthread_cond_init (glibc's, unchanged) zeroes the whole object and records "process-shared" and
 * the clock in __wrefs; from then on, while the shim is seeded with the scheduler on (the same for
 * every process of the run: the WEFT_* variables reach the whole tree), every wait, timed wait,
 * signal and broadcast on a process-shared condvar is the shim's, so glibc never reads these words
 * - and pthread_cond_destroy (glibc's) looks only at __wrefs, whose waiter count stays 0 because
 * glibc's own wait never runs. The memory is the object's, so every process that maps it sees the
 * same counters; they change by atomic operations only (processes running freely may touch them at
 * once). An image without the shim sharing the object would not see them (a documented gap).
 *
 * A wake-up is a new generation: every waiter that counted in before it is woken. A signal wakes
 * them all too - POSIX lets pthread_cond_signal wake more than one (waiters re-check their
 * predicate), and a counted "wake one" would let a waiter that came after the signal take it
 * (the one it was meant for then sleeps on) or lose it to a waiter that timed out.
 */
typedef struct ps_cond {
    _Atomic uint32_t waiters;   /* threads waiting (any process): a wake-up without any is a no-op */
    _Atomic uint32_t gen;       /* wake-up generation; also the futex word of waiters blocked for real */
} ps_cond;
_Static_assert(offsetof(pthread_cond_t, __data.__wrefs) >= sizeof(ps_cond), "the counters stay clear of __wrefs");

static ps_cond *cond_words(pthread_cond_t *c) { return (ps_cond *)(void *)c; }

/* glibc: bit 0 of __wrefs is "process-shared" (bit 1 the clock). The shim owns the object's
 * waits whenever it is seeded with the scheduler on, even re-entered (see above). */
int ps_cond_shared(const pthread_cond_t *c) {
    return (c->__data.__wrefs & 1) && weft_init() && weft_cfg.sched;
}

/*
 * pthread_cond_wait/timedwait/clockwait on a process-shared condvar: count in as a waiter (while
 * holding m, so a signal sent after m is released sees us), release m, wait until woken, then
 * re-acquire m (hook_pthread.c: the model's or the real lock). Returns 0, ETIMEDOUT, EPERM (m not
 * held), or the re-acquisition's error (EOWNERDEAD).
 */
int ps_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline) {
    ps_cond *w = cond_words(c);
    struct gen_probe p = {&w->gen, atomic_load(&w->gen)};
    int managed = sched_engaged();
    if (managed) pthread_testcancel(); /* a cancellation point, acted on with the mutex held */
    atomic_fetch_add(&w->waiters, 1);
    int rc = weft_cond_mutex_release(m);
    if (rc) { atomic_fetch_sub(&w->waiters, 1); return rc; }
    WEFT_TRACE("pthread_cond_wait", "process-shared %p", (void *)c);
    int r = gen_wait(&p, deadline, S_COND_WAIT);
    atomic_fetch_sub(&w->waiters, 1);
    rc = weft_cond_mutex_reacquire(m);
    if (managed && r == PW_CANCEL) pthread_testcancel(); /* woken by pthread_cancel: act now */
    if (rc) return rc;
    return r == PW_TIMEOUT ? ETIMEDOUT : 0;
}

/* pthread_cond_signal (all = 0) and pthread_cond_broadcast (all = 1) on a process-shared condvar
 * (both wake every waiter, see above); then a yield point, of the thread model and of the tree. */
void ps_cond_wake(pthread_cond_t *c, int all) {
    ps_cond *w = cond_words(c);
    uint32_t n = atomic_load(&w->waiters);
    if (n > 0) {
        atomic_fetch_add(&w->gen, 1);
        gen_wake(&w->gen);
    }
    WEFT_TRACE(all ? "pthread_cond_broadcast" : "pthread_cond_signal", "process-shared %p, %u waiter(s)", (void *)c, n);
    ps_yield_both(all ? S_COND_BCAST : S_COND_SIGNAL);
}

/* ------------------------------------------------------------------ barriers */

/*
 * A process-shared barrier's state, kept in the object's own memory like a condvar's: one 64-bit
 * word, arrivals in the low half and the round (generation) in the high half, in bytes 24..31 of
 * pthread_barrier_t. Why that is safe: glibc's barrier (2.23+) is { in, current_round, count,
 * shared, out } - 20 bytes of the 32; pthread_barrier_init (glibc's, then ours zeroes the word)
 * writes those five only, and pthread_barrier_destroy reads in, out and count only (in and out
 * stay 0 because glibc's wait never runs on the object: with the shim seeded and the scheduler on,
 * every wait on a process-shared barrier is the shim's, in every process of the run). One word
 * changed by compare-and-swap makes "count me in" and "start the next round" one atomic step, so a
 * process that arrives for the next round can never be mistaken for one of this round. The round
 * half is the futex word of waiters blocked for real (x86-64 is little-endian: bytes 28..31).
 */
struct glibc_barrier { unsigned in, current_round, count; int shared; unsigned out; };
_Static_assert(sizeof(struct glibc_barrier) <= 24 && sizeof(pthread_barrier_t) >= 32, "the state word stays clear of glibc's");

static _Atomic uint64_t *barrier_state(pthread_barrier_t *b) { return (_Atomic uint64_t *)(void *)((char *)b + 24); }
static _Atomic uint32_t *barrier_round(pthread_barrier_t *b) { return (_Atomic uint32_t *)(void *)((char *)b + 28); }

/* glibc: `shared` is FUTEX_SHARED (128) for a process-shared barrier, 0 otherwise. */
int ps_barrier_shared(const pthread_barrier_t *b) {
    return ((const struct glibc_barrier *)(const void *)b)->shared == 128 && weft_init() && weft_cfg.sched;
}

void ps_barrier_init(pthread_barrier_t *b) { atomic_store(barrier_state(b), 0); }

/* pthread_barrier_wait: the arrival that completes the count starts the next round (and is the
 * serial thread); the others wait until the round moves - a process wait, or a model wait. */
int ps_barrier_wait(pthread_barrier_t *b) {
    unsigned need = ((struct glibc_barrier *)(void *)b)->count;
    _Atomic uint64_t *st = barrier_state(b);
    uint64_t old = atomic_load(st), next;
    do {
        next = (uint32_t)old + 1 >= need ? ((old >> 32) + 1) << 32 : old + 1;
    } while (!atomic_compare_exchange_weak(st, &old, next));
    if ((uint32_t)next == 0) {
        gen_wake(barrier_round(b));
        WEFT_TRACE("pthread_barrier_wait", "process-shared %p: round %u complete", (void *)b, (unsigned)(old >> 32));
        ps_yield_both(S_BARRIER);
        return PTHREAD_BARRIER_SERIAL_THREAD;
    }
    WEFT_TRACE("pthread_barrier_wait", "process-shared %p: %u of %u", (void *)b, (unsigned)(uint32_t)next, need);
    struct gen_probe p = {barrier_round(b), (uint32_t)(old >> 32)};
    while (gen_wait(&p, 0, S_BARRIER_BLK) == PW_CANCEL) {} /* not a cancellation point: wait on */
    return 0;
}
