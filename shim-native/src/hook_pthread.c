/*
 * hook_pthread.c - the pthread hooks that drive the scheduler model (sched.c, sched_model.h):
 * thread creation, exit, join, cancellation and sched_yield; mutexes, condition variables,
 * rwlocks, barriers, semaphores and spinlocks. Managed threads never call the real
 * mutex/cond/rwlock/barrier/semaphore operations on private objects: ownership lives in the
 * model's object table. Process-shared ones are also held or counted by other processes, which
 * have their own models: proc_sync.c decides those between processes.
 *
 * Extensions beyond the reference (RNG use unchanged for programs that do not use them):
 *   - timed waits (cond_timedwait/clockwait, mutex_timedlock, sem_timedwait) carry virtual-time
 *     deadlines;
 *   - rwlocks (timed ones too), barriers and semaphores are modelled;
 *   - process-shared objects wait for other processes as scheduler states (proc_sync.c);
 *   - pthread_cancel wakes a target blocked in a cancellable modelled wait, which then acts on
 *     the cancellation at a point where it holds the token, so the token cannot be wedged;
 *   - recursive and error-checking mutexes behave as their type says.
 */
#include "sched_model.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

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
typedef int (*rw_clock_fn)(pthread_rwlock_t *, clockid_t, const struct timespec *);
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
REAL_FN(rw_timed_fn, pthread_rwlock_timedrdlock)
REAL_FN(rw_timed_fn, pthread_rwlock_timedwrlock)
REAL_FN(rw_clock_fn, pthread_rwlock_clockrdlock)
REAL_FN(rw_clock_fn, pthread_rwlock_clockwrlock)
REAL_FN(barrier_init_fn, pthread_barrier_init)
REAL_FN(barrier_fn, pthread_barrier_wait)
REAL_FN(sem_init_fn, sem_init)
REAL_FN(sem_fn, sem_wait)
REAL_FN(sem_fn, sem_trywait)
REAL_FN(sem_fn, sem_post)
REAL_FN(sem_timed_fn, sem_timedwait)
typedef int (*sem_clock_fn)(sem_t *, clockid_t, const struct timespec *);
REAL_FN(sem_clock_fn, sem_clockwait)
REAL_FN(sem_getvalue_fn, sem_getvalue)

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
    weft_backstop_thread(); /* syscall user dispatch is per thread and not inherited */
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
    atomic_store(&weft_sched_forking, 0);
    for (int t = 0; t < nthreads; t++)
        if (t != my_tid && threads[t].state != T_UNUSED) threads[t].state = T_FINISHED;
    sched_release_finished_owners();
    atomic_store(&sched_lock, 0);
}

/*
 * pthread_atfork child handlers run in registration order, and ours is registered at the first
 * pthread_create, after those of libraries initialised earlier: jemalloc's child handler takes
 * its mutexes (hooked) while the model still has the parent's threads, and a redis BGSAVE child
 * aborted as a deadlock. So the fork hook (proc_tree.c) sets weft_sched_forking around the real
 * fork, with the parent's pid: a model call (LOCK) that sees it set in another process is the
 * child's, which fixes its model first. The parent's own prepare handlers see their own pid.
 */
atomic_int weft_sched_forking;
static pid_t forking_parent;

void weft_sched_fork_begin(void) {
    if (!sched_started) return;
    forking_parent = (pid_t)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    atomic_store(&weft_sched_forking, 1);
}

void weft_sched_fork_end(void) { atomic_store(&weft_sched_forking, 0); }

