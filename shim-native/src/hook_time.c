/*
 * hook_time.c - the virtual clock seen through libc (spec §7.4).
 * Reads observe (advance 1 µs); sleeps advance virtual time and return at once.
 */
#include "weft.h"

#include <errno.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>
#include <sys/syscall.h>

typedef time_t (*time_fn)(time_t *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*clock_getres_fn)(clockid_t, struct timespec *);
typedef int (*timespec_get_fn)(struct timespec *, int);
typedef int (*nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef unsigned (*sleep_fn)(unsigned);
typedef int (*usleep_fn)(useconds_t);

REAL_FN(time_fn, time)
REAL_FN(gettimeofday_fn, gettimeofday)
REAL_FN(clock_gettime_fn, clock_gettime)
REAL_FN(clock_getres_fn, clock_getres)
REAL_FN(timespec_get_fn, timespec_get)
REAL_FN(nanosleep_fn, nanosleep)
REAL_FN(clock_nanosleep_fn, clock_nanosleep)
REAL_FN(sleep_fn, sleep)
REAL_FN(usleep_fn, usleep)

#define NS 1000000000ULL

/* A process talking to simulated peers lets them run: an unmanaged sleep of ns virtual waits
 * ns / WEFT_NET_SPEEDUP of real time first (the pacing rule, docs/shim.md "Network"), so a node
 * that polls with MSG_DONTWAIT between sleeps does not outrun its peers. Raw nanosleep: the
 * hooked one is us. An interrupted pause is not resumed: the clock advances the same.
 * Not in windowed runs: there the broker orders every request by its virtual time and holds each
 * answer until no peer can act before it, so outrunning is harmless, and the pause only held the
 * whole cluster back while the sleeper's clock stood still at the broker (a client sleeping 100 ms
 * between requests cost every node 10 ms of real time; docs/benchmarks.md, "Redis failover run"). */
static void pace(uint64_t ns) {
    if (weft_cfg.window_ns) return;
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0 || ns == 0) return;
    uint64_t b = weft_net_real_budget(ns);
    struct timespec d = {(time_t)(b / NS), (long)(b % NS)};
    weft_real_syscall(SYS_nanosleep, &d, NULL, 0, 0, 0, 0);
}

/* Sleeps until the virtual instant `wake`: a managed thread waits in the scheduler until then
 * (others run meanwhile); under process scheduling the tree runs until its clock reaches the wake
 * (proc_sched.c); otherwise the clock simply moves there. Returns 1 when a signal handler ran at a
 * turn's start before the wake (the clock is then short of it). */
static int sleep_to(uint64_t wake, int *tree_slept) {
    if (weft_sched_active()) {
        weft_sched_sleep_until(wake);
        return 0;
    }
    uint64_t now = weft_mono_peek();
    if (wake > now) pace(wake - now);
    int r = weft_pt_sleep_until(wake);
    if (r) *tree_slept = 1; /* it handed the token over already: no yield point after it */
    if (r == 2) return 1;
    weft_mono_at_least(wake);
    return 0;
}

/* A sleep until `wake` that a timer of this process (hook_timer.c) may end first: the clock moves to
 * the expiry, the signal is sent, and the sleep ends there when a handler ran (EINTR), as on a
 * machine; an expiry whose signal is ignored or blocked lets the sleep go on. Returns 1 when
 * interrupted. */
static int sleep_until_or_signal(uint64_t wake) {
    int interrupted = 0, tree_slept = 0;
    for (;;) {
        uint64_t t = weft_timer_next(), to = t && t < wake ? t : wake;
        weft_timer_main_wait(to == t ? t : 0); /* a process-directed expiry is the main thread's */
        int early = sleep_to(to, &tree_slept);
        weft_timer_main_wait(0);
        if (early) { interrupted = 1; break; }
        if (weft_timer_fire_due()) { interrupted = 1; break; }
        if (weft_mono_peek() >= wake) break;
    }
    if (!tree_slept) weft_pt_yield("sleep"); /* process scheduling: another process may run meanwhile */
    return interrupted;
}

/* A relative sleep of ns; *left: what remains when a signal handler interrupted it. */
static int sleep_ns(uint64_t ns, uint64_t *left) {
    uint64_t now = weft_mono_peek(), wake = ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
    int intr = sleep_until_or_signal(wake);
    uint64_t after = weft_mono_peek();
    if (left) *left = intr && after < wake ? wake - after : 0;
    return intr;
}

static int is_realtime(clockid_t c) {
    return c == CLOCK_REALTIME || c == CLOCK_REALTIME_COARSE || c == CLOCK_TAI;
}

static void to_ts(uint64_t ns, struct timespec *ts) {
    ts->tv_sec = (time_t)(ns / NS);
    ts->tv_nsec = (long)(ns % NS);
}

static int valid_ts(const struct timespec *t) {
    return t && t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < (long)NS;
}

