/*
 * hook_timer.c - timers on the virtual clock (issue 29): alarm, setitimer/getitimer (ITIMER_REAL, and
 * ITIMER_VIRTUAL / ITIMER_PROF on the CPU clock), the POSIX timers (timer_create & co, SIGEV_SIGNAL /
 * SIGEV_THREAD_ID / SIGEV_THREAD / SIGEV_NONE), and the table behind timerfds (hook_timerfd.c).
 *
 * A timer is a virtual instant of this process's clock. Nothing fires in real time: the kernel never
 * sees these timers. Instead every place where virtual time moves asks for the earliest expiry:
 *   - a sleep (hook_time.c) ends at the expiry when that comes first: the clock moves there, the
 *     signal is sent, and the sleep returns early (EINTR, remaining time) when a handler ran;
 *     under process scheduling the expiry is the sleeper's wake instant, so it is ordered with the
 *     tree's other waits by the tree clock;
 *   - a wait for a signal (pause, sigsuspend) or for fds (poll & co, a blocking read: timer_wait.c)
 *     is bounded by it (a process wait that times out when the tree is idle, or, alone, a jump of
 *     the clock);
 *   - a clock read (time, gettimeofday, clock_gettime) and a process yield point fire what is due:
 *     a process that computes gets its signal at its next observation of time.
 * Three kinds of expiry, kept apart because they bound different waits:
 *   - signal timers (alarm, ITIMER_REAL, POSIX timers): end sleeps and waits (weft_timer_next);
 *   - timerfds: make their fd readable, so they bound fd waits only (weft_timer_next_fd): a sleep is
 *     not cut into pieces by a fast periodic timerfd nobody reads;
 *   - CPU timers (ITIMER_VIRTUAL, ITIMER_PROF): the shim's CPU clock is the process's virtual life
 *     (hook_proc.c), but a process asleep or waiting uses no CPU on a machine, so these never end a
 *     wait: they fire at the next clock read or yield point after their instant.
 * Why this is deterministic: expiries are virtual instants and fire only at those points, which are
 * a function of the program and the seed.
 *
 * Timer ids handed out are WEFT_TIMER_TAG | index, far from the kernel's small ids, so a call the
 * shim passes through (an unsupported clock) keeps working with the kernel's own timer.
 * Safety: a fixed table, no allocation, signals sent with raw system calls (a SIGEV_THREAD expiry
 * starts a thread, as glibc does, through the shim's own pthread_create). The table is per
 * process (fork children start without timers, as POSIX says for POSIX timers; alarm's is cleared
 * too); a spinlock guards it since any thread may arm or fire.
 */
#include "weft.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/timerfd.h>

#define NS 1000000000ULL
#define NTIMERS 64
#define WEFT_TIMER_TAG 0x5ef70000
#define ALARM 0 /* slot 0: the process's ITIMER_REAL (alarm and setitimer share it) */
#define VIRT 1  /* slot 1: ITIMER_VIRTUAL */
#define PROF 2  /* slot 2: ITIMER_PROF */
#define FIRST_POSIX 3

enum kind { K_SIGNAL, K_FD, K_CPU };

typedef struct vtimer {
    int used;
    int notify;         /* SIGEV_SIGNAL, SIGEV_THREAD_ID or SIGEV_NONE */
    int sig;
    int tid;            /* SIGEV_THREAD_ID: the thread to signal */
    union sigval value;
    uint64_t at;        /* the expiry, virtual monotonic ns (0: disarmed) */
    uint64_t interval;  /* 0: one-shot */
    int overrun;        /* expiries merged into the last signal sent */
    int kind;           /* enum kind */
    int fd;             /* K_FD: the kernel timerfd that carries readiness */
    uint64_t ticks;     /* K_FD: expirations since the last read */
    void (*fn)(union sigval); /* SIGEV_THREAD: run on a new thread at each expiry */
    size_t stack;       /* SIGEV_THREAD: the attributes' stack size (0: the default) */
} vtimer;

