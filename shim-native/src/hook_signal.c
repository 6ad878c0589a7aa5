/*
 * hook_signal.c - signals between the processes of a run's tree under process scheduling
 * (issue 18 item 1): they are scheduler states, delivered at deterministic points.
 *
 *   - While a process (or a managed thread) waits for its turn, it blocks every asynchronous
 *     signal (weft_pt_mask_signals, from proc_sched.c's token wait and sched.c's thread-token
 *     wait); a signal another process sends meanwhile stays pending. When the turn comes the mask
 *     is restored and the pending handlers run right there - at the start of the receiver's turn,
 *     a point the schedule decides, with the token held.
 *   - kill, sigqueue and tgkill to another process of the tree are process yield points (after the
 *     real call), so the receiver may run - and handle the signal - next.
 *   - pause, sigwait, sigwaitinfo and sigtimedwait are waits that are ready when a signal is there:
 *     a process wait (sigtimedwait's timeout bounded in virtual time, like poll's), or, in a
 *     managed thread, a wait in the thread model. (sigsuspend is hook_io.c's.)
 *
 * Never blocked: SIGKILL and SIGSTOP (the kernel refuses), the synchronous signals a fault raises
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS: blocked, a fault would kill the process; the
 * rdtsc trap and the backstop use two of them) and glibc's internal SIGCANCEL/SIGSETXID (32, 33:
 * setuid in a threaded process waits until every thread has handled SIGSETXID).
 *
 * Safety: raw system calls only, no allocation. The handlers run when the mask is restored, with
 * the token held and weft_depth back at 0, so their hooks behave as anywhere in the program (a
 * write in a handler is a yield point like any other; the token wait that follows is a nested
 * one, which returns with the token held again).
 */
#include "sched_model.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BIT(sig) (1ULL << ((sig) - 1))
#define NEVER_BLOCKED (BIT(SIGKILL) | BIT(SIGSTOP) | BIT(SIGSEGV) | BIT(SIGBUS) | BIT(SIGFPE) | BIT(SIGILL) | \
                       BIT(SIGTRAP) | BIT(SIGSYS) | BIT(32) | BIT(33))

_Atomic uint64_t weft_sig_handled;

void weft_pt_mask_signals(uint64_t *saved) {
    uint64_t all = ~NEVER_BLOCKED;
    if (weft_real_syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, saved, 8, 0, 0) != 0) *saved = 0;
}

/*
 * A fork child runs in real time until it waits for its first turn (in the fork child handler), and
 * a signal its parent sends right after the fork would run its handler there, at a real-time
 * point, in a child that still believes it is its parent (the slot is taken in that handler). So
 * under process scheduling the parent blocks signals across the fork (pthread_atfork prepare) and
 * restores its mask after it; the child keeps them blocked until the end of its first token wait,
 * where the mask from before the fork is restored instead of the all-blocked one (or in the child
 * handler, when the child does not take part in scheduling). The constructor registers after
 * proc_tree.c's (engine.c runs first: link order), so this child handler runs after the one that
 * waits for the turn.
 */
static int fork_masked;            /* inherited by the child: its first token wait restores fork_mask */
static uint64_t fork_mask;