static uint64_t ts_ns(const struct timespec *t) {
    uint64_t s = (uint64_t)t->tv_sec;
    if (s > (UINT64_MAX - (uint64_t)t->tv_nsec) / NS) return UINT64_MAX; /* saturate */
    return s * NS + (uint64_t)t->tv_nsec;
}

WEFT_EXPORT time_t time(time_t *out) {
    if (!weft_engaged()) return get_real_time()(out);
    time_t t = (time_t)(weft_real_observe() / NS);
    if (out) *out = t;
    WEFT_TRACE("time", "-> %ld", (long)t);
    weft_timer_poll(); /* a computing process's timers fire when it looks at the clock */
    return t;
}

WEFT_EXPORT int gettimeofday(struct timeval *tv, void *tz) {
    if (!weft_engaged()) return get_real_gettimeofday()(tv, tz);
    uint64_t r = weft_real_observe();
    tv = WEFT_OPAQUE(tv);
    if (tv) {
        tv->tv_sec = (time_t)(r / NS);
        tv->tv_usec = (suseconds_t)((r % NS) / 1000);
    }
    if (tz) { struct timezone *z = tz; z->tz_minuteswest = 0; z->tz_dsttime = 0; }
    WEFT_TRACE("gettimeofday", "-> %lu us", (unsigned long)(r / 1000));
    weft_timer_poll();
    return 0;
}

WEFT_EXPORT int clock_gettime(clockid_t c, struct timespec *ts) {
    if (!weft_engaged()) return get_real_clock_gettime()(c, ts);
    ts = WEFT_OPAQUE(ts);
    if (!ts) { errno = EFAULT; return -1; }
    uint64_t v = is_realtime(c) ? weft_real_observe() : weft_mono_observe();
    to_ts(v, ts);
    WEFT_TRACE("clock_gettime", "%d -> %lu ns", (int)c, (unsigned long)v);
    weft_timer_poll();
    return 0;
}

WEFT_EXPORT int clock_getres(clockid_t c, struct timespec *res) {
    if (!weft_engaged()) return get_real_clock_getres()(c, res);
    if (res) { res->tv_sec = 0; res->tv_nsec = 1; }
    WEFT_TRACE("clock_getres", "%d -> 1ns", (int)c);
    return 0;
}

WEFT_EXPORT int timespec_get(struct timespec *ts, int base) {
    if (!weft_engaged()) return get_real_timespec_get()(ts, base);
    if (base != TIME_UTC) return 0;
    uint64_t r = weft_real_observe();
    ts = WEFT_OPAQUE(ts);
    if (ts) to_ts(r, ts);
    WEFT_TRACE("timespec_get", "-> %lu ns", (unsigned long)r);
    return base;
}

WEFT_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem) {
    if (!weft_engaged()) return get_real_nanosleep()(req, rem);
    if (!valid_ts(req)) { errno = EINVAL; return -1; }
    uint64_t left;
    int intr = sleep_ns(ts_ns(req), &left);
    rem = WEFT_OPAQUE(rem);
    if (rem) to_ts(left, rem);
    WEFT_TRACE("nanosleep", "%lu ns%s", (unsigned long)ts_ns(req), intr ? " (interrupted)" : "");
    if (intr) { errno = EINTR; return -1; }
    return 0;
}

WEFT_EXPORT int clock_nanosleep(clockid_t c, int flags, const struct timespec *req, struct timespec *rem) {
    if (!weft_engaged()) return get_real_clock_nanosleep()(c, flags, req, rem);
    if (!valid_ts(req)) return EINVAL; /* clock_nanosleep returns the error number */
    uint64_t t = ts_ns(req);
    int intr;
    if (flags & TIMER_ABSTIME) {
        if (c == CLOCK_REALTIME) t = t > weft_cfg.real_base_ns ? t - weft_cfg.real_base_ns : 0;
        intr = sleep_until_or_signal(t);
    } else {
        uint64_t left;
        intr = sleep_ns(t, &left);
        rem = WEFT_OPAQUE(rem);
        if (rem) to_ts(left, rem);
    }
    WEFT_TRACE("clock_nanosleep", "%d %s %lu ns%s", (int)c, (flags & TIMER_ABSTIME) ? "abs" : "rel", (unsigned long)t,
               intr ? " (interrupted)" : "");
    return intr ? EINTR : 0;
}

WEFT_EXPORT unsigned sleep(unsigned s) {
    if (!weft_engaged()) return get_real_sleep()(s);
    uint64_t left;
    sleep_ns((uint64_t)s * NS, &left);
    WEFT_TRACE("sleep", "%u s", s);
    /* glibc's sleep returns the whole seconds left, truncated; on a machine some time always passes
     * between the expiry and the return, so an exact remainder reads as a hair less */
    return left ? (unsigned)((left - 1) / NS) : 0;
}

WEFT_EXPORT int usleep(useconds_t u) {
    if (!weft_engaged()) return get_real_usleep()(u);
    int intr = sleep_ns((uint64_t)u * 1000, NULL);
    WEFT_TRACE("usleep", "%u us", (unsigned)u);
    if (intr) { errno = EINTR; return -1; }
    return 0;
}