static vtimer timers[NTIMERS];
static atomic_int lock;
/* the earliest `at` of each kind (0: none): the fast "anything due?" */
static _Atomic uint64_t next_at[3];

static void recompute(void) {
    uint64_t best[3] = {0, 0, 0};
    for (int i = 0; i < NTIMERS; i++) {
        const vtimer *t = &timers[i];
        if (t->used && t->at && (!best[t->kind] || t->at < best[t->kind])) best[t->kind] = t->at;
    }
    for (int k = 0; k < 3; k++) atomic_store(&next_at[k], best[k]);
}

static uint64_t next_of(int kind) { return atomic_load_explicit(&next_at[kind], memory_order_relaxed); }
static uint64_t earlier(uint64_t a, uint64_t b) { return !a ? b : !b ? a : a < b ? a : b; }

/*
 * Which thread a process-directed signal goes to (alarm, setitimer, a SIGEV_SIGNAL POSIX timer).
 * Linux prefers the main thread when it does not block the signal (and picks another thread only
 * otherwise); here a timer's expiry goes to the thread whose wait reaches it. So while the main
 * thread waits in a wait a signal ends (a sleep, poll/select/epoll, a read: timer_wait.c), cut at an
 * expiry whose signal it does not block, that expiry is the main thread's: the other threads' waits
 * are not cut by it and they do not fire it, and the main thread's wait ends there with EINTR, as
 * on a machine. main_cut is written by the main thread only (0: it is not in such a wait); a wait
 * that ended early (an fd became ready) is cleared at the main thread's next clock read.
 */
static _Atomic uint64_t main_cut;
static _Atomic uint64_t main_blocked;

static int on_main_thread(void) {
    return weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0) == weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
}

void weft_timer_main_wait(uint64_t cut) {
    if (!cut && !atomic_load_explicit(&main_cut, memory_order_relaxed)) return;
    if (!on_main_thread()) return;
    if (cut) {
        uint64_t mask = 0;
        weft_real_syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &mask, 8, 0, 0);
        atomic_store(&main_blocked, mask);
    }
    atomic_store(&main_cut, cut);
}

/* Is timer t the main thread's, asked by another thread? (lock held or a copy) */
static int mains(const vtimer *t, uint64_t cut) {
    return cut && t->kind == K_SIGNAL && t->at == cut && t->notify == SIGEV_SIGNAL && t->sig > 0 && t->sig <= 64 &&
           !((atomic_load(&main_blocked) >> (t->sig - 1)) & 1);
}

/* The main thread's expiry, when the caller is another thread and the main thread waits for it; 0
 * otherwise. The fast path (main_cut 0) makes no system call. */
static uint64_t cut_for_main(void) {
    uint64_t cut = atomic_load_explicit(&main_cut, memory_order_relaxed);
    return cut && !on_main_thread() ? cut : 0;
}

uint64_t weft_timer_next(void) {
    uint64_t cut = cut_for_main();
    if (!cut) return next_of(K_SIGNAL);
    uint64_t best = 0; /* the earliest signal timer that is not the main thread's */
    weft_spin_lock(&lock);
    for (int i = 0; i < NTIMERS; i++)
        if (timers[i].used && timers[i].at && timers[i].kind == K_SIGNAL && !mains(&timers[i], cut))
            best = earlier(best, timers[i].at);
    weft_spin_unlock(&lock);
    return best;
}
uint64_t weft_timer_next_fd(void) { return earlier(weft_timer_next(), next_of(K_FD)); }

/* The signal of the earliest armed timer (a warning names it), 0 when none. */
int weft_timer_next_signal(void) {
    uint64_t na = weft_timer_next();
    for (int i = 0; na && i < NTIMERS; i++)
        if (timers[i].used && timers[i].at == na) return timers[i].sig;
    return 0;
}