void weft_sched_fork_child_early(void) {
    if ((pid_t)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0) != forking_parent) child_after_fork();
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
    /* under process scheduling the thread starts with signals blocked: until its first turn a
     * handler run in it would act as the token holder (sched.c's switch_to says why) */
    s->start_masked = weft_pt_active();
    if (s->start_masked) weft_pt_mask_signals(&s->start_mask);
    UNLOCK();
    WEFT_TRACE("pthread_create", "tid %d", tid);
    int rc = get_real_pthread_create()(th, attr, trampoline, (void *)(intptr_t)tid);
    if (s->start_masked) weft_real_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &s->start_mask, NULL, 8, 0, 0);
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
            int rc = 0;
            if (ps_mutex_shared(m)) {
                /* the real lock decides between processes (proc_sync.c); no thread of this process
                 * holds it, so a busy one is held by another process. Waiting for it is a yield
                 * point, so sched_lock is released meanwhile (the model still says NONE: another
                 * thread of ours may wait for the real lock too; only one gets it) */
                UNLOCK();
                rc = ps_mutex_take(m, busy_site, deadline);
                LOCK();
                if (rc != 0 && rc != EOWNERDEAD) { UNLOCK(); return rc; }
                o = obj_get(m, O_MUTEX);
            }
            o->owner = my_tid;
            o->count = 1;
            YIELD(free_site);
            return rc;
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
    /* glibc's unlock calls nothing hooked (at most a futex wake): safe under sched_lock */
    if (ps_mutex_shared(m)) get_real_pthread_mutex_unlock()(m);
}

/* The unmanaged lock calls: a process-shared mutex held by another process is a process wait
 * (proc_sync.c); anything else is the real call. */
#define UNMANAGED_LOCK(m, deadline, real_call) \
    do { int rc_ = ps_mutex_lock_unmanaged(m, deadline); return rc_ == PW_REAL ? (real_call) : rc_; } while (0)

WEFT_EXPORT int pthread_mutex_lock(pthread_mutex_t *m) {
    if (!sched_engaged()) UNMANAGED_LOCK(m, 0, get_real_pthread_mutex_lock()(m));
    WEFT_TRACE("pthread_mutex_lock", "%p", (void *)m);
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, 0);
}

WEFT_EXPORT int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abs) {
    if (!sched_engaged()) UNMANAGED_LOCK(m, deadline_ns(CLOCK_REALTIME, abs), get_real_pthread_mutex_timedlock()(m, abs));
    WEFT_TRACE("pthread_mutex_timedlock", "%p", (void *)m);
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, deadline_ns(CLOCK_REALTIME, abs));
}

WEFT_EXPORT int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t c, const struct timespec *abs) {
    if (!sched_engaged()) UNMANAGED_LOCK(m, deadline_ns(c, abs), get_real_pthread_mutex_clocklock()(m, c, abs));
    LOCK();
    return mutex_acquire(m, S_MUTEX_LOCK, S_MUTEX_LOCK_C, deadline_ns(c, abs));
}

WEFT_EXPORT int pthread_mutex_trylock(pthread_mutex_t *m) {
    if (!sched_engaged()) return get_real_pthread_mutex_trylock()(m);
    LOCK();
    sync_obj *o = obj_get(m, O_MUTEX);
    int rc = EBUSY;
    if (o->owner == NONE) {
        /* process-shared: the real lock too (another process may hold it) */
        rc = ps_mutex_shared(m) ? get_real_pthread_mutex_trylock()(m) : 0;
        if (rc == 0 || rc == EOWNERDEAD) { o->owner = my_tid; o->count = 1; }
    } else if (o->owner == my_tid && mutex_type(m) == PTHREAD_MUTEX_RECURSIVE) { o->count++; rc = 0; }
    WEFT_TRACE("pthread_mutex_trylock", "%p -> %d", (void *)m, rc);
    YIELD(S_MUTEX_TRY);
    return rc;
}

/* After an unmanaged thread released a process-shared object (unlock, post): another process may
 * be waiting for it, so this is a process yield point. */
static int released(int rc, int shared, enum site site) {
    if (rc == 0 && shared && weft_engaged()) weft_pt_yield(site_names[site]);
    return rc;
}

/* The same for a managed thread (sched_lock held): the model's yield point, then the tree's. */
static void release_yield(int shared, enum site site) {
    YIELD(site);
    if (shared) weft_pt_yield(site_names[site]);
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
    if (!sched_engaged()) return released(get_real_pthread_mutex_unlock()(m), ps_mutex_shared(m), S_MUTEX_UNLOCK);
    /* a real lock taken before the thread was managed is released for real (node locks a mutex,
     * starts its workers, waits on a condvar with it, then unlocks and destroys it); a
     * process-shared mutex the model gave this thread is really locked by it too: the model decides */
    int shared = ps_mutex_shared(m);
    if (!shared && really_locked_by_me(m)) return get_real_pthread_mutex_unlock()(m);
    WEFT_TRACE("pthread_mutex_unlock", "%p", (void *)m);
    LOCK();
    sync_obj *o = obj_get(m, O_MUTEX);
    if (shared && o->owner != my_tid && really_locked_by_me(m)) { UNLOCK(); return get_real_pthread_mutex_unlock()(m); }
    if (o->owner != my_tid && mutex_type(m) != PTHREAD_MUTEX_NORMAL && mutex_type(m) != 3) {
        UNLOCK();
        return EPERM;
    }
    mutex_release_locked(m);
    release_yield(shared, S_MUTEX_UNLOCK);
    return 0;
}

