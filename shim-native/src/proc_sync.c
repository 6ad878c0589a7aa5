/*
 * proc_sync.c - synchronisation objects shared between processes (issue 18 item 1): mutexes made
 * with pthread_mutexattr_setpshared(PTHREAD_PROCESS_SHARED) (robust and error-checking ones too),
 * condition variables made with pthread_condattr_setpshared, and the timed waits on them and on
 * process-shared semaphores.
 *
 * Another process, with its own scheduler model, may hold or signal these objects, so a per-process
 * model cannot tell when they become available. What the shim does instead:
 *   - a mutex keeps its real state (glibc's lock word, owner, robust list) as the arbiter between
 *     processes; inside a process the thread model still decides among its threads (hook_pthread.c
 *     takes the real lock only when the model says no thread of this process owns it). When the
 *     real lock is busy the holder is another process: the caller waits with a probe (a real
 *     trylock) - a managed thread in the model (T_BLK_IO, probed at every decision), a thread
 *     without the model as a process wait for the run token's turns (weft_pt_block*);
 *   - a condition variable's waiters and wake-ups are counted by the shim in the object's own
 *     memory (below), so a signal from any process wakes a waiter in any other; a waiter is a
 *     process wait until it is signalled or broadcast, then re-acquires its mutex;
 *   - a timed wait in a process without the thread model is a bounded process wait: it returns as
 *     soon as the object is available, and when the tree is idle (nobody can make it available)
 *     the deadline passes in virtual time (the clock moves to it, ETIMEDOUT) without real waiting.
 *
 * Safety: nothing here allocates or calls a hooked function; probes are real trylocks or atomic
 * operations on shared memory, safe to run from any thread of the process (the scheduler probes a
 * managed thread's wait from whichever thread decides).
 */
#include "sched_model.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <linux/futex.h>
#include <sys/syscall.h>

typedef int (*mutex_fn)(pthread_mutex_t *);
REAL_FN(mutex_fn, pthread_mutex_trylock)

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
    if (weft_pt_block_bounded(gate_ready, &g) || g.got) return PW_READY;
    if (!weft_pt_active()) return PW_REAL;
    weft_mono_at_least(deadline); /* the tree is idle: nobody can serve the wait before its deadline */
    WEFT_TRACE("timed_wait", "deadline passed at %lu ns", (unsigned long)deadline);
    return PW_TIMEOUT;
}

/* ------------------------------------------------------------------ mutexes */

/* glibc marks a process-shared mutex with PTHREAD_MUTEX_PSHARED_BIT (128) in __kind. */
int ps_mutex_shared(const pthread_mutex_t *m) { return (m->__data.__kind & 128) != 0; }

struct mutex_probe { pthread_mutex_t *m; int rc; };

/* Ready unless the real lock is busy; a ready probe has taken it (rc 0 or EOWNERDEAD: a robust
 * mutex whose owner died) or failed for good (ENOTRECOVERABLE, EAGAIN: rc says which). */
static int mutex_free(void *p) {
    struct mutex_probe *mp = p;
    int rc = get_real_pthread_mutex_trylock()(mp->m);
    if (rc == EBUSY) return 0;
    mp->rc = rc;
    return 1;
}

static pid_t kernel_tid(void) { return (pid_t)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0); }

/* A managed thread's wait is probed by whichever thread decides, and a real trylock there would
 * make that thread the owner (glibc records the caller's tid, and a robust mutex goes on its robust
 * list): that probe only looks at the lock word (free: no owner tid, or for a plain mutex 0; a
 * robust one whose owner died still reads as free, its OWNER_DIED bit aside), and the waiter then
 * takes the lock itself. */
static int mutex_looks_free(void *m) {
    return (atomic_load((_Atomic int *)(void *)&((pthread_mutex_t *)m)->__data.__lock) & FUTEX_TID_MASK) == 0;
}

/* A managed thread, the model saying no thread of this process owns m (sched_lock held; returns
 * with it held): take the real lock, waiting in the model while another process holds it. */
int ps_mutex_take_managed(pthread_mutex_t *m, enum site busy_site, uint64_t deadline) {
    struct mutex_probe p = {m, 0};
    while (!mutex_free(&p)) {
        UNLOCK();
        WEFT_TRACE("pthread_mutex_lock", "%p held by another process", (void *)m);
        /* woken by pthread_cancel (-1): taking a mutex is not a cancellation point, wait on */
        int r;
        while ((r = sched_probe_wait(mutex_looks_free, m, deadline, busy_site)) < 0) {}
        LOCK();
        if (r == 0) return ETIMEDOUT;
    }
    return p.rc;
}