/* A fork child keeps its timerfds (the fds are inherited; each process then counts its own copy's
 * expirations) and loses every other timer. */
static void fork_child(void) {
    for (int i = 0; i < NTIMERS; i++)
        if (timers[i].kind != K_FD) memset(&timers[i], 0, sizeof timers[i]);
    atomic_store(&lock, 0);
    atomic_store(&main_cut, 0);
    recompute();
}
__attribute__((constructor)) static void timer_ctor(void) { pthread_atfork(NULL, NULL, fork_child); }

/* The kernel's struct for rt_sigaction (not glibc's). */
struct ksigaction { void *handler; unsigned long flags; void *restorer; uint64_t mask; };

/* Signals whose default action does not end the process (ignore, stop). */
static int default_ignored(int sig) {
    return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT || sig == SIGTSTP || sig == SIGTTIN ||
           sig == SIGTTOU;
}

/*
 * Sends one expiry's signal to this process (to the calling thread, or the timer's thread).
 * Returns 1 when a handler runs now (unblocked, caught): the interrupted wait returns EINTR.
 * When the signal will kill the process (default action, unblocked) the run token is handed on
 * first, as at an exit, so the tree goes on in its seeded order rather than after a watchdog.
 */
static int send(const vtimer *t, int id) {
    int sig = t->sig;
    uint64_t mask = 0;
    struct ksigaction act;
    weft_real_syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &mask, 8, 0, 0);
    if (weft_real_syscall(SYS_rt_sigaction, sig, NULL, &act, 8, 0, 0) != 0) return 0;
    int blocked = (mask >> (sig - 1)) & 1;
    int caught = act.handler != SIG_DFL && act.handler != SIG_IGN;
    if (!blocked && act.handler == SIG_DFL && !default_ignored(sig)) weft_pt_exit(0);
    long pid = weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    long tid = t->notify == SIGEV_THREAD_ID ? t->tid : weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
    WEFT_TRACE("timer_fire", "timer %d sig %d at %lu ns", id, sig, (unsigned long)weft_mono_peek());
    if (id < FIRST_POSIX) { /* setitimer's signals carry no timer information */
        weft_real_syscall(SYS_tgkill, pid, tid, sig, 0, 0, 0);
    } else {
        siginfo_t si;
        memset(&si, 0, sizeof si);
        si.si_signo = sig;
        si.si_code = SI_TIMER;
        si.si_value = t->value;
        si.si_timerid = WEFT_TIMER_TAG | id;
        si.si_overrun = t->overrun;
        weft_real_syscall(SYS_rt_tgsigqueueinfo, pid, tid, sig, &si, 0, 0);
    }
    /* 1: a handler ran; 3: one without SA_RESTART (a restartable wait fails with EINTR too) */
    return !blocked && caught ? ((act.flags & SA_RESTART) ? 1 : 3) : 0;
}

/* ------------------------------------------------------------------ SIGEV_THREAD */

/* What a SIGEV_THREAD expiry's thread runs: glibc starts a detached thread per expiry with the
 * timer's attributes; the shim's pthread_create makes it a managed thread like any other. A record
 * is taken by the new thread before it calls the function (a small ring: no allocation). */
#define THREAD_CALLS 32
struct thread_call { atomic_int busy; void (*fn)(union sigval); union sigval value; };
static struct thread_call calls[THREAD_CALLS];

static void *thread_call_start(void *p) {
    struct thread_call *c = p;
    void (*fn)(union sigval) = c->fn;
    union sigval v = c->value;
    atomic_store(&c->busy, 0);
    fn(v);
    return NULL;
}