static void fork_prepare(void) {
    if (!weft_init() || !weft_pt_active()) return;
    weft_pt_mask_signals(&fork_mask);
    fork_masked = 1;
}
static void fork_parent(void) {
    if (!fork_masked) return;
    fork_masked = 0;
    weft_real_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &fork_mask, NULL, 8, 0, 0);
}
static void fork_child(void) {
    if (fork_masked && !weft_pt_active()) fork_parent();
}
__attribute__((constructor)) static void signal_ctor(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

static uint64_t pending_now_raw(void) {
    uint64_t p = 0;
    weft_real_syscall(SYS_rt_sigpending, &p, 8, 0, 0, 0, 0);
    return p;
}

/*
 * The signals pending for thread `tid` of this process (its own and the process's). A wait in the
 * thread model is probed by whichever thread decides, whose rt_sigpending would answer for itself:
 * a signal sent to the waiting thread alone (pthread_kill, a timer's SIGEV_THREAD_ID) would never
 * be seen and the wait never end. So another thread's set is read from /proc/self/task/TID/status
 * (SigPnd, ShdPnd), with raw calls and a stack buffer.
 */
static uint64_t hex_after(const char *buf, long n, const char *key) {
    size_t k = strlen(key);
    for (long i = 0; i + (long)k < n; i++) {
        if ((i == 0 || buf[i - 1] == '\n') && memcmp(buf + i, key, k) == 0) {
            uint64_t v = 0;
            for (long j = i + (long)k; j < n; j++) {
                char c = buf[j];
                if (c == ' ' || c == '\t') continue;
                int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (d < 0) break;
                v = v << 4 | (uint64_t)d;
            }
            return v;
        }
    }
    return 0;
}

uint64_t weft_sig_pending_of(int tid) {
    if (tid <= 0 || tid == (int)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0)) return pending_now_raw();
    char path[48], buf[2048];
    weft_fmt(path, sizeof path, "/proc/self/task/%d/status", tid);
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (fd < 0) return pending_now_raw();
    long n = weft_real_syscall(SYS_read, fd, buf, sizeof buf, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    if (n <= 0) return pending_now_raw();
    return hex_after(buf, n, "SigPnd:") | hex_after(buf, n, "ShdPnd:");
}

/* The kernel's struct for rt_sigaction (not glibc's). */
struct ksigaction { void *handler; unsigned long flags; void *restorer; uint64_t mask; };

/* Restores the mask saved by weft_pt_mask_signals: the pending signals it lets through are
 * delivered now. Those with a handler are counted first (pause's probe: a handler ran). */
void weft_pt_unmask_signals(const uint64_t *saved) {
    if (fork_masked) { /* a fork child's first turn: the mask from before the fork */
        fork_masked = 0;
        saved = &fork_mask;
    }
    uint64_t pending = 0;
    if (weft_real_syscall(SYS_rt_sigpending, &pending, 8, 0, 0, 0, 0) == 0) {
        pending &= ~*saved & ~NEVER_BLOCKED;
        for (int sig = 1; pending && sig <= 64; sig++) {
            if (!(pending & BIT(sig))) continue;
            pending &= ~BIT(sig);
            struct ksigaction old;
            if (weft_real_syscall(SYS_rt_sigaction, sig, NULL, &old, 8, 0, 0) == 0 && old.handler != SIG_DFL &&
                old.handler != SIG_IGN)
                atomic_fetch_add(&weft_sig_handled, 1);
        }
    }
    weft_real_syscall(SYS_rt_sigprocmask, SIG_SETMASK, saved, NULL, 8, 0, 0);
}

/*
 * The signals pending for this process that its own mask (`saved`, the one its turn restores)
 * lets through and that the tree did not send (`from_tree`, the marks of weft_pt_tree_signal):
 * a real-time timer's or the outside world's, whose moment is real time anyway (proc_sched.c's
 * outside_signal_overdue). Not counted: SIGCHLD (a child's exit is the tree's own, scheduled
 * event), signals ignored (SIG_IGN, or SIG_DFL whose default is to ignore): their delivery does
 * nothing. A process in sigsuspend or a sigwait waits for signals its mask blocks (coreutils'
 * timeout blocks SIGALRM and takes it in sigsuspend): those count too (signal_wait_begin). Raw
 * system calls, no allocation; the wait's set is a plain static of the waiting thread's process
 * (saved and restored around a wait, so a nested wait in a handler run at a turn's start is fine).
 */
static uint64_t wait_lets_through;  /* during a sigsuspend/sigwait wait: the signals it waits for */
static int in_signal_wait;

uint64_t weft_pt_outside_pending(const uint64_t *saved, uint64_t from_tree) {
    uint64_t pending = pending_now_raw();
    uint64_t through = ~(fork_masked ? fork_mask : *saved) | (in_signal_wait ? wait_lets_through : 0);
    pending &= through & ~NEVER_BLOCKED & ~from_tree & ~BIT(SIGCHLD);
    for (int sig = 1; sig <= 64 && (pending >> (sig - 1)); sig++) {
        if (!(pending & BIT(sig))) continue;
        struct ksigaction old;
        if (weft_real_syscall(SYS_rt_sigaction, sig, NULL, &old, 8, 0, 0) != 0 || old.handler == SIG_IGN ||
            (old.handler == SIG_DFL && (sig == SIGCONT || sig == SIGURG || sig == SIGWINCH)))
            pending &= ~BIT(sig);
    }
    return pending;
}

/* Around a process wait for signals: `through` = the signals it waits for. Returns the previous
 * state for signal_wait_end (a nested wait, from a handler run at a turn's start). */
uint64_t weft_sig_wait_begin(uint64_t through) {
    uint64_t prev = in_signal_wait ? wait_lets_through : 0;
    wait_lets_through = through;
    in_signal_wait++;
    return prev;
}
void weft_sig_wait_end(uint64_t prev) {
    in_signal_wait--;
    wait_lets_through = prev;
}

/* ------------------------------------------------------------------ sending */

typedef int (*kill_fn)(pid_t, int);
typedef int (*sigqueue_fn)(pid_t, int, const union sigval);
typedef int (*tgkill_fn)(pid_t, pid_t, int);
REAL_FN(kill_fn, kill)
REAL_FN(sigqueue_fn, sigqueue)
REAL_FN(tgkill_fn, tgkill)

/* After a signal went to `pid` (kill's meaning: > 0 a process, 0 or < -1 a group, -1 everyone):
 * a process yield point unless it can only have reached this process. */
static void sending(pid_t pid, int sig) {
    if (sig != 0 && weft_engaged() && weft_pt_active()) weft_pt_tree_signal(pid, sig);
}

static void sent(int rc, pid_t pid, int sig) {
    if (rc != 0 || sig == 0 || !weft_engaged() || !weft_pt_active()) return;
    if (pid > 0 && !weft_pt_in_tree(pid)) return;
    WEFT_TRACE("kill", "pid %d sig %d", (int)pid, sig);
    weft_pt_yield("kill");
}

WEFT_EXPORT int kill(pid_t pid, int sig) {
    sending(pid, sig);
    int rc = get_real_kill()(pid, sig);
    sent(rc, pid, sig);
    return rc;
}
WEFT_EXPORT int sigqueue(pid_t pid, int sig, const union sigval v) {
    sending(pid, sig);
    int rc = get_real_sigqueue()(pid, sig, v);
    sent(rc, pid, sig);
    return rc;
}
WEFT_EXPORT int tgkill(pid_t tgid, pid_t tid, int sig) {
    sending(tgid, sig);
    int rc = get_real_tgkill()(tgid, tid, sig);
    sent(rc, tgid, sig);
    return rc;
}

/* ------------------------------------------------------------------ waiting */

typedef int (*pause_fn)(void);
typedef int (*sigwait_fn)(const sigset_t *, int *);
typedef int (*sigwaitinfo_fn)(const sigset_t *, siginfo_t *);
typedef int (*sigtimedwait_fn)(const sigset_t *, siginfo_t *, const struct timespec *);
REAL_FN(pause_fn, pause)
REAL_FN(sigwait_fn, sigwait)
REAL_FN(sigwaitinfo_fn, sigwaitinfo)
REAL_FN(sigtimedwait_fn, sigtimedwait)


/* pause: ready once a handler has run at a turn's start since the wait began. */
static int handler_ran(void *since) { return atomic_load(&weft_sig_handled) != *(uint64_t *)since; }

/* sigwait family: ready when a signal of the set is pending for the waiting thread (the program
 * blocks them, so they stay pending until taken). */
struct set_wait { uint64_t set; int tid; };
static int set_pending(void *arg) {
    const struct set_wait *w = arg;
    return (weft_sig_pending_of(w->tid) & w->set) != 0;
}
static struct set_wait set_wait_of(const sigset_t *set) {
    struct set_wait w = {0, (int)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0)};
    memcpy(&w.set, set, sizeof w.set);
    return w;
}