/* The mutex half of a process-shared condition variable's wait (proc_sync.c). */
int weft_cond_mutex_release(pthread_mutex_t *m) {
    if (!sched_engaged()) return get_real_pthread_mutex_unlock()(m);
    LOCK();
    if (obj_get(m, O_MUTEX)->owner != my_tid) { UNLOCK(); return EPERM; }
    mutex_release_locked(m);
    UNLOCK(); /* the wait that follows is the yield point */
    return 0;
}

int weft_cond_mutex_reacquire(pthread_mutex_t *m) {
    if (!sched_engaged()) UNMANAGED_LOCK(m, 0, get_real_pthread_mutex_lock()(m));
    LOCK();
    return mutex_acquire(m, S_COND_REACQ, S_COND_REACQ_C, 0);
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
    if (ps_cond_shared(c)) return ps_cond_wait(c, m, 0);
    if (!sched_engaged()) return get_real_pthread_cond_wait()(c, m);
    WEFT_TRACE("pthread_cond_wait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, 0);
}

WEFT_EXPORT int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abs) {
    if (ps_cond_shared(c)) return ps_cond_wait(c, m, deadline_ns(cond_clock(c), abs));
    if (!sched_engaged()) return get_real_pthread_cond_timedwait()(c, m, abs);
    WEFT_TRACE("pthread_cond_timedwait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, deadline_ns(cond_clock(c), abs));
}

WEFT_EXPORT int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs) {
    if (ps_cond_shared(c)) return ps_cond_wait(c, m, deadline_ns(clk, abs));
    if (!sched_engaged()) return get_real_pthread_cond_clockwait()(c, m, clk, abs);
    WEFT_TRACE("pthread_cond_clockwait", "%p %p", (void *)c, (void *)m);
    return cond_wait_model(c, m, deadline_ns(clk, abs));
}

WEFT_EXPORT int pthread_cond_signal(pthread_cond_t *c) {
    if (ps_cond_shared(c)) { ps_cond_wake(c, 0); return 0; }
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
    if (ps_cond_shared(c)) { ps_cond_wake(c, 1); return 0; }
    if (!sched_engaged()) return get_real_pthread_cond_broadcast()(c);
    WEFT_TRACE("pthread_cond_broadcast", "%p", (void *)c);
    LOCK();
    wake_all(T_BLK_COND, c);
    YIELD(S_COND_BCAST);
    return 0;
}

/* ------------------------------------------------------------------ rwlocks */

/*
 * A managed thread's rwlock call. For a process-shared rwlock the model still decides among this
 * process's threads, and the real lock between processes: a thread the model lets in takes the
 * real lock too (so every hold in the model is a real hold, and a real hold by this process always
 * shows in the model), waiting while another process is in the way (proc_sync.c). While it waits
 * the model does not count it: another thread of ours may try for the real lock as well, and the
 * real lock lets in only what the model would (a writer alone).
 */
