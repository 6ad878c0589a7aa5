/*
 * sched_model.h - the scheduler model shared by sched.c (the model: thread table, token passing,
 * decisions, waits) and hook_pthread.c (the pthread hooks that drive it). Internal: every symbol
 * here has hidden visibility (the library is built with -fvisibility=hidden).
 *
 * Protocol for a yield point: LOCK(); change the model state (block_on, wake_all, ...);
 * YIELD(site), which runs pick(), releases the lock and hands the token over. Called only by a
 * managed thread (sched_engaged()).
 */
#ifndef WEFT_SCHED_MODEL_H
#define WEFT_SCHED_MODEL_H

#include "weft.h"

#include <pthread.h>
#include <time.h>

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
    int start_masked;       /* created with signals blocked (process scheduling): its first turn ... */
    uint64_t start_mask;    /* ... restores this mask, its creator's */
} thread_slot;

enum site { S_BARRIER, S_BARRIER_BLK, S_COND_BCAST, S_COND_REACQ, S_COND_REACQ_C, S_COND_SIGNAL,
            S_COND_WAIT, S_FUTEX_WAIT, S_FUTEX_WAKE, S_IO_WAIT, S_JOIN, S_MUTEX_LOCK, S_MUTEX_LOCK_C, S_MUTEX_TRY, S_MUTEX_UNLOCK,
            S_NET_BLOCK, S_NET_SEND, S_CREATE, S_RW_LOCK, S_RW_LOCK_C, S_RW_TRY, S_RW_UNLOCK, S_YIELD, S_SEM_POST,
            S_SEM_TRY, S_SEM_WAIT, S_SEM_WAIT_C, S_SIGNAL_WAIT, S_SLEEP, S_SPIN_LOCK_C, S_FINISHED, S_COUNT };

enum okind { O_FREE = 0, O_MUTEX, O_RWLOCK, O_BARRIER, O_SEM, O_COND };
typedef struct sync_obj {
    uintptr_t key;
    int kind;
    int owner;              /* mutex owner / rwlock writer */
    unsigned count;         /* recursive depth / rwlock readers / barrier arrivals / sem value */
    unsigned need;          /* barrier size */
} sync_obj;


extern thread_slot threads[MAX_THREADS];
extern int nthreads;                 /* logical tids handed out so far */
extern int sched_started;            /* the main thread registered (first pthread_create) */
extern atomic_int sched_lock;
extern WEFT_TLS int my_tid;
extern const char *const site_names[];

/* token passing (wait_token: a new thread's first turn) */
void wait_token(int tid);
void switch_to(int next, int me, int leaving);

/* the decision of spec §8 (sched_lock held); returns who runs next, or NONE when all finished */
int pick(enum site site);

#define YIELD(site) do { int next_ = pick(site); weft_spin_unlock(&sched_lock); switch_to(next_, my_tid, 0); } while (0)
void sched_release_finished_owners(void); /* a fork child: locks of vanished threads are free */
/* a fork child's atfork handlers may reach the model before ours fixes it (hook_pthread.c) */
extern atomic_int weft_sched_forking;
void weft_sched_fork_child_early(void);
#define LOCK() do { \
        if (atomic_load_explicit(&weft_sched_forking, memory_order_relaxed)) weft_sched_fork_child_early(); \
        weft_spin_lock(&sched_lock); \
    } while (0)
#define UNLOCK() weft_spin_unlock(&sched_lock)

static inline int sched_engaged(void) {
    return my_tid != NONE && weft_engaged() && weft_cfg.sched;
}

/* the object table (open addressing; destroyed objects leave a tombstone) */
#define TOMBSTONE ((uintptr_t)1)
sync_obj *obj_find(const void *addr);
sync_obj *obj_get(const void *addr, int kind);

/* model helpers (sched_lock held) */
void wake_all(int state, const void *obj);
int nth_in_state(int state, const void *obj, int i);
void block_on(int state, const void *obj, uint64_t deadline);
/* absolute deadline on `clock` -> virtual monotonic ns (0 = none, never 0 itself) */
uint64_t deadline_ns(clockid_t clock, const struct timespec *abs);

/* a managed thread waits for probe(arg): 1 ready, 0 deadline passed, -1 woken by pthread_cancel */
int sched_probe_wait(int (*probe)(void *), void *arg, uint64_t deadline, enum site site);

/* ---- process-shared objects (proc_sync.c) ---- */
/* how a wait ended: timed out, ready, woken by pthread_cancel, or "make the real call" */
enum { PW_TIMEOUT = 0, PW_READY = 1, PW_CANCEL = -1, PW_REAL = -2 };
/* waits for ready(arg): a managed thread in the model, else a process wait (bounded when deadline
 * is not 0); PW_REAL when neither scheduler can wait (the caller blocks for real) */
int ps_wait(int (*ready)(void *), void *arg, uint64_t deadline, enum site site);
/* a yield point of the thread model (when managed) and of the tree, after freeing a shared object */
void ps_yield_both(enum site site);
int ps_mutex_shared(const pthread_mutex_t *m);
/* the real lock for a managed caller without sched_lock: 0/EOWNERDEAD/ETIMEDOUT/error */
int ps_mutex_take(pthread_mutex_t *m, enum site busy_site, uint64_t deadline);
/* no model: the lock's result, or PW_REAL (make the real call) */
int ps_mutex_lock_unmanaged(pthread_mutex_t *m, uint64_t deadline);
int ps_rwlock_shared(const pthread_rwlock_t *l);
/* the real rwlock for the caller: try (EBUSY) or wait for other processes (0/EAGAIN/ETIMEDOUT) */
int ps_rwlock_take(pthread_rwlock_t *l, int write, int try, uint64_t deadline);
int ps_rwlock_lock_unmanaged(pthread_rwlock_t *l, int write, uint64_t deadline);
/* under process scheduling: 0, or PW_REAL */
int ps_spin_lock(pthread_spinlock_t *l);
int ps_cond_shared(const pthread_cond_t *c);
int ps_cond_wait(pthread_cond_t *c, pthread_mutex_t *m, uint64_t deadline);
void ps_cond_wake(pthread_cond_t *c, int all);
int ps_barrier_shared(const pthread_barrier_t *b);
void ps_barrier_init(pthread_barrier_t *b);
int ps_barrier_wait(pthread_barrier_t *b);
/* the mutex half of a condition-variable wait (hook_pthread.c): the model's or the real lock */
int weft_cond_mutex_release(pthread_mutex_t *m);
int weft_cond_mutex_reacquire(pthread_mutex_t *m);

#endif