/* Waits for ready(arg): 1 ready, 0 the deadline passed (clock moved there), -1 make the real call.
 * A managed thread waits in the thread model even without process scheduling when the probe does
 * not depend on it (a pending signal is there either way; "a handler ran" is only counted at the
 * start of a turn, so pause needs process scheduling). */
static int signal_wait(int (*ready)(void *), void *arg, uint64_t deadline, int needs_turns) {
    if (!weft_engaged() || !(weft_pt_active() || (!needs_turns && sched_engaged()))) return -1;
    uint64_t through = 0;
    if (ready == set_pending) through = ((const struct set_wait *)arg)->set;
    uint64_t prev = weft_sig_wait_begin(through);
    int r = ps_wait(ready, arg, deadline, S_SIGNAL_WAIT);
    weft_sig_wait_end(prev);
    return r == PW_READY ? 1 : r == PW_TIMEOUT ? 0 : -1;
}

/* pause with a timer of this process armed (hook_timer.c): the wait is bounded by its expiry; when
 * nothing else ended it first, the clock moves there and the signal is sent. 1: a handler ran. */
static int timer_bounded(int (*ready)(void *), void *arg, int needs_turns) {
    for (;;) {
        uint64_t t = weft_timer_next();
        if (!t || !weft_engaged()) return 0;
        weft_timer_main_wait(t); /* a process-directed expiry is the main thread's (hook_timer.c) */
        int r = signal_wait(ready, arg, t, needs_turns);
        weft_timer_main_wait(0);
        if (r == 1) return 1;
        /* no scheduler to wait in: nothing but the timer can come in virtual time, so the clock jumps */
        if (r == -1) weft_mono_at_least(t);
        if (weft_timer_fire_due()) return 1;
        if (ready(arg)) return 1;
    }
}