static void start_thread(const vtimer *t) {
    struct thread_call *c = NULL;
    for (int i = 0; i < THREAD_CALLS && !c; i++) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&calls[i].busy, &expect, 1)) c = &calls[i];
    }
    if (!c) return; /* every record in flight: this expiry is lost, as glibc loses one it cannot allocate for */
    c->fn = t->fn;
    c->value = t->value;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (t->stack) pthread_attr_setstacksize(&a, t->stack);
    pthread_t th;
    WEFT_TRACE("timer_thread", "at %lu ns", (unsigned long)weft_mono_peek());
    if (pthread_create(&th, &a, thread_call_start, c) != 0) atomic_store(&c->busy, 0);
    pthread_attr_destroy(&a);
}

/* A timerfd's expiry: counted, and its kernel timerfd made readable at once (armed to an absolute
 * instant already past), so poll/epoll/select and read see it like any readiness. */
static void fd_ready(int fd) {
    struct itimerspec past = {{0, 0}, {0, 1}};
    weft_real_syscall(SYS_timerfd_settime, fd, TFD_TIMER_ABSTIME, &past, NULL, 0, 0);
}

/*
 * Fires every timer of the kinds `kinds` (bit per enum kind) due at this process's current instant
 * (periodic ones re-armed; expiries that passed while nobody looked are counted as overruns, or as
 * a timerfd's expirations, as the kernel does). Must be called with weft_depth 0 (a handler runs
 * here and its hooks must behave as anywhere in the program). Returns 0 when no handler ran, else
 * bit 0 set, and bit 1 too when one of them had no SA_RESTART. Timers are fired in order of their
 * expiry (ties: lower id first).
 */
static int fire(int kinds) {
    uint64_t na = 0;
    for (int k = 0; k < 3; k++)
        if (kinds & (1 << k)) na = earlier(na, next_of(k));
    if (!na || weft_depth) return 0;
    uint64_t now = weft_mono_peek();
    if (na > now) return 0;
    uint64_t cut = cut_for_main(); /* another thread leaves the main thread's expiry to it */
    int handled = 0;
    for (;;) {
        weft_spin_lock(&lock);
        int best = -1;
        for (int i = 0; i < NTIMERS; i++)
            if (timers[i].used && timers[i].at && timers[i].at <= now && (kinds & (1 << timers[i].kind)) &&
                !mains(&timers[i], cut) && (best < 0 || timers[i].at < timers[best].at))
                best = i;
        if (best < 0) { weft_spin_unlock(&lock); break; }
        vtimer *t = &timers[best];
        vtimer copy;
        uint64_t missed = 0;
        if (t->interval) {
            missed = (now - t->at) / t->interval;
            t->overrun = missed > 0x7fffffff ? 0x7fffffff : (int)missed;
            t->at += (missed + 1) * t->interval;
        } else {
            t->overrun = 0;
            t->at = 0;
        }
        if (t->kind == K_FD) {
            t->ticks += missed + 1;
            fd_ready(t->fd);
        }
        copy = *t;
        recompute();
        weft_spin_unlock(&lock);
        if (copy.kind == K_FD) WEFT_TRACE("timerfd_fire", "fd %d at %lu ns", copy.fd, (unsigned long)now);
        else if (copy.notify == SIGEV_THREAD) start_thread(&copy);
        else if (copy.notify != SIGEV_NONE) handled |= send(&copy, best);
    }
    return handled;
}

/* What a wait fires when the clock reaches an expiry: signal timers and timerfds (CPU timers wait
 * for the next clock read or yield point: a waiting process uses no CPU). */
int weft_timer_fire_due(void) { return fire(1 << K_SIGNAL | 1 << K_FD); }

/* A clock read or a yield point: fire what is due (a computing process's "next yield point"). */
void weft_timer_poll(void) {
    weft_timer_main_wait(0); /* the main thread reads the clock: it is not waiting (any more) */
    uint64_t na = earlier(earlier(next_of(K_SIGNAL), next_of(K_FD)), next_of(K_CPU));
    if (na && na <= weft_mono_peek()) fire(1 << K_SIGNAL | 1 << K_FD | 1 << K_CPU);
}

/* ------------------------------------------------------------------ arming */

