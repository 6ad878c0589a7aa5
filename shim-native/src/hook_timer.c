/*
 * hook_timer.c - timers on the virtual clock (issue 29): alarm, setitimer/getitimer(ITIMER_REAL) and
 * the POSIX timers (timer_create & co, SIGEV_SIGNAL / SIGEV_THREAD_ID / SIGEV_NONE).
 *
 * A timer is a virtual instant of this process's clock. Nothing fires in real time: the kernel never
 * sees these timers. Instead every place where virtual time moves asks for the earliest expiry:
 *   - a sleep (hook_time.c) ends at the expiry when that comes first: the clock moves there, the
 *     signal is sent, and the sleep returns early (EINTR, remaining time) when a handler ran;
 *     under process scheduling the expiry is the sleeper's wake instant, so it is ordered with the
 *     tree's other waits by the tree clock;
 *   - a wait for a signal (pause, sigsuspend) is bounded by it (a process wait that times out when
 *     the tree is idle, or, alone, a jump of the clock);
 *   - a clock read (time, gettimeofday, clock_gettime) and a process yield point fire what is due:
 *     a process that computes gets its signal at its next observation of time.
 * Why this is deterministic: expiries are virtual instants and fire only at those points, which are
 * a function of the program and the seed.
 *
 * Timer ids handed out are WEFT_TIMER_TAG | index, far from the kernel's small ids, so a call the
 * shim passes through (an unsupported clock) keeps working with the kernel's own timer.
 * Safety: a fixed table, no allocation, signals sent with raw system calls. The table is per
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

#define NS 1000000000ULL
#define NTIMERS 64
#define WEFT_TIMER_TAG 0x5ef70000
#define ALARM 0 /* slot 0: the process's ITIMER_REAL (alarm and setitimer share it) */

typedef struct vtimer {
    int used;
    int notify;         /* SIGEV_SIGNAL, SIGEV_THREAD_ID or SIGEV_NONE */
    int sig;
    int tid;            /* SIGEV_THREAD_ID: the thread to signal */
    union sigval value;
    uint64_t at;        /* the expiry, virtual monotonic ns (0: disarmed) */
    uint64_t interval;  /* 0: one-shot */
    int overrun;        /* expiries merged into the last signal sent */
} vtimer;

static vtimer timers[NTIMERS];
static atomic_int lock;
static _Atomic uint64_t next_at; /* the earliest `at` of the table (0: none): the fast "anything due?" */

static void recompute(void) {
    uint64_t best = 0;
    for (int i = 0; i < NTIMERS; i++)
        if (timers[i].used && timers[i].at && (!best || timers[i].at < best)) best = timers[i].at;
    atomic_store(&next_at, best);
}

uint64_t weft_timer_next(void) { return atomic_load_explicit(&next_at, memory_order_relaxed); }

/* The signal of the earliest armed timer (a warning names it), 0 when none. */
int weft_timer_next_signal(void) {
    uint64_t na = weft_timer_next();
    for (int i = 0; na && i < NTIMERS; i++)
        if (timers[i].used && timers[i].at == na) return timers[i].sig;
    return 0;
}