/* sigsuspend (hook_io.c) with a timer armed: waits until a signal the suspend mask lets through is
 * pending (`ready`) or the timer's expiry, which then fires. 1: a handler ran (EINTR at once). */
int weft_timer_suspend(int (*ready)(void *), void *mask) {
    uint64_t m;
    memcpy(&m, mask, sizeof m);
    uint64_t prev = weft_sig_wait_begin(~m);
    int handled = 0;
    for (;;) {
        uint64_t t = weft_timer_next();
        if (!t || ready(mask)) break;
        int w = weft_pt_active() || sched_engaged() ? ps_wait(ready, mask, t, S_SIGNAL_WAIT) : PW_REAL;
        if (w == PW_READY) break;
        if (w != PW_TIMEOUT) weft_mono_at_least(t); /* nobody else to wait for: the clock jumps */
        if (weft_timer_fire_due()) { handled = 1; break; }
    }
    weft_sig_wait_end(prev);
    return handled;
}

/* sigsuspend in a managed thread (hook_io.c): a wait in the thread model (and the tree's, ps_wait)
 * until a signal its mask lets through is pending for this thread; any deciding thread may probe it,
 * so the probe reads this thread's own pending set (a signal sent to it alone included). */
struct thread_suspend { uint64_t mask; int tid; };
static int thread_signal_ready(void *arg) {
    const struct thread_suspend *t = arg;
    return (weft_sig_pending_of(t->tid) & ~t->mask) != 0;
}

void weft_sig_suspend_wait(const void *mask) {
    struct thread_suspend t = {0, (int)weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0)};
    memcpy(&t.mask, mask, sizeof t.mask);
    uint64_t prev = weft_sig_wait_begin(~t.mask);
    /* a signal sent to the process may have been taken by another thread (it was pending for all)
     * by the time this one runs: then it waits again rather than block for real with the token */
    while (ps_wait(thread_signal_ready, &t, 0, S_SIGNAL_WAIT) == PW_READY && !thread_signal_ready(&t)) {}
    weft_sig_wait_end(prev);
}

WEFT_EXPORT int pause(void) {
    uint64_t since = atomic_load(&weft_sig_handled);
    WEFT_TRACE("pause", "%s", "a wait for a signal");
    if (timer_bounded(handler_ran, &since, 1)) { errno = EINTR; return -1; }
    if (signal_wait(handler_ran, &since, 0, 1) == 1) { errno = EINTR; return -1; }
    return get_real_pause()();
}

WEFT_EXPORT int sigwait(const sigset_t *set, int *sig) {
    set = WEFT_OPAQUE(set);
    if (set) { struct set_wait w = set_wait_of(set); signal_wait(set_pending, &w, 0, 0); }
    return get_real_sigwait()(set, sig);
}

WEFT_EXPORT int sigwaitinfo(const sigset_t *set, siginfo_t *info) {
    set = WEFT_OPAQUE(set);
    if (set) { struct set_wait w = set_wait_of(set); signal_wait(set_pending, &w, 0, 0); }
    return get_real_sigwaitinfo()(set, info);
}

/* A finite timeout is bounded in virtual time: it elapses when the tree is idle (EAGAIN, the clock
 * moved by the timeout); a zero timeout stays the real call's probe. */
WEFT_EXPORT int sigtimedwait(const sigset_t *set, siginfo_t *info, const struct timespec *t) {
    set = WEFT_OPAQUE(set);
    t = WEFT_OPAQUE(t);
    if (set && (!t || t->tv_sec > 0 || t->tv_nsec > 0) && (!t || (t->tv_sec >= 0 && t->tv_nsec < 1000000000L))) {
        uint64_t deadline = t ? weft_mono_peek() + (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec : 0;
        /* without process scheduling a managed thread's timeout would fire as soon as its threads all
         * wait, before a process running freely could send: then it stays the real call */
        struct set_wait w = set_wait_of(set);
        if (signal_wait(set_pending, &w, deadline, deadline != 0) == 0) { errno = EAGAIN; return -1; }
    }
    return get_real_sigtimedwait()(set, info, t);
}
