/*
 * super_answer.c - what a notified system call returns: the same rules as the shim's hooks
 * (docs/shim.md "What is intercepted"), applied to the calling process's own clock and stream.
 *
 *   clock_gettime, gettimeofday, time   a reading advances the process's clock by 1 µs; realtime
 *                                       (REALTIME, _COARSE, TAI, REALTIME_ALARM) is the run's
 *                                       2000-epoch base + monotonic, every other clock monotonic
 *   clock_getres                        1 ns
 *   times, getrusage                    CPU time = a reading - the clock when the image began;
 *                                       times: user time and the monotonic clock in 100 Hz ticks,
 *                                       the rest 0; getrusage: every field 0 but ru_utime
 *   nanosleep, clock_nanosleep          advance the clock (absolute: to the deadline), return at once;
 *                                       inside a shimmed tree the target's sleep waits for its turn
 *                                       (super_turns.c), another process's runs in real time after
 *   getrandom                           stream 1 of the process
 *   getcpu                              cpu 0, node 0
 *   rseq                                ENOSYS: a registered rseq area carries the real CPU number,
 *                                       which glibc 2.35+ reads for sched_getcpu; refused, libc
 *                                       falls back to getcpu (as with glibc.pthread.rseq=0)
 *
 * Results are written into the child with process_vm_writev, which honours page protections
 * like the kernel's copy_to_user: a bad pointer is EFAULT, as the real call would say.
 * Everything else the filter notifies (process creation, exec, arch_prctl) continues unchanged.
 */
#include "super.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <time.h>

#define NS 1000000000ULL
#define GETRANDOM_MAX 33554431UL /* the kernel's own per-call cap */

super_counts super_stats;

/* Set when the kernel refuses us the child's memory (EPERM: Yama ptrace_scope 2/3, a security
 * module): then every call continues unanswered rather than failing with EFAULT. */
static int writes_denied;

static int put(pid_t tid, uint64_t addr, const void *src, size_t n) {
    struct iovec local = {(void *)src, n}, remote = {(void *)(uintptr_t)addr, n};
    if (process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)n) return 0;
    if (errno == EPERM && !writes_denied++)
        weft_errline("[weft] WARNING: supervisor: not allowed to write into the target (EPERM; see"
                     " /proc/sys/kernel/yama/ptrace_scope); its system calls run unanswered");
    return -EFAULT;
}

static int get(pid_t tid, uint64_t addr, void *dst, size_t n) {
    struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)addr, n};
    return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -EFAULT;
}

static uint64_t observe(super_proc *p) { return p->mono_ns += 1000; }

static int is_realtime(uint64_t clk) {
    return clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE || clk == CLOCK_TAI ||
           clk == CLOCK_REALTIME_ALARM;
}

static int put_timespec(pid_t tid, uint64_t addr, uint64_t ns) {
    struct timespec ts = {(time_t)(ns / NS), (long)(ns % NS)};
    return put(tid, addr, &ts, sizeof ts);
}

/* A timespec argument: EFAULT when unreadable, EINVAL when out of range (as the kernel). */
static int get_duration(pid_t tid, uint64_t addr, uint64_t *ns) {
    struct timespec ts;
    if (get(tid, addr, &ts, sizeof ts)) return -EFAULT;
    if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long)NS) return -EINVAL;
    uint64_t s = (uint64_t)ts.tv_sec;
    *ns = s > (UINT64_MAX - (uint64_t)ts.tv_nsec) / NS ? UINT64_MAX : s * NS + (uint64_t)ts.tv_nsec;
    return 0;
}

static long answer_getrandom(super_proc *p, pid_t tid, const uint64_t *a) {
    if (a[2] & ~(uint64_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE)) return -EINVAL;
    uint64_t len = a[1] > GETRANDOM_MAX ? GETRANDOM_MAX : a[1];
    unsigned char chunk[4096];
    for (uint64_t done = 0; done < len;) {
        size_t n = len - done > sizeof chunk ? sizeof chunk : (size_t)(len - done);
        weft_chacha_fill(&p->entropy, chunk, n);
        /* a fault after some bytes: the kernel would return the count copied so far */
        if (put(tid, a[0] + done, chunk, n)) return done ? (long)done : -EFAULT;
        done += n;
    }
    super_stats.getrandom++;
    WEFT_TRACE("super getrandom", "%d, %lu -> %lu", (int)p->tgid, (unsigned long)a[1], (unsigned long)len);
    return (long)len;
}

static long answer_clock(super_proc *p, pid_t tid, int nr, const uint64_t *a) {
    uint64_t v;
    long rc = 0;
    switch (nr) {
    case SYS_clock_gettime:
        v = is_realtime(a[0]) ? weft_cfg.real_base_ns + observe(p) : observe(p);
        if (put_timespec(tid, a[1], v)) return -EFAULT;
        break;
    case SYS_gettimeofday: {
        v = weft_cfg.real_base_ns + observe(p);
        struct timeval tv = {(time_t)(v / NS), (suseconds_t)(v % NS / 1000)};
        static const struct timezone utc;
        if (a[0] && put(tid, a[0], &tv, sizeof tv)) return -EFAULT;
        if (a[1] && put(tid, a[1], &utc, sizeof utc)) return -EFAULT;
        break;
    }
    case SYS_time:
        v = weft_cfg.real_base_ns + observe(p);
        rc = (long)(v / NS);
        if (a[0] && put(tid, a[0], &rc, sizeof rc)) return -EFAULT;
        break;
    default: /* clock_getres */
        v = 1;
        if (a[1] && put_timespec(tid, a[1], 1)) return -EFAULT;
        break;
    }
    super_stats.clock++;
    WEFT_TRACE("super clock", "%d, nr %d -> %lu ns", (int)p->tgid, nr, (unsigned long)v);
    return rc;
}