static void arm(int id, uint64_t value, uint64_t interval, uint64_t *old_left, uint64_t *old_interval) {
    weft_spin_lock(&lock);
    uint64_t now = weft_mono_peek();
    vtimer *t = &timers[id];
    if (old_left) *old_left = t->at ? (t->at > now ? t->at - now : 1) : 0;
    if (old_interval) *old_interval = t->interval;
    t->at = value ? (value > UINT64_MAX - now ? UINT64_MAX : now + value) : 0;
    t->interval = value ? interval : 0;
    t->overrun = 0;
    recompute();
    weft_spin_unlock(&lock);
}

static uint64_t tv_ns(const struct timeval *tv) { return (uint64_t)tv->tv_sec * NS + (uint64_t)tv->tv_usec * 1000; }
static void ns_tv(uint64_t ns, struct timeval *tv) {
    tv->tv_sec = (time_t)(ns / NS);
    tv->tv_usec = (suseconds_t)((ns % NS + 999) / 1000); /* rounded up: a left time never reads as 0 */
    if (tv->tv_usec == 1000000) { tv->tv_sec++; tv->tv_usec = 0; }
}
static uint64_t ts_ns(const struct timespec *ts) { return (uint64_t)ts->tv_sec * NS + (uint64_t)ts->tv_nsec; }
static void ns_ts(uint64_t ns, struct timespec *ts) { ts->tv_sec = (time_t)(ns / NS); ts->tv_nsec = (long)(ns % NS); }

/* The slot of an interval timer (ITIMER_REAL: alarm's), set up on first use; -1: not one. */
static int itimer_slot(int which) {
    static const int sig[3] = {SIGALRM, SIGVTALRM, SIGPROF};
    if (which < ITIMER_REAL || which > ITIMER_PROF) return -1;
    int slot = which == ITIMER_REAL ? ALARM : which == ITIMER_VIRTUAL ? VIRT : PROF;
    timers[slot].used = 1;
    timers[slot].notify = SIGEV_SIGNAL;
    timers[slot].sig = sig[which];
    timers[slot].kind = which == ITIMER_REAL ? K_SIGNAL : K_CPU;
    return slot;
}

typedef unsigned (*alarm_fn)(unsigned);
typedef int (*setitimer_fn)(__itimer_which_t, const struct itimerval *, struct itimerval *);
typedef int (*getitimer_fn)(__itimer_which_t, struct itimerval *);
REAL_FN(alarm_fn, alarm)
REAL_FN(setitimer_fn, setitimer)
REAL_FN(getitimer_fn, getitimer)

WEFT_EXPORT unsigned alarm(unsigned s) {
    if (!weft_engaged()) return get_real_alarm()(s);
    itimer_slot(ITIMER_REAL);
    uint64_t left;
    arm(ALARM, (uint64_t)s * NS, 0, &left, NULL);
    WEFT_TRACE("alarm", "%u s", s);
    /* the old alarm's seconds, rounded to nearest and never 0 while armed, as glibc's alarm */
    return left ? (unsigned)((left + NS / 2) / NS ? (left + NS / 2) / NS : 1) : 0;
}

/* ITIMER_VIRTUAL and ITIMER_PROF count the shim's CPU clock (hook_proc.c): both start from the same
 * observation as CLOCK_PROCESS_CPUTIME_ID, so a program that compares them sees them agree. */