/*
 * A thread without the model (a single-threaded process): returns the lock's result (0,
 * EOWNERDEAD, ENOTRECOVERABLE, ETIMEDOUT), or PW_REAL when the caller should make its real call
 * (not process-shared, process scheduling off, or a lock this thread already owns - the real call
 * then says EDEADLK or hangs, as it would without the shim).
 */
int ps_mutex_lock_unmanaged(pthread_mutex_t *m, uint64_t deadline) {
    if (!ps_mutex_shared(m) || !weft_engaged() || !weft_pt_active()) return PW_REAL;
    struct mutex_probe p = {m, 0};
    if (mutex_free(&p)) return p.rc;
    if (m->__data.__owner == kernel_tid()) return PW_REAL;
    WEFT_TRACE("pthread_mutex_lock", "%p held by another process: a process wait", (void *)m);
    int r = ps_wait(mutex_free, &p, deadline, S_MUTEX_LOCK_C);
    return r == PW_READY ? p.rc : r == PW_TIMEOUT ? ETIMEDOUT : PW_REAL;
}

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

struct cond_probe { ps_cond *w; uint32_t gen; };

/* Ready when a wake-up came after the wait began. */
static int cond_woken(void *p) {
    struct cond_probe *cp = p;
    return atomic_load(&cp->w->gen) != cp->gen;
}

/* Without any scheduler to wait in (process scheduling off or given up, or re-entered): block for
 * real on the generation word; a deadline is waited for as that much real time, then passed. */
static int cond_block_real(struct cond_probe *p, uint64_t deadline) {
    while (!cond_woken(p)) {
        struct timespec t, *tp = NULL;
        if (deadline) {
            uint64_t now = weft_mono_peek();
            if (now >= deadline) return PW_TIMEOUT;
            t.tv_sec = (time_t)((deadline - now) / 1000000000ULL);
            t.tv_nsec = (long)((deadline - now) % 1000000000ULL);
            tp = &t;
        }
        if (weft_real_syscall(SYS_futex, &p->w->gen, FUTEX_WAIT, p->gen, tp, NULL, 0) < 0 && errno == ETIMEDOUT &&
            !cond_woken(p)) {
            weft_mono_at_least(deadline);
            return PW_TIMEOUT;
        }
    }
    return PW_READY;
}

/*
 * pthread_cond_wait/timedwait/clockwait on a process-shared condvar: count in as a waiter (while
 * holding m, so a signal sent after m is released sees us), release m, wait until woken, then
 * re-acquire m (hook_pthread.c: the model's or the real lock). Returns 0, ETIMEDOUT, EPERM (m not
 * held), or the re-acquisition's error (EOWNERDEAD).
 */
int ps_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline) {
    ps_cond *w = cond_words(c);
    struct cond_probe p = {w, atomic_load(&w->gen)};
    int managed = sched_engaged();
    if (managed) pthread_testcancel(); /* a cancellation point, acted on with the mutex held */
    atomic_fetch_add(&w->waiters, 1);
    int rc = weft_cond_mutex_release(m);
    if (rc) { atomic_fetch_sub(&w->waiters, 1); return rc; }
    WEFT_TRACE("pthread_cond_wait", "process-shared %p", (void *)c);
    int r = ps_wait(cond_woken, &p, deadline, S_COND_WAIT);
    if (r == PW_REAL) r = cond_block_real(&p, deadline);
    if (r != PW_READY && cond_woken(&p)) r = PW_READY; /* a wake-up that came with the timeout */
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
        /* only waiters blocked for real sleep on the word; the rest are probed */
        weft_real_syscall(SYS_futex, &w->gen, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
    }
    WEFT_TRACE(all ? "pthread_cond_broadcast" : "pthread_cond_signal", "process-shared %p, %u waiter(s)", (void *)c, n);
    if (sched_engaged()) {
        LOCK();
        YIELD(all ? S_COND_BCAST : S_COND_SIGNAL);
    }
    weft_pt_yield(all ? "cond_broadcast" : "cond_signal");
}