static int rw_acquire(pthread_rwlock_t *l, int write, int try, uint64_t deadline) {
    int shared = ps_rwlock_shared(l);
    LOCK();
    for (;;) {
        sync_obj *o = obj_get(l, O_RWLOCK);
        int ok = write ? (o->owner == NONE && o->count == 0) : (o->owner == NONE);
        if (ok && shared) {
            UNLOCK(); /* a wait for another process is a yield point */
            int rc = ps_rwlock_take(l, write, try, deadline);
            LOCK();
            if (rc == EBUSY) { YIELD(S_RW_TRY); return EBUSY; }
            if (rc != 0) { UNLOCK(); return rc; }
            o = obj_get(l, O_RWLOCK);
        }
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

/* The acquiring calls: the model for a managed thread; a process-shared rwlock held by another
 * process is a process wait for an unmanaged one (proc_sync.c); anything else is the real call. */
#define RW_LOCK(l, write, try, deadline, real_call) \
    do { \
        if (sched_engaged()) return rw_acquire(l, write, try, deadline); \
        int rc_ = try ? PW_REAL : ps_rwlock_lock_unmanaged(l, write, deadline); \
        return rc_ == PW_REAL ? (real_call) : rc_; \
    } while (0)

WEFT_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *l) { RW_LOCK(l, 0, 0, 0, get_real_pthread_rwlock_rdlock()(l)); }
WEFT_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *l) { RW_LOCK(l, 1, 0, 0, get_real_pthread_rwlock_wrlock()(l)); }
WEFT_EXPORT int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) { RW_LOCK(l, 0, 1, 0, get_real_pthread_rwlock_tryrdlock()(l)); }
WEFT_EXPORT int pthread_rwlock_trywrlock(pthread_rwlock_t *l) { RW_LOCK(l, 1, 1, 0, get_real_pthread_rwlock_trywrlock()(l)); }
WEFT_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abs) {
    RW_LOCK(l, 0, 0, deadline_ns(CLOCK_REALTIME, abs), get_real_pthread_rwlock_timedrdlock()(l, abs));
}
WEFT_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abs) {
    RW_LOCK(l, 1, 0, deadline_ns(CLOCK_REALTIME, abs), get_real_pthread_rwlock_timedwrlock()(l, abs));
}
WEFT_EXPORT int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t c, const struct timespec *abs) {
    RW_LOCK(l, 0, 0, deadline_ns(c, abs), get_real_pthread_rwlock_clockrdlock()(l, c, abs));
}
WEFT_EXPORT int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t c, const struct timespec *abs) {
    RW_LOCK(l, 1, 0, deadline_ns(c, abs), get_real_pthread_rwlock_clockwrlock()(l, c, abs));
}

WEFT_EXPORT int pthread_rwlock_unlock(pthread_rwlock_t *l) {
    int shared = ps_rwlock_shared(l);
    if (!sched_engaged()) return released(get_real_pthread_rwlock_unlock()(l), shared, S_RW_UNLOCK);
    LOCK();
    sync_obj *o = obj_get(l, O_RWLOCK);
    if (o->owner == my_tid) o->owner = NONE;
    else if (o->count > 0) o->count--;
    wake_all(T_BLK_RD, l);
    wake_all(T_BLK_WR, l);
    /* process-shared: this thread holds the real lock too (rw_acquire); glibc's unlock calls
     * nothing hooked (a futex wake at most): safe under sched_lock */
    int rc = shared ? get_real_pthread_rwlock_unlock()(l) : 0;
    release_yield(shared, S_RW_UNLOCK);
    return rc;
}

/* ------------------------------------------------------------------ barriers */

/* What an init call tells the model: the object's count and need (barrier size, "sem seen"). */
static void model_init(const void *obj, int kind, unsigned count, unsigned need) {
    LOCK();
    sync_obj *o = obj_get(obj, kind);
    o->count = count;
    o->need = need;
    UNLOCK();
}

/* A process-shared barrier is the shim's in every process (proc_sync.c); the others are modelled
 * per process. */
WEFT_EXPORT int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned count) {
    int rc = get_real_pthread_barrier_init()(b, a, count);
    if (rc == 0 && ps_barrier_shared(b)) ps_barrier_init(b);
    else if (rc == 0 && weft_engaged() && weft_cfg.sched) model_init(b, O_BARRIER, 0, count);
    return rc;
}