/* As hook_proc.c answers them: one reading each; system and children's times, memory and fault
 * counters (host facts) are 0. */
#define CLK_TCK_NS (NS / 100)
static long answer_cputime(super_proc *p, pid_t tid, int nr, const uint64_t *a) {
    long rc = 0;
    if (nr == SYS_getrusage && a[0] != (uint64_t)RUSAGE_SELF && a[0] != (uint64_t)RUSAGE_CHILDREN &&
        a[0] != (uint64_t)RUSAGE_THREAD)
        return -EINVAL;
    uint64_t now = observe(p), cpu = now > p->origin_ns ? now - p->origin_ns : 0;
    if (nr == SYS_times) {
        struct tms t = {.tms_utime = (clock_t)(cpu / CLK_TCK_NS)};
        if (a[0] && put(tid, a[0], &t, sizeof t)) return -EFAULT;
        rc = (long)(now / CLK_TCK_NS);
    } else {
        struct rusage u;
        memset(&u, 0, sizeof u);
        if ((int)a[0] != RUSAGE_CHILDREN) {
            u.ru_utime.tv_sec = (time_t)(cpu / NS);
            u.ru_utime.tv_usec = (suseconds_t)(cpu % NS / 1000);
        }
        if (put(tid, a[1], &u, sizeof u)) return -EFAULT;
    }
    super_stats.cputime++;
    WEFT_TRACE("super cputime", "%d, nr %d -> %lu ns", (int)p->tgid, nr, (unsigned long)cpu);
    return rc;
}

/* A sleep's answer: the clock moves to the wake instant. Inside a shimmed tree the target's sleep
 * is a turn of the tree's scheduler (super_turns.c); where it is not (no turns taken, or another
 * process of the supervised tree) the clock moves and the wait runs in real time (SLEEP_REAL). */
#define SLEEP_REAL 1
static long answer_sleep(super_proc *p, const struct seccomp_notif *n, const uint64_t *a) {
    pid_t tid = (pid_t)n->pid;
    int absolute = n->data.nr == SYS_clock_nanosleep && (a[1] & TIMER_ABSTIME);
    uint64_t req = n->data.nr == SYS_nanosleep ? a[0] : a[2]; /* rem is only written when interrupted */
    uint64_t ns;
    int err = get_duration(tid, req, &ns);
    if (err) return err;
    uint64_t wake;
    if (absolute) {
        uint64_t target = is_realtime(a[0]) ? (ns > weft_cfg.real_base_ns ? ns - weft_cfg.real_base_ns : 0) : ns;
        wake = target > p->mono_ns ? target : p->mono_ns;
    } else {
        wake = ns > UINT64_MAX - p->mono_ns ? UINT64_MAX : p->mono_ns + ns;
    }
    super_stats.sleep++;
    WEFT_TRACE("super sleep", "%d, %s %lu ns", (int)p->tgid, absolute ? "until" : "for", (unsigned long)ns);
    if (super_join.active) {
        int turned = super_turns_sleep(p, wake, n->id);
        if (turned == 2) return -EINTR; /* the call is gone (its process died): nobody reads this */
        if (turned == 1) return 0;
        p->mono_ns = wake;
        return SLEEP_REAL;
    }
    p->mono_ns = wake;
    return 0;
}

static long answer_getcpu(pid_t tid, const uint64_t *a) {
    static const unsigned zero;
    if (a[0] && put(tid, a[0], &zero, sizeof zero)) return -EFAULT;
    if (a[1] && put(tid, a[1], &zero, sizeof zero)) return -EFAULT;
    super_stats.getcpu++;
    return 0;
}

void super_answer(super_proc *p, const struct seccomp_notif *n, struct seccomp_notif_resp *r) {
    pid_t tid = (pid_t)n->pid;
    if (writes_denied) {
        r->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        super_stats.continued++;
        return;
    }
    uint64_t a[6];
    for (int i = 0; i < 6; i++) a[i] = n->data.args[i];
    long v;
    switch (n->data.nr) {
    case SYS_getrandom: v = answer_getrandom(p, tid, a); break;
    case SYS_clock_gettime:
    case SYS_gettimeofday:
    case SYS_time:
    case SYS_clock_getres: v = answer_clock(p, tid, n->data.nr, a); break;
    case SYS_nanosleep:
    case SYS_clock_nanosleep:
        v = answer_sleep(p, n, a);
        if (v == SLEEP_REAL) {
            r->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
            super_stats.continued++;
            return;
        }
        break;
    case SYS_times:
    case SYS_getrusage: v = answer_cputime(p, tid, n->data.nr, a); break;
    case SYS_getcpu: v = answer_getcpu(tid, a); break;
    case SYS_rseq: v = -ENOSYS; super_stats.rseq++; break;
    default:
        r->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        super_stats.continued++;
        return;
    }
    if (writes_denied) { /* this very call found out: let it run as if never stopped */
        r->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        super_stats.continued++;
    } else if (v < 0 && v > -4096) {
        r->error = (int32_t)v;
        super_stats.failed++;
    } else {
        r->val = v;
    }
}