WEFT_EXPORT int setitimer(__itimer_which_t which, const struct itimerval *restrict nv, struct itimerval *restrict ov) {
    if (!weft_engaged() || which > ITIMER_PROF) return get_real_setitimer()(which, nv, ov);
    nv = WEFT_OPAQUE(nv);
    if (!nv) { errno = EFAULT; return -1; }
    if (nv->it_value.tv_usec < 0 || nv->it_value.tv_usec >= 1000000 || nv->it_interval.tv_usec < 0 ||
        nv->it_interval.tv_usec >= 1000000 || nv->it_value.tv_sec < 0 || nv->it_interval.tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    int slot = itimer_slot(which);
    uint64_t left, iv;
    arm(slot, tv_ns(&nv->it_value), tv_ns(&nv->it_interval), &left, &iv);
    if (ov) { ns_tv(left, &ov->it_value); ns_tv(iv, &ov->it_interval); }
    WEFT_TRACE("setitimer", "%d: %lu ns every %lu ns", (int)which, (unsigned long)tv_ns(&nv->it_value),
               (unsigned long)tv_ns(&nv->it_interval));
    return 0;
}

WEFT_EXPORT int getitimer(__itimer_which_t which, struct itimerval *cv) {
    if (!weft_engaged() || which > ITIMER_PROF) return get_real_getitimer()(which, cv);
    cv = WEFT_OPAQUE(cv);
    if (!cv) { errno = EFAULT; return -1; }
    weft_timer_poll();
    int slot = itimer_slot(which);
    weft_spin_lock(&lock);
    uint64_t now = weft_mono_peek(), at = timers[slot].at;
    ns_tv(at ? (at > now ? at - now : 0) : 0, &cv->it_value);
    ns_tv(timers[slot].interval, &cv->it_interval);
    weft_spin_unlock(&lock);
    return 0;
}

/* ------------------------------------------------------------------ POSIX timers */

typedef int (*timer_create_fn)(clockid_t, struct sigevent *, timer_t *);
typedef int (*timer_settime_fn)(timer_t, int, const struct itimerspec *, struct itimerspec *);
typedef int (*timer_gettime_fn)(timer_t, struct itimerspec *);
typedef int (*timer_getoverrun_fn)(timer_t);
typedef int (*timer_delete_fn)(timer_t);
REAL_FN(timer_create_fn, timer_create)
REAL_FN(timer_settime_fn, timer_settime)
REAL_FN(timer_gettime_fn, timer_gettime)
REAL_FN(timer_getoverrun_fn, timer_getoverrun)
REAL_FN(timer_delete_fn, timer_delete)

/* The clocks the virtual clock stands for (realtime = monotonic + the run's base). */
static int virtual_clock(clockid_t c) {
    return c == CLOCK_REALTIME || c == CLOCK_MONOTONIC || c == CLOCK_BOOTTIME || c == CLOCK_REALTIME_ALARM ||
           c == CLOCK_BOOTTIME_ALARM || c == CLOCK_TAI;
}
static int is_realtime(clockid_t c) { return c == CLOCK_REALTIME || c == CLOCK_REALTIME_ALARM || c == CLOCK_TAI; }

static clockid_t clock_of[NTIMERS];

/* Ours: the tag and a used slot; -1 otherwise (then the kernel's). */
static int our_id(timer_t id) {
    long v = (long)(intptr_t)id;
    if ((v & ~0xffffL) != WEFT_TIMER_TAG) return -1;
    int i = (int)(v & 0xffff);
    return i >= FIRST_POSIX && i < NTIMERS && timers[i].used && timers[i].kind == K_SIGNAL ? i : -1;
}

WEFT_EXPORT int timer_create(clockid_t c, struct sigevent *ev, timer_t *out) {
    ev = WEFT_OPAQUE(ev);
    if (!weft_engaged() || !virtual_clock(c)) return get_real_timer_create()(c, ev, out);
    int notify = ev ? ev->sigev_notify : SIGEV_SIGNAL;
    if (notify != SIGEV_SIGNAL && notify != SIGEV_NONE && notify != SIGEV_THREAD_ID && notify != SIGEV_THREAD) {
        errno = EINVAL;
        return -1;
    }
    if (ev && (notify == SIGEV_SIGNAL || notify == SIGEV_THREAD_ID) && (ev->sigev_signo <= 0 || ev->sigev_signo > 64)) {
        errno = EINVAL;
        return -1;
    }
    size_t stack = 0;
    if (notify == SIGEV_THREAD && ev->sigev_notify_attributes)
        pthread_attr_getstacksize(ev->sigev_notify_attributes, &stack);
    weft_spin_lock(&lock);
    int i = FIRST_POSIX;
    while (i < NTIMERS && timers[i].used) i++;
    if (i == NTIMERS) { weft_spin_unlock(&lock); errno = EAGAIN; return -1; }
    vtimer *t = &timers[i];
    memset(t, 0, sizeof *t);
    t->used = 1;
    t->notify = ev ? ev->sigev_notify : SIGEV_SIGNAL;
    t->sig = ev ? ev->sigev_signo : SIGALRM;
    t->kind = K_SIGNAL;
    t->tid = ev && ev->sigev_notify == SIGEV_THREAD_ID ? ev->_sigev_un._tid : 0;
    if (notify == SIGEV_THREAD) {
        t->sig = 0;
        t->fn = ev->sigev_notify_function;
        t->stack = stack;
    }
    if (ev) t->value = ev->sigev_value;
    else t->value.sival_int = WEFT_TIMER_TAG | i; /* the kernel's default: the timer id */
    clock_of[i] = c;
    weft_spin_unlock(&lock);
    *out = (timer_t)(intptr_t)(WEFT_TIMER_TAG | i);
    WEFT_TRACE("timer_create", "clock %d -> timer %d", (int)c, i);
    return 0;
}

WEFT_EXPORT int timer_settime(timer_t id, int flags, const struct itimerspec *nv, struct itimerspec *ov) {
    int i = our_id(id);
    if (i < 0) return get_real_timer_settime()(id, flags, nv, ov);
    nv = WEFT_OPAQUE(nv);
    if (!nv) { errno = EFAULT; return -1; }
    if (nv->it_value.tv_nsec < 0 || nv->it_value.tv_nsec >= (long)NS || nv->it_interval.tv_nsec < 0 ||
        nv->it_interval.tv_nsec >= (long)NS || nv->it_value.tv_sec < 0 || nv->it_interval.tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    uint64_t v = ts_ns(&nv->it_value), left, iv;
    if ((flags & TIMER_ABSTIME) && v) {
        /* an absolute expiry on the clock's own scale; one already past fires at once */
        uint64_t now = weft_mono_peek();
        uint64_t mono = is_realtime(clock_of[i]) ? (v > weft_cfg.real_base_ns ? v - weft_cfg.real_base_ns : 0) : v;
        v = mono > now ? mono - now : 1;
    }
    arm(i, v, ts_ns(&nv->it_interval), &left, &iv);
    if (ov) { ns_ts(left, &ov->it_value); ns_ts(iv, &ov->it_interval); }
    WEFT_TRACE("timer_settime", "timer %d in %lu ns every %lu ns", i, (unsigned long)v, (unsigned long)ts_ns(&nv->it_interval));
    weft_timer_poll();
    return 0;
}

WEFT_EXPORT int timer_gettime(timer_t id, struct itimerspec *cv) {
    int i = our_id(id);
    if (i < 0) return get_real_timer_gettime()(id, cv);
    cv = WEFT_OPAQUE(cv);
    if (!cv) { errno = EFAULT; return -1; }
    weft_spin_lock(&lock);
    uint64_t now = weft_mono_peek(), at = timers[i].at;
    ns_ts(at ? (at > now ? at - now : 1) : 0, &cv->it_value);
    ns_ts(timers[i].interval, &cv->it_interval);
    weft_spin_unlock(&lock);
    return 0;
}

WEFT_EXPORT int timer_getoverrun(timer_t id) {
    int i = our_id(id);
    if (i < 0) return get_real_timer_getoverrun()(id);
    return timers[i].overrun;
}

WEFT_EXPORT int timer_delete(timer_t id) {
    int i = our_id(id);
    if (i < 0) return get_real_timer_delete()(id);
    weft_spin_lock(&lock);
    memset(&timers[i], 0, sizeof timers[i]);
    recompute();
    weft_spin_unlock(&lock);
    return 0;
}

/* ------------------------------------------------------------------ the timerfd table (hook_timerfd.c) */

static atomic_int fd_timers; /* timerfds open: read and close look at the table only when > 0 */

int weft_vtimer_fd_count(void) { return atomic_load_explicit(&fd_timers, memory_order_relaxed); }

int weft_vtimer_of_fd(int fd) {
    if (fd < 0 || !weft_vtimer_fd_count()) return -1;
    for (int i = FIRST_POSIX; i < NTIMERS; i++)
        if (timers[i].used && timers[i].kind == K_FD && timers[i].fd == fd) return i;
    return -1;
}

/* A new timerfd over the kernel timerfd `fd` (its readiness carrier); -1 when the table is full. */
int weft_vtimer_fd_new(int fd, clockid_t c) {
    weft_spin_lock(&lock);
    int i = FIRST_POSIX;
    while (i < NTIMERS && timers[i].used) i++;
    if (i < NTIMERS) {
        memset(&timers[i], 0, sizeof timers[i]);
        timers[i].used = 1;
        timers[i].kind = K_FD;
        timers[i].notify = SIGEV_NONE;
        timers[i].fd = fd;
        clock_of[i] = c;
        atomic_fetch_add(&fd_timers, 1);
    }
    weft_spin_unlock(&lock);
    return i < NTIMERS ? i : -1;
}

/* timerfd_settime: arming (or disarming) clears the expirations not yet read, as the kernel does. */
void weft_vtimer_fd_set(int i, int abs, const struct itimerspec *nv, struct itimerspec *ov) {
    uint64_t v = ts_ns(&nv->it_value), left, iv;
    if (abs && v) {
        uint64_t now = weft_mono_peek();
        uint64_t mono = is_realtime(clock_of[i]) ? (v > weft_cfg.real_base_ns ? v - weft_cfg.real_base_ns : 0) : v;
        v = mono > now ? mono - now : 1;
    }
    struct itimerspec off = {{0, 0}, {0, 0}};
    weft_spin_lock(&lock);
    timers[i].ticks = 0;
    weft_real_syscall(SYS_timerfd_settime, timers[i].fd, 0, &off, NULL, 0, 0);
    weft_spin_unlock(&lock);
    arm(i, v, ts_ns(&nv->it_interval), &left, &iv);
    if (ov) { ns_ts(left, &ov->it_value); ns_ts(iv, &ov->it_interval); }
    weft_timer_poll(); /* an absolute instant already past fires at once */
}

void weft_vtimer_fd_get(int i, struct itimerspec *cv) {
    weft_timer_poll();
    weft_spin_lock(&lock);
    uint64_t now = weft_mono_peek(), at = timers[i].at;
    ns_ts(at ? (at > now ? at - now : 1) : 0, &cv->it_value);
    ns_ts(timers[i].interval, &cv->it_interval);
    weft_spin_unlock(&lock);
}

/* A read: the expirations so far (0: none yet), and the kernel timerfd no longer readable. */
uint64_t weft_vtimer_fd_take(int i) {
    struct itimerspec off = {{0, 0}, {0, 0}};
    weft_spin_lock(&lock);
    uint64_t n = timers[i].ticks;
    timers[i].ticks = 0;
    if (n) weft_real_syscall(SYS_timerfd_settime, timers[i].fd, 0, &off, NULL, 0, 0);
    weft_spin_unlock(&lock);
    return n;
}

void weft_vtimer_fd_forget(int fd) {
    int i = weft_vtimer_of_fd(fd);
    if (i < 0) return;
    weft_spin_lock(&lock);
    memset(&timers[i], 0, sizeof timers[i]);
    recompute();
    atomic_fetch_sub(&fd_timers, 1);
    weft_spin_unlock(&lock);
}