WEFT_EXPORT int pthread_barrier_wait(pthread_barrier_t *b) {
    if (ps_barrier_shared(b)) return ps_barrier_wait(b);
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

/* The model takes a semaphore's value from sem_init only while it runs (a managed thread): one made
 * before, and used with the real calls until the process starts its first thread, is adopted at
 * its first modelled use with the value it really has then (Python's Queue.put acquires a lock,
 * starts its feeder thread, then checks the lock with a non-blocking acquire: a value recorded at
 * sem_init was stale, and the check succeeded on a held lock). */
WEFT_EXPORT int sem_init(sem_t *s, int pshared, unsigned v) {
    int rc = get_real_sem_init()(s, pshared, v);
    if (rc == 0 && sched_engaged()) model_init(s, O_SEM, v, 1);
    return rc;
}

/*
 * Process-shared semaphores (sem_init with pshared, sem_open: Python's multiprocessing locks) are
 * shared with other processes, which have their own model: modelling them per process made a post
 * by another process invisible (a false DEADLOCK). They keep their real state; a wait that cannot
 * take one at once is an fd-like wait (T_BLK_IO) whose probe is a real sem_trywait, so the other
 * threads run meanwhile, and a process whose threads all wait on the outside waits for the run
 * token's turns (process scheduling) or in real time. glibc's sem_t (x86-64) is
 * { uint64_t data; int private; int pad }, private being FUTEX_SHARED (128) for a semaphore made
 * with pshared or by sem_open, 0 otherwise (measured with glibc 2.36+).
 */
static int sem_is_shared(const sem_t *s) {
    return ((const int *)(const void *)s)[2] == 128;
}

static int shared_sem_wait(sem_t *s, int try, uint64_t deadline) {
    if (get_real_sem_trywait()(s) == 0) { LOCK(); YIELD(try ? S_SEM_TRY : S_SEM_WAIT); return 0; }
    if (try) { LOCK(); YIELD(S_SEM_TRY); errno = EAGAIN; return -1; }
    weft_io_wait w = {.kind = WEFT_IO_SEM, .fds = s};
    WEFT_TRACE("sem_wait", "process-shared %p", (void *)s);
    if (!weft_sched_io_wait(&w, deadline)) { errno = ETIMEDOUT; return -1; }
    if (w.result < 0) { errno = w.err; return -1; } /* cancelled */
    return 0;
}

static int sem_taken(void *s) { return get_real_sem_trywait()(s) == 0; }

/* An unmanaged thread under process scheduling: a process wait (the poster may need the token),
 * bounded when there is a deadline (proc_sync.c's ps_wait). Returns sem_wait's result (0, or -1
 * with errno ETIMEDOUT), or PW_REAL: make the real call (scheduling is off or gave up). */
static int shared_sem_unmanaged(sem_t *s, uint64_t deadline) {
    if (!sem_is_shared(s) || !weft_engaged() || !weft_pt_active()) return PW_REAL;
    int r = ps_wait(sem_taken, s, deadline, S_SEM_WAIT_C);
    if (r == PW_TIMEOUT) { errno = ETIMEDOUT; return -1; }
    return r == PW_READY ? 0 : PW_REAL;
}
#define UNMANAGED_SEM_WAIT(s, deadline, real_call) \
    do { int r_ = shared_sem_unmanaged(s, deadline); return r_ == PW_REAL ? (real_call) : r_; } while (0)

/* A semaphore wait of a process without the thread model while a virtual timer is armed: only the
 * timer (its handler, or a SIGEV_THREAD thread it starts) can still post a private semaphore, so
 * the wait is cut at each expiry before the deadline: the clock moves there (after the rest of the
 * tree ran, under process scheduling) and the timer fires. A handler without SA_RESTART ends the
 * wait with EINTR; with it the wait goes on (the kernel restarts the futex wait). Returns PW_REAL when the usual path takes over: no timer left
 * before the deadline, or the expiry started a thread (the process is in the thread model now). */
static int sem_timer_cut(sem_t *s, uint64_t deadline) {
    for (;;) {
        uint64_t t = weft_timer_next();
        if (!t || (deadline && t >= deadline) || sched_engaged() || !weft_engaged() || weft_depth) return PW_REAL;
        if (sem_taken(s)) return 0;
        int r = t > weft_mono_peek() ? ps_wait(sem_taken, s, t, S_SEM_WAIT_C) : PW_TIMEOUT;
        if (r == PW_READY) return 0;
        weft_mono_at_least(t);
        if (weft_timer_fire_due() & 2) { errno = EINTR; return -1; }
    }
}

static int sem_acquire(sem_t *s, int try, uint64_t deadline) {
    if (!try) pthread_testcancel(); /* sem_wait is a cancellation point */
    if (sem_is_shared(s)) return shared_sem_wait(s, try, deadline);
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
    if (!sched_engaged()) {
        int r = sem_timer_cut(s, 0);
        if (r != PW_REAL) return r;
    }
    if (!sched_engaged()) UNMANAGED_SEM_WAIT(s, 0, get_real_sem_wait()(s));
    return sem_acquire(s, 0, 0);
}
WEFT_EXPORT int sem_trywait(sem_t *s) {
    if (!sched_engaged()) return get_real_sem_trywait()(s);
    return sem_acquire(s, 1, 0);
}
WEFT_EXPORT int sem_timedwait(sem_t *s, const struct timespec *abs) {
    if (!sched_engaged()) UNMANAGED_SEM_WAIT(s, deadline_ns(CLOCK_REALTIME, abs), get_real_sem_timedwait()(s, abs));
    return sem_acquire(s, 0, deadline_ns(CLOCK_REALTIME, abs));
}
WEFT_EXPORT int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *abs) {
    if (!sched_engaged()) UNMANAGED_SEM_WAIT(s, deadline_ns(clk, abs), get_real_sem_clockwait()(s, clk, abs));
    return sem_acquire(s, 0, deadline_ns(clk, abs));
}
WEFT_EXPORT int sem_post(sem_t *s) {
    if (!sched_engaged()) return released(get_real_sem_post()(s), sem_is_shared(s), S_SEM_POST);
    if (sem_is_shared(s)) {
        int rc = get_real_sem_post()(s);
        LOCK();
        release_yield(1, S_SEM_POST);
        return rc;
    }
    LOCK();
    sync_obj *o = sem_obj(s);
    o->count++;
    wake_all(T_BLK_SEM, s);
    YIELD(S_SEM_POST);
    return 0;
}
WEFT_EXPORT int sem_getvalue(sem_t *s, int *v) {
    if (!sched_engaged() || sem_is_shared(s)) return get_real_sem_getvalue()(s, v);
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

static int forget_and_destroy(void *obj, destroy_fn real) {
    obj_forget(obj);
    return real(obj);
}
WEFT_EXPORT int pthread_mutex_destroy(pthread_mutex_t *m) { return forget_and_destroy(m, get_real_pthread_mutex_destroy()); }

/* (Re-)initialising a mutex unlocks it: jemalloc's fork-child handler re-initialises the mutexes its
 * prefork handler locked, and the model must not keep them owned (a redis BGSAVE child deadlocked). */
typedef int (*mutex_init_fn)(pthread_mutex_t *, const pthread_mutexattr_t *);
REAL_FN(mutex_init_fn, pthread_mutex_init)
WEFT_EXPORT int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
    obj_forget(m);
    return get_real_pthread_mutex_init()(m, a);
}
WEFT_EXPORT int pthread_rwlock_destroy(pthread_rwlock_t *l) { return forget_and_destroy(l, get_real_pthread_rwlock_destroy()); }
WEFT_EXPORT int pthread_barrier_destroy(pthread_barrier_t *b) { return forget_and_destroy(b, get_real_pthread_barrier_destroy()); }
WEFT_EXPORT int sem_destroy(sem_t *s) { return forget_and_destroy(s, get_real_sem_destroy()); }
/*
 * pthread spinlocks: a busy holder may be descheduled, so spinning must yield. Under process
 * scheduling the holder may be another process (a spinlock does not say whether it is shared),
 * which runs only when this one gives the run token away: a contended spin is then a wait for the
 * lock word to read free (proc_sync.c), in the model or as a process wait. Otherwise a managed
 * thread yields its thread token between tries, as before.
 */
typedef int (*spin_fn)(pthread_spinlock_t *);
REAL_FN(spin_fn, pthread_spin_lock)
REAL_FN(spin_fn, pthread_spin_trylock)
WEFT_EXPORT int pthread_spin_lock(pthread_spinlock_t *l) {
    if (weft_engaged() && weft_pt_active()) {
        int rc = ps_spin_lock(l);
        if (rc != PW_REAL) return rc;
    } else if (sched_engaged()) {
        while (get_real_pthread_spin_trylock()(l) != 0) sched_yield();
        return 0;
    }
    return get_real_pthread_spin_lock()(l);
}