static void fork_child(void) {
    memset(timers, 0, sizeof timers);
    atomic_store(&lock, 0);
    atomic_store(&next_at, 0);
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
    if (id == ALARM) {
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

/*
 * Fires every timer due at this process's current instant (periodic ones re-armed; expiries that
 * passed while nobody looked are counted as overruns, as the kernel does). Must be called with
 * weft_depth 0 (a handler runs here and its hooks must behave as anywhere in the program). Returns
 * 0 when no handler ran, else bit 0 set, and bit 1 too when one of them had no SA_RESTART. Timers are fired in order of their expiry (ties: lower id first).
 */
int weft_timer_fire_due(void) {
    uint64_t na = weft_timer_next();
    if (!na || weft_depth) return 0;
    uint64_t now = weft_mono_peek();
    if (na > now) return 0;
    int handled = 0;
    for (;;) {
        weft_spin_lock(&lock);
        int best = -1;
        for (int i = 0; i < NTIMERS; i++)
            if (timers[i].used && timers[i].at && timers[i].at <= now && (best < 0 || timers[i].at < timers[best].at))
                best = i;
        if (best < 0) { weft_spin_unlock(&lock); break; }
        vtimer *t = &timers[best];
        vtimer copy;
        if (t->interval) {
            uint64_t missed = (now - t->at) / t->interval;
            t->overrun = missed > 0x7fffffff ? 0x7fffffff : (int)missed;
            t->at += (missed + 1) * t->interval;
        } else {
            t->overrun = 0;
            t->at = 0;
        }
        copy = *t;
        recompute();
        weft_spin_unlock(&lock);
        if (copy.notify != SIGEV_NONE) handled |= send(&copy, best);
    }
    return handled;
}

/* A clock read or a yield point: fire what is due (a computing process's "next yield point"). */
void weft_timer_poll(void) {
    uint64_t na = weft_timer_next();
    if (na && na <= weft_mono_peek()) weft_timer_fire_due();
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

static void init_alarm(void) {
    timers[ALARM].used = 1;
    timers[ALARM].notify = SIGEV_SIGNAL;
    timers[ALARM].sig = SIGALRM;
}

typedef unsigned (*alarm_fn)(unsigned);
typedef int (*setitimer_fn)(__itimer_which_t, const struct itimerval *, struct itimerval *);
typedef int (*getitimer_fn)(__itimer_which_t, struct itimerval *);
REAL_FN(alarm_fn, alarm)
REAL_FN(setitimer_fn, setitimer)
REAL_FN(getitimer_fn, getitimer)

WEFT_EXPORT unsigned alarm(unsigned s) {
    if (!weft_engaged()) return get_real_alarm()(s);
    init_alarm();
    uint64_t left;
    arm(ALARM, (uint64_t)s * NS, 0, &left, NULL);
    WEFT_TRACE("alarm", "%u s", s);
    /* the old alarm's seconds, rounded to nearest and never 0 while armed, as glibc's alarm */
    return left ? (unsigned)((left + NS / 2) / NS ? (left + NS / 2) / NS : 1) : 0;
}

/* ITIMER_VIRTUAL and ITIMER_PROF stay the kernel's (docs/shim.md "Known gaps"). */
WEFT_EXPORT int setitimer(__itimer_which_t which, const struct itimerval *restrict nv, struct itimerval *restrict ov) {
    if (which != ITIMER_REAL || !weft_engaged()) return get_real_setitimer()(which, nv, ov);
    nv = WEFT_OPAQUE(nv);
    if (!nv) { errno = EFAULT; return -1; }
    if (nv->it_value.tv_usec < 0 || nv->it_value.tv_usec >= 1000000 || nv->it_interval.tv_usec < 0 ||
        nv->it_interval.tv_usec >= 1000000 || nv->it_value.tv_sec < 0 || nv->it_interval.tv_sec < 0) {
        errno = EINVAL;
        return -1;
    }
    init_alarm();
    uint64_t left, iv;
    arm(ALARM, tv_ns(&nv->it_value), tv_ns(&nv->it_interval), &left, &iv);
    if (ov) { ns_tv(left, &ov->it_value); ns_tv(iv, &ov->it_interval); }
    WEFT_TRACE("setitimer", "%lu ns every %lu ns", (unsigned long)tv_ns(&nv->it_value), (unsigned long)tv_ns(&nv->it_interval));
    return 0;
}

WEFT_EXPORT int getitimer(__itimer_which_t which, struct itimerval *cv) {
    if (which != ITIMER_REAL || !weft_engaged()) return get_real_getitimer()(which, cv);
    cv = WEFT_OPAQUE(cv);
    if (!cv) { errno = EFAULT; return -1; }
    weft_timer_poll();
    weft_spin_lock(&lock);
    uint64_t now = weft_mono_peek(), at = timers[ALARM].at;
    ns_tv(at ? (at > now ? at - now : 0) : 0, &cv->it_value);
    ns_tv(timers[ALARM].interval, &cv->it_interval);
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
    return i > ALARM && i < NTIMERS && timers[i].used ? i : -1;
}

WEFT_EXPORT int timer_create(clockid_t c, struct sigevent *ev, timer_t *out) {
    ev = WEFT_OPAQUE(ev);
    /* SIGEV_THREAD stays the kernel's (docs/shim.md "Known gaps") */
    if (!weft_engaged() || !virtual_clock(c) || (ev && ev->sigev_notify == SIGEV_THREAD))
        return get_real_timer_create()(c, ev, out);
    if (ev && ev->sigev_notify != SIGEV_SIGNAL && ev->sigev_notify != SIGEV_NONE && ev->sigev_notify != SIGEV_THREAD_ID) {
        errno = EINVAL;
        return -1;
    }
    if (ev && ev->sigev_notify != SIGEV_NONE && (ev->sigev_signo <= 0 || ev->sigev_signo > 64)) { errno = EINVAL; return -1; }
    weft_spin_lock(&lock);
    int i = ALARM + 1;
    while (i < NTIMERS && timers[i].used) i++;
    if (i == NTIMERS) { weft_spin_unlock(&lock); errno = EAGAIN; return -1; }
    vtimer *t = &timers[i];
    memset(t, 0, sizeof *t);
    t->used = 1;
    t->notify = ev ? ev->sigev_notify : SIGEV_SIGNAL;
    t->sig = ev ? ev->sigev_signo : SIGALRM;
    t->tid = ev && ev->sigev_notify == SIGEV_THREAD_ID ? ev->_sigev_un._tid : 0;
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
