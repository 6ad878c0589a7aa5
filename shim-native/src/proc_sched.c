/*
 * proc_sched.c - the run segment: one small shared-memory file that every process of a run's tree
 * maps, so processes can tell each other what a fork/exec/wait cannot carry (issue 18).
 *
 *   1. Children's virtual time. Each process of the tree has a slot (pid, state, last clock). A
 *      process writes its clock into its slot when it exits (library destructor, _exit/_Exit) and
 *      before every exec; when a parent reaps a child (waitpid, wait, wait4, waitid), its clock
 *      advances to at least the child's last clock and the slot is freed. The child's clock is a
 *      function of its own deterministic run, so the parent's clock after the wait is too.
 *   2. Process scheduling (the default; off with WEFT_PROC_SCHED=0, for network nodes, or without
 *      the thread scheduler): a run token passed between processes like the in-process scheduler
 *      passes its token between threads. Exactly one process of the tree runs between yield
 *      points; at a yield point the holder draws the next holder from a run-wide stream (kept in
 *      the segment, advanced only by the holder) among the processes that are runnable or
 *      waiting, in ascending slot order. The holder publishes its clock when it hands over and the
 *      next one adopts it: one clock for the tree. A daemon (setsid, parent gone) leaves the tree.
 *      See "Process scheduling" in docs/shim.md for the yield points and what is missing. The
 *      rules that pick the next holder (proc_turns.h) are shared with weft_super, which takes
 *      turns for a static image exec'd inside the tree (super/super_turns.c).
 *
 * Where it lives: /dev/shm/weft-run-<16 hex> (or /tmp/... when /dev/shm is unusable), created
 * with raw system calls by a process at its first fork/spawn when it has none (normally the root),
 * mapped MAP_SHARED (fork children inherit the mapping; exec'd images open it by the name in
 * WEFT_PROC's fourth field) and unlinked when its creator exits. Slots are found by pid: every
 * process of one run lives in the run's PID namespace (or the host's), so live pids are unique.
 *
 * Safety. Nothing here allocates: the segment is a fixed struct, every system call is
 * weft_real_syscall. Slots are claimed with compare-and-swap on the pid, so concurrent claims by
 * processes running freely cannot collide. The scheduling state (holder, stream, cursor) is only
 * written by the process holding the token, which is what makes it deterministic; the token
 * words are process-shared futexes (no FUTEX_PRIVATE flag: the same physical page in every
 * process). weft_depth is raised while a process waits for the token, so a signal handler that
 * runs meanwhile passes through every hook instead of taking a turn it does not hold.
 */
#include "weft.h"
#include "proc_seg.h"
#include "proc_turns.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <stdio.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NONE PT_NONE

static pt_seg *seg;             /* NULL: no run segment (a single process, or it could not be made) */
static int my_slot = NONE;
static int created_seg;         /* this image made the segment (and unlinks it at exit) */
static char seg_path[64];
static uint64_t seg_name;
static int pending_child = NONE; /* the slot reserved for the child of the fork/spawn in progress */
static int sched_on;            /* this process takes part in process scheduling */
static int exited;
static int new_session;         /* this image (or its parent before the fork) called setsid */

static int32_t raw_pid(void) { return (int32_t)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0); }
static int32_t raw_ppid(void) { return (int32_t)weft_real_syscall(SYS_getppid, 0, 0, 0, 0, 0, 0); }

static void make_path(uint64_t name, int tmp) {
    weft_fmt(seg_path, sizeof seg_path, "%s/weft-run-%lx", tmp ? "/tmp" : "/dev/shm", (unsigned long)name);
}

/*
 * Maps the segment and keeps the fd as a "this run is alive" mark: a shared flock, on an fd moved
 * to 900 or above (out of the way of shells' and programs' own numbers). Fork children share the
 * open file description, and so the lock. The fd stays open across exec, so the lock does too: a
 * run whose only process is between exec and its new image's configuration (pyenv's bash shim
 * exec'ing python) would otherwise hold no lock, and another run's collect_stale could remove its
 * segment right then (the new image then ran unscheduled: seen as a Python pool that varied once
 * in forty runs with four runs side by side). The new image locks through an fd of its own and
 * closes the one it inherited. A root killed by a signal cannot unlink the file; the next run that
 * makes a segment removes every weft-run-* file nobody holds a lock on (collect_stale).
 */
#define LOCK_FD_LOW 900
#define LOCK_FD_HIGH 1024

static pt_seg *map_fd(long fd) {
    void *p = (void *)weft_real_syscall(SYS_mmap, 0, sizeof(pt_seg), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    long high = weft_real_syscall(SYS_fcntl, fd, F_DUPFD, LOCK_FD_LOW, 0, 0, 0);
    if (high >= 0) weft_real_syscall(SYS_flock, high, LOCK_SH, 0, 0, 0, 0);
    struct stat mine, other;
    if (high >= 0 && weft_real_syscall(SYS_fstat, high, &mine, 0, 0, 0, 0) == 0) {
        for (long f = LOCK_FD_LOW; f < LOCK_FD_HIGH; f++) /* the lock fd of the image before an exec */
            if (f != high && weft_real_syscall(SYS_fstat, f, &other, 0, 0, 0, 0) == 0 && other.st_ino == mine.st_ino &&
                other.st_dev == mine.st_dev)
                weft_real_syscall(SYS_close, f, 0, 0, 0, 0, 0);
    }
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    return p == MAP_FAILED || (long)p == -1 ? NULL : p;
}

/* Removes the segments of runs that are over without having removed theirs (no process holds the
 * shared lock any more, so an exclusive one is granted at once). Raw getdents64, no allocation. */
static void collect_stale(const char *dir) {
    long dfd = weft_real_syscall(SYS_openat, AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, 0, 0);
    if (dfd < 0) return;
    char buf[4096];
    for (;;) {
        long n = weft_real_syscall(SYS_getdents64, dfd, buf, sizeof buf, 0, 0, 0);
        if (n <= 0) break;
        for (long off = 0; off < n;) {
            struct { uint64_t ino; int64_t off; unsigned short reclen; unsigned char type; char name[]; } *d =
                (void *)(buf + off);
            off += d->reclen;
            if (strncmp(d->name, "weft-run-", 9) != 0) continue;
            long fd = weft_real_syscall(SYS_openat, dfd, d->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0, 0, 0);
            if (fd < 0) continue;
            /* unlocked and complete (the magic is written only after its creator locked it): a
             * segment in the making, between its creator's open and flock, has no magic yet */
            uint64_t magic = 0;
            if (weft_real_syscall(SYS_flock, fd, LOCK_EX | LOCK_NB, 0, 0, 0, 0) == 0 &&
                weft_real_syscall(SYS_pread64, fd, &magic, sizeof magic, 0, 0, 0) == sizeof magic && magic == PT_MAGIC)
                weft_real_syscall(SYS_unlinkat, dfd, d->name, 0, 0, 0, 0);
            weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        }
    }
    weft_real_syscall(SYS_close, dfd, 0, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------ slots */

/* Slots at or above `top` were never claimed: every scan stops there. */
static int top(void) { return pt_top(seg); }

static int find_pid(int32_t pid) {
    for (int i = 0, n = top(); i < n; i++)
        if (atomic_load(&seg->slots[i].pid) == pid) return i;
    return NONE;
}

/* The lowest free slot, claimed for `pid` (a CAS: processes running freely may claim at once). */
static int claim(int32_t pid, int state) {
    for (int i = 0; i < PT_SLOTS; i++) {
        int32_t zero = 0;
        pt_slot *s = &seg->slots[i];
        if (atomic_load(&s->pid) == 0 && atomic_compare_exchange_strong(&s->pid, &zero, pid)) {
            int32_t t = atomic_load(&seg->top);
            while (t < i + 1 && !atomic_compare_exchange_weak(&seg->top, &t, i + 1)) {}
            atomic_store(&s->mono, weft_mono_peek());
            atomic_store(&s->ppid, 0);
            atomic_store(&s->session, 0);
            atomic_store(&s->room_ino, 0);
            atomic_store(&s->tree_sigs, 0);
            atomic_store(&s->ready_at, 0);
            atomic_store(&s->turn, 0);
            atomic_store(&s->fresh, pid == -1);
            atomic_store(&s->state, state);
            return i;
        }
    }
    return NONE;
}

static void free_slot(int i) {
    atomic_store(&seg->slots[i].state, PS_FREE);
    atomic_store(&seg->slots[i].mono, 0);
    atomic_store(&seg->slots[i].pid, 0);
}

/* This process's slot: the one carrying its pid, else a fresh one (a child the tree did not see
 * being made, e.g. by glibc's own spawn inside system()). */
static void own_slot(void) {
    if (!seg) return;
    int32_t me = raw_pid();
    if (my_slot != NONE && atomic_load(&seg->slots[my_slot].pid) == me) return;
    my_slot = find_pid(me);
    if (my_slot == NONE) my_slot = claim(me, PS_DONE); /* not scheduled: it was never a candidate */
    if (my_slot != NONE) atomic_store(&seg->slots[my_slot].mono, weft_mono_peek());
}

/* ------------------------------------------------------------------ making and finding the segment */

static void create_segment(void) {
    collect_stale("/dev/shm");
    collect_stale("/tmp");
    struct timespec t;
    weft_real_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t, 0, 0, 0, 0);
    uint64_t name = weft_sm_out(((uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec) ^ ((uint64_t)raw_pid() << 40));
    for (int attempt = 0; attempt < 8; attempt++, name = weft_sm_out(name)) {
        for (int tmp = 0; tmp < 2; tmp++) {
            make_path(name, tmp);
            long fd = weft_real_syscall(SYS_openat, AT_FDCWD, seg_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600, 0, 0);
            if (fd < 0) { if (errno == EEXIST) break; continue; }
            if (weft_real_syscall(SYS_ftruncate, fd, sizeof(pt_seg), 0, 0, 0, 0) != 0 || !(seg = map_fd(fd))) {
                weft_real_syscall(SYS_unlinkat, AT_FDCWD, seg_path, 0, 0, 0, 0);
                seg = NULL;
                continue;
            }
            seg_name = name;
            created_seg = 1;
            seg->magic = PT_MAGIC;
            weft_ft_attach(seg->files, 1);
            atomic_store(&seg->holder, NONE);
            if (sched_on) {
                uint8_t key[32];
                weft_expand(weft_sm_out(weft_cfg.seed ^ 0x70726f6373636864ULL), key); /* "procschd" */
                weft_chacha_init(&seg->g, key, 8);
                atomic_store(&seg->sched, 1);
            }
            my_slot = claim(raw_pid(), PS_RUN);
            if (my_slot != NONE) atomic_store(&seg->slots[my_slot].ppid, raw_ppid());
            if (sched_on) {
                atomic_store(&seg->holder, my_slot);
                atomic_store(&seg->slots[my_slot].turn, 0);
            }
            return;
        }
    }
    sched_on = 0;
}

/* From weft_proc_configure: a run segment named by WEFT_PROC (0 = none yet). Raw system calls
 * only, like the rest of configuration. */
void weft_pt_configure(uint64_t name, int want_sched) {
    sched_on = want_sched && weft_cfg.sched;
    if (!name) return;
    for (int tmp = 0; tmp < 2 && !seg; tmp++) {
        make_path(name, tmp);
        long fd = weft_real_syscall(SYS_openat, AT_FDCWD, seg_path, O_RDWR | O_CLOEXEC, 0, 0, 0);
        if (fd >= 0) seg = map_fd(fd);
    }
    if (!seg || seg->magic != PT_MAGIC) { seg = NULL; sched_on = 0; return; }
    seg_name = name;
    weft_ft_attach(seg->files, 0);
    sched_on = sched_on && atomic_load(&seg->sched) && !atomic_load(&seg->disabled);
}

uint64_t weft_pt_name(void) { return seg ? seg_name : 0; }
int weft_pt_slot(void) { return my_slot; }
int weft_pt_pending_child(void) { return pending_child; }

/* ------------------------------------------------------------------ the run token */

static int scheduling(void) {
    return sched_on && seg && my_slot != NONE && !atomic_load_explicit(&seg->disabled, memory_order_relaxed);
}

static void futex_shared(_Atomic uint32_t *w, int op, int val, const struct timespec *t) {
    weft_real_syscall(SYS_futex, w, op, val, t, NULL, 0);
}

/*
 * One clock for the tree (issue 18: virtual time is global to the run, monotonic across the tree).
 * Whoever hands the token over publishes its clock (the maximum is kept), and whoever takes a turn
 * first moves its own clock up to it (wait_turn): a process never shows an instant earlier than one
 * another process has already shown. Only the holder publishes or adopts, at hand-overs, so the
 * clocks stay a function of the schedule. Each process still advances its own clock between turns
 * (observations, sleeps), and a process running freely neither publishes nor adopts.
 */
static void publish_clock(void) { pt_publish_clock(seg, weft_mono_peek()); }

static void adopt_clock(void) { weft_mono_at_least(atomic_load(&seg->clock)); }

static int turn_masked;          /* signals blocked since this process gave the token away */
static uint64_t turn_mask;        /* the mask its next turn restores (hook_signal.c) */

static void give(int t) {
    publish_clock();
    /* from here until its next turn this process does not hold the token: a signal handler run in
     * between would act as the holder, so signals stay pending until wait_turn's end */
    if (!turn_masked) {
        weft_pt_mask_signals(&turn_mask);
        turn_masked = 1;
    }
    pt_hand_over(seg, t);
}

/* The rules themselves are proc_turns.h's (shared with weft_super's turns, super_turns.c). */
static int candidate(int i) { return pt_candidate(seg, i); }
static int eligible(int i, uint64_t tree) { return pt_eligible(seg, i, tree); }
static int neligible(uint64_t tree) { return pt_neligible(seg, tree); }
static uint64_t earliest_wake(uint64_t tree, int *slot) { return pt_earliest_wake(seg, tree, slot); }

/* The earliest deadline among bounded waiters (0 when none). */
static uint64_t earliest_deadline(void) {
    uint64_t best = 0;
    for (int i = 0, end = top(); i < end; i++) {
        if (!candidate(i) || atomic_load(&seg->slots[i].state) != PS_WAIT) continue;
        uint64_t d = atomic_load(&seg->slots[i].ready_at);
        if (d && (!best || d < best)) best = d;
    }
    return best;
}

/* The tree is idle and the earliest bounded waiter's deadline `dl` comes before every sleeper's
 * wake: nothing can happen in the tree before it, so the tree clock moves there (token holder only;
 * never backwards). Only the waits due at that instant time out (block_now); the others go on. */
static void jump_to_deadline(uint64_t dl) {
    pt_publish_clock(seg, dl);
    WEFT_TRACE("proc_deadline", "tree idle: clock at least %lu ns (earliest deadline)", (unsigned long)dl);
}

/* The tree clock jumps to the earliest sleeper's wake (token holder only); 0 when nobody sleeps. */
static uint64_t wake_earliest(void) { return pt_wake_earliest(seg); }

/* The decision (token holder only): the holder's clock is published first, so T is its current
 * instant; then the next holder is drawn (pt_draw). NONE when there is none. */
static int decide(void) {
    publish_clock();
    return pt_draw(seg);
}

/* The next eligible candidate after `from` in slot order (cyclic), without a draw: how a waiter
 * that is not ready yet passes the token on. */
static int next_after(int from) {
    int end = top();
    uint64_t tree = atomic_load(&seg->clock);
    for (int k = 1; k <= end; k++) {
        int i = (from + k) % end;
        if (eligible(i, tree)) return i;
    }
    return NONE;
}

/* Is the process in slot t gone (exited, even if not reaped yet)? pidfd_open + poll: a pidfd is
 * readable once the process has terminated. */
static int holder_gone(int t) {
    int32_t pid = atomic_load(&seg->slots[t].pid);
    if (pid <= 0) return 0; /* reserved: its pid is about to be written */
    long fd = weft_real_syscall(SYS_pidfd_open, pid, 0, 0, 0, 0, 0);
    if (fd < 0) return errno == ESRCH;
    struct pollfd p = {.fd = (int)fd, .events = POLLIN};
    long r = weft_real_syscall(SYS_poll, &p, 1, 0, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    return r == 1;
}

#define WATCHDOG_NS 3000000000ULL

static uint64_t real_mono_ns(void) {
    struct timespec t;
    weft_real_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t, 0, 0, 0, 0);
    return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* CPU time (clock ticks, all threads) the process `pid` has used: utime + stime from
 * /proc/<pid>/stat (raw system calls, a stack buffer); -1 when it cannot be read. *running is set
 * when its main thread is running or waiting for a CPU (state R). */
static long long cpu_ticks(int32_t pid, int *running) {
    char path[40], buf[512];
    weft_fmt(path, sizeof path, "/proc/%d/stat", (int)pid);
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (fd < 0) return -1;
    long n = weft_real_syscall(SYS_read, fd, buf, sizeof buf - 1, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    if (n <= 0) return -1;
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
    if (!p) return -1;
    *running = p[1] == ' ' && p[2] == 'R';
    long long field[13] = {0};  /* from the state (field 3) on: utime is field 14, stime 15 */
    for (int f = 0; f < 13 && *p; f++) {
        while (*p && *p != ' ') p++;
        while (*p == ' ') p++;
        for (; *p >= '0' && *p <= '9'; p++) field[f] = field[f] * 10 + (*p - '0');
    }
    return field[11] + field[12];
}

/*
 * The watchdog's question: is the holder computing? A holder that is runnable, or whose CPU time
 * grew since the last look, is making progress, however long it takes (a compiler in `make -j2`),
 * and is waited for; one asleep whose CPU time stands still for BUSY_RECHECK_NS is blocked where
 * the shim cannot see. The first look only takes the reading.
 */
#define BUSY_RECHECK_NS 500000000ULL
struct cpu_seen { int32_t pid; long long ticks; };

static int holder_computing(int h, struct cpu_seen *seen) {
    int32_t pid = h != NONE ? atomic_load(&seg->slots[h].pid) : 0;
    int running = 0;
    long long t = pid > 0 ? cpu_ticks(pid, &running) : -1;
    int busy = t >= 0 && (running || pid != seen->pid || t != seen->ticks);
    seen->pid = pid;
    seen->ticks = t;
    return busy;
}

/*
 * Waits until this process holds the token. Every 50 ms it looks at the holder: one that died
 * without handing over (killed, or an image without the shim) is replaced by whoever notices
 * first (a CAS on `holder`), who then decides in its place; a holder that is alive but has not
 * handed over for WATCHDOG_NS and is not computing (blocked where the shim cannot see) makes the
 * run give process scheduling up, with a warning.
 */
/*
 * A process hands the token on from its exit path, before the kernel has closed its files and
 * made it a zombie. Whoever takes the token next first waits until that has happened (a pidfd
 * becomes readable then): otherwise whether a reader sees the pipe's end of file, or a parent the
 * child's exit, would depend on real timing rather than on the schedule.
 */
static void settle_exit(void) {
    int32_t pid = atomic_load(&seg->exiting);
    if (!pid) return;
    long fd = weft_real_syscall(SYS_pidfd_open, pid, 0, 0, 0, 0, 0);
    if (fd >= 0) {
        struct pollfd p = {.fd = (int)fd, .events = POLLIN};
        struct timespec t = {2, 0}; /* bounded: a process stuck in exit does not stop the run */
        weft_real_syscall(SYS_ppoll, &p, 1, &t, NULL, 8, 0);
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    }
    atomic_store(&seg->exiting, 0);
}

static void wait_turn_loop(void);

static void wait_turn(void) {
    /* signals from the tree stay pending while this process waits (hook_signal.c; normally give()
     * blocked them already) */
    if (!turn_masked) {
        weft_pt_mask_signals(&turn_mask);
        turn_masked = 1;
    }
    wait_turn_loop();
    pt_slot *s = &seg->slots[my_slot];
    if (!atomic_load(&seg->disabled)) {
        settle_exit();
        adopt_clock();
        /* a process that is not waiting runs now: progress, so the count of idle hand-overs restarts
         * (the holder alone writes it: this process holds the token from here on) */
        if (atomic_load(&s->state) != PS_WAIT) atomic_store(&seg->idle, 0);
    }
    /* ... and their handlers run now, at the start of its turn. A handler may reach a yield point
     * or a wait of its own (nested: it returns holding the token again); the caller's state (a
     * waiter stays a waiter) is restored after it */
    int32_t state = atomic_load(&s->state);
    uint64_t mask = turn_mask;
    if (weft_cfg.stats) { /* counted for --stats only: a look at the pending set costs system calls */
        uint64_t outside = weft_pt_outside_pending(&mask, atomic_load(&s->tree_sigs));
        if (outside) atomic_fetch_add(&seg->outside_sigs, (uint64_t)__builtin_popcountll(outside));
    }
    atomic_store(&s->tree_sigs, 0); /* they are delivered now; only the holder sends meanwhile */
    turn_masked = 0; /* before the handlers: a yield in one masks (and restores) on its own */
    weft_pt_unmask_signals(&mask);
    atomic_store(&s->state, state);
}

/*
 * A signal from outside the tree's schedule while the holder computes without a yield point
 * (audit: `timeout 2 sh -c 'while :; do :; done'` hung the run: timeout's SIGALRM stayed blocked
 * in its token wait, the holder never handed over, and the watchdog rightly waits for a holder
 * that computes). A signal this process has pending that its own mask lets through, that no
 * process of the tree sent through the kill hook (a real-time timer, SIGTERM from outside the
 * run) and that has waited OUTSIDE_SIGNAL_NS with no hand-over anywhere, makes the run give
 * process scheduling up, with a warning, and this process takes it at once (wait_turn's unmask).
 * Why giving up rather than running the handler outside the turn or preempting the holder: the
 * signal's moment is real time anyway, so no determinism is lost that the run still had; and a
 * handler run outside a turn (nested hooks passed through, a siglongjmp out of the token wait) or
 * a holder stopped between yield points would leave the token state to chance. Signals sent
 * within the tree are marked in the receiver's slot before they are sent (weft_pt_tree_signal)
 * and keep their delivery at the start of the receiver's turn. Returns 1 when it gave up.
 */
#define OUTSIDE_SIGNAL_NS 1000000000ULL

static int outside_signal_overdue(uint64_t *since) {
    uint64_t outside = weft_pt_outside_pending(&turn_mask, atomic_load(&seg->slots[my_slot].tree_sigs));
    if (!outside) { *since = 0; return 0; }
    uint64_t now = real_mono_ns();
    if (!*since) *since = now;
    if (now - *since < OUTSIDE_SIGNAL_NS) return 0;
    int sig = __builtin_ctzll(outside) + 1, zero = 0, h = atomic_load(&seg->holder);
    if (atomic_compare_exchange_strong(&seg->disabled, &zero, 1))
        weft_errline("[weft] WARNING: process %d had signal %d from outside the process tree (a real-time timer or"
                     " another program) pending for %d s while process %d computed without a yield point;"
                     " processes now run freely: their interleaving is no longer deterministic",
                     (int)raw_pid(), sig, (int)(OUTSIDE_SIGNAL_NS / 1000000000ULL),
                     h != NONE ? (int)atomic_load(&seg->slots[h].pid) : -1);
    return 1;
}

/*
 * A virtual timer of this waiting process (hook_timer.c) can only expire when the tree's clock gets
 * there, and a holder computing without a yield point never moves it (`timeout 2 sh -c 'while :;
 * do :; done'`). Once the holder has computed without a hand-over for longer in real time than the
 * timer had left in virtual time (a machine would have fired it by then; at least 100 ms), the run
 * gives process scheduling up with a warning, as for a signal from outside, and the waiter's timer
 * fires (its wait no longer waits for turns). Returns 1 when it gave up.
 */
static int timer_overdue(uint64_t since) {
    uint64_t t = weft_timer_next();
    if (!t) return 0;
    uint64_t mine = weft_mono_peek(), left = t > mine ? t - mine : 0, waited = real_mono_ns() - since;
    if (waited < left || waited < 100000000ULL) return 0;
    int zero = 0, h = atomic_load(&seg->holder);
    if (atomic_compare_exchange_strong(&seg->disabled, &zero, 1))
        weft_errline("[weft] WARNING: process %d has a virtual timer (signal %d) due while process %d computed"
                     " without a yield point for longer than the timer's delay; processes now run freely: their"
                     " interleaving is no longer deterministic",
                     (int)raw_pid(), weft_timer_next_signal(), h != NONE ? (int)atomic_load(&seg->slots[h].pid) : -1);
    return 1;
}

static void wait_turn_loop(void) {
    pt_slot *s = &seg->slots[my_slot];
    weft_depth++;
    uint64_t seen = atomic_load(&seg->handovers), since = real_mono_ns(), outside_since = 0;
    struct cpu_seen cpu = {0, -1};
    for (;;) {
        uint32_t one = 1;
        if (atomic_compare_exchange_strong(&s->turn, &one, 0)) break;
        if (atomic_load(&seg->disabled)) break;
        struct timespec t = {0, 50000000};
        futex_shared(&s->turn, FUTEX_WAIT, 0, &t);
        if (atomic_load(&s->turn)) continue;
        int h = atomic_load(&seg->holder);
        if (h != NONE && h != my_slot && holder_gone(h) && atomic_compare_exchange_strong(&seg->holder, &h, my_slot)) {
            atomic_store(&seg->slots[h].state, PS_DONE);
            int next = decide();
            if (next == my_slot || next == NONE) { atomic_store(&seg->holder, my_slot); break; }
            give(next);
            continue;
        }
        uint64_t now_seen = atomic_load(&seg->handovers);
        if (now_seen != seen) { seen = now_seen; since = real_mono_ns(); outside_since = 0; continue; }
        if (outside_signal_overdue(&outside_since)) break;
        if (timer_overdue(since)) break;
        if (real_mono_ns() - since > WATCHDOG_NS) {
            if (holder_computing(h, &cpu)) { since = real_mono_ns() - WATCHDOG_NS + BUSY_RECHECK_NS; continue; }
            int zero = 0;
            if (atomic_compare_exchange_strong(&seg->disabled, &zero, 1))
                weft_errline("[weft] WARNING: process %d held the run token for %d s without reaching a yield point"
                             " or using the CPU (blocked where the shim cannot see); processes now run"
                             " freely: their interleaving is no longer deterministic",
                             h != NONE ? (int)atomic_load(&seg->slots[h].pid) : -1, (int)(WATCHDOG_NS / 1000000000ULL));
            break;
        }
    }
    weft_depth--;
}

/* Hand the token to `next` (a decision) and wait to get it back. */
static void pass_and_wait(int next) {
    if (next == my_slot) return;
    if (next == NONE) { atomic_store(&seg->holder, NONE); return; }
    give(next);
    wait_turn();
    atomic_store(&seg->idle, 0);
}

/* ------------------------------------------------------------------ leaving the tree */

static int in_own_session(void) {
    return new_session || (my_slot != NONE && atomic_load(&seg->slots[my_slot].session));
}

/* setsid succeeded (proc_tree.c's hook): remembered in the slot, which an exec keeps. */
void weft_pt_new_session(void) {
    new_session = 1;
    if (!seg) return;
    own_slot();
    if (my_slot != NONE) atomic_store(&seg->slots[my_slot].session, 1);
}

/*
 * A daemon leaves the tree. A process in a session of its own (it or an ancestor below the root
 * called setsid) whose parent has exited is what `setsid` + double fork makes: nobody in the tree
 * waits for it, it may outlive the run's root, and a server loop would otherwise take turns (and
 * block idle detection) forever. Checked by the token holder at its yield points and waits, so
 * the moment is a function of the schedule: the parent's exit is settled (settle_exit) before
 * anyone takes the turn after it, and the kernel re-parents a child before the exiting parent's
 * pidfd becomes readable. The process hands the token on and runs freely from then on (so do the
 * children it makes later); its slot stays, PS_DONE, never a candidate again. Returns 1 if it left.
 */
static int leave_if_daemon(void) {
    pt_slot *s = &seg->slots[my_slot];
    if (!atomic_load(&s->session)) return 0;
    int32_t pp = atomic_load(&s->ppid);
    if (pp <= 0 || raw_ppid() == pp) return 0;
    atomic_store(&s->state, PS_DONE);
    sched_on = 0;
    int next = decide();
    if (next == NONE) atomic_store(&seg->holder, NONE);
    else give(next);
    WEFT_TRACE("proc_leave", "slot %d: in its own session, parent %d gone; runs freely", my_slot, (int)pp);
    return 1;
}

int weft_pt_active(void) { return scheduling(); }

/* A process yield point (write, sleep, sched_yield, fork): the holder draws who runs next. */
void weft_pt_yield(const char *site) {
    weft_timer_poll(); /* a computing process's timers fire at its yield points */
    if (!scheduling() || weft_depth) return;
    WEFT_TRACE("proc_yield", "%s", site);
    if (leave_if_daemon()) return;
    pass_and_wait(decide());
}

/*
 * A sleep until the virtual instant `wake` (hook_time.c, a process without the thread model): the
 * process names its wake in its slot and yields without moving its clock first, so the tree clock
 * published at the hand-over is its current instant; it is not eligible again until the tree clock
 * reaches `wake` (decide, next_after, block_now's idle rounds), so the tree's sleeps end in the
 * order of their wake instants. Returns 1 when it slept that way (the caller then moves its clock
 * to at least `wake`), 0 when process scheduling does not apply.
 */
static int sleep_until(uint64_t wake);
int weft_pt_sleep_until(uint64_t wake) {
    if (!scheduling() || weft_depth) return 0;
    return sleep_until(wake);
}

/* The same from inside the in-process scheduler (sched.c, sched_lock held): every thread of this
 * process waits and the earliest wake is a timed one, so the process sleeps until then as a whole,
 * in wake order with the tree's other sleepers, instead of jumping its own clock. */
int weft_pt_sleep_until_inside(uint64_t wake) {
    if (!scheduling()) return 0;
    return sleep_until(wake);
}

static int sleep_until(uint64_t wake) {
    WEFT_TRACE("proc_sleep", "until %lu ns", (unsigned long)wake);
    if (leave_if_daemon()) return 0;
    /* a signal handler run at the start of a waiter's turn may sleep: the waiter's state and
     * deadline come back afterwards (a sleeper is PS_RUN, or it would count as eligible) */
    pt_slot *s = &seg->slots[my_slot];
    int32_t state = atomic_load(&s->state);
    uint64_t outer = atomic_load(&s->ready_at);
    atomic_store(&s->state, PS_RUN);
    atomic_store(&s->ready_at, wake);
    /* a signal from the tree makes a sleeper eligible before its wake (eligible): at that turn its
     * handlers run, and the sleep ends early (2) if one did, as a real sleep returns EINTR */
    uint64_t handled = atomic_load(&weft_sig_handled);
    int r = 1;
    for (;;) {
        atomic_store(&s->tree_sigs, 0); /* its own kill to itself was delivered at once */
        int next = decide();
        pass_and_wait(next);
        if (next == my_slot || next == NONE || !scheduling() || weft_mono_peek() >= wake) break;
        if (atomic_load(&weft_sig_handled) != handled) { r = 2; break; }
    }
    atomic_store(&s->ready_at, outer);
    atomic_store(&s->state, state);
    return r;
}

/*
 * A blocking call whose readiness `ready(arg)` can be probed without blocking (a pipe read, a wait
 * for a child): while it is not ready the process is a waiter; each time the token reaches it, it
 * probes, and passes the token on to the next candidate (no draw) when still not ready. After a
 * whole round of waiters without progress (only the world outside the tree can help) it pauses in
 * real time before passing on. Returns when ready; the caller then makes the real call, which
 * does not block.
 */
static int block_now(int (*ready)(void *), void *arg, int bounded, uint64_t deadline);

void weft_pt_block(int (*ready)(void *), void *arg) {
    if (!scheduling() || weft_depth || ready(arg)) return;
    block_now(ready, arg, 0, 0);
}

/* weft_pt_block for a restartable call (waitpid & co) in a process with a virtual timer armed: the
 * wait is bounded by the expiry (it times out when the tree is idle), the clock moves there and the
 * timer fires; a handler without SA_RESTART ends the call (0: the caller fails with EINTR), one with
 * it lets the wait go on, as the kernel restarts the call. 1: ready (or the real call decides). */
int weft_pt_block_timed(int (*ready)(void *), void *arg) {
    for (;;) {
        uint64_t t = weft_timer_next();
        if (!t || !scheduling() || weft_depth) { weft_pt_block(ready, arg); return 1; }
        if (ready(arg) || block_now(ready, arg, 1, t) || !scheduling()) return 1;
        weft_mono_at_least(t);
        if (weft_timer_fire_due() & 2) return 0;
    }
}

/* The same from inside the in-process scheduler (sched.c, sched_lock held, so weft_depth > 0):
 * every thread of this process is blocked on the world outside it, which may be another process
 * of the tree that needs the run token. */
void weft_pt_block_inside(int (*ready)(void *), void *arg) {
    if (!scheduling() || ready(arg)) return;
    block_now(ready, arg, 0, 0);
}

/*
 * A wait with a finite timeout (an unmanaged poll/select/epoll; _inside: from inside the in-process
 * scheduler, every thread blocked and the earliest a timed one): the rest of the tree runs first, since it may be what the waiters wait for
 * (a child writing the pipe a parent polls with a timeout). The timeout elapses when the tree is
 * idle: a whole round of waiters has passed the token without anyone becoming ready - the
 * cross-process counterpart of "nothing can run: jump the clock to the earliest deadline". Each
 * process keeps its own clock, so the other processes' progress is not measured against the
 * timeout: a tree that keeps running (yielding, never waiting) delays it. Returns 1 when `ready`
 * (then no clock jump), 0 when the timeout may elapse (or process scheduling is off or gave up).
 */
int weft_pt_block_bounded(int (*ready)(void *), void *arg, uint64_t deadline) {
    if (!scheduling() || weft_depth) return 0;
    if (ready(arg)) return 1;
    return block_now(ready, arg, 1, deadline);
}

int weft_pt_block_bounded_inside(int (*ready)(void *), void *arg, uint64_t deadline) {
    if (!scheduling()) return 0;
    if (ready(arg)) return 1;
    return block_now(ready, arg, 1, deadline);
}

/* Safe without locks: only the token holder touches the decision state and `idle`, and this
 * process holds the token whenever it reads or writes them here (after wait_turn). Nothing is
 * allocated; the real sleeps are raw system calls, never the hooked ones. */
static int block_now(int (*ready)(void *), void *arg, int bounded, uint64_t deadline) {
    int got = 0;
    pt_slot *s = &seg->slots[my_slot];
    if (leave_if_daemon()) return 0;
    atomic_store(&s->ready_at, bounded ? deadline : 0); /* written at this process's turn only */
    atomic_store(&s->state, PS_WAIT);
    uint64_t rounds = atomic_load(&seg->idle_rounds);
    int next = decide();
    long pause_ns = 20000;
    for (;;) {
        if (next != my_slot) {
            if (next == NONE) break;
            give(next);
            wait_turn();
            if (atomic_load(&seg->disabled)) break;
            if (leave_if_daemon()) return 0; /* waits for real from here on (sched_on is 0) */
            /* a handler run at the turn's start may have waited too (nested): the deadline the idle
             * rounds compare is this wait's again */
            atomic_store(&s->ready_at, bounded ? deadline : 0);
        }
        if (ready(arg)) { got = 1; break; }
        if (atomic_fetch_add(&seg->idle, 1) + 1 >= neligible(atomic_load(&seg->clock))) {
            atomic_store(&seg->idle, 0);
            /* the tree is idle: the earliest timer fires. A sleeper whose wake comes before every
             * bounded waiter's deadline wakes (the tree clock jumps to it, no real pause); else the
             * tree clock jumps to the earliest deadline and the bounded waits due there time out
             * (an idle round); else only the outside world can help */
            int who;
            uint64_t wake = earliest_wake(atomic_load(&seg->clock), &who), dl = earliest_deadline();
            if (who != NONE && (!dl || wake < dl)) {
                wake_earliest();
                next = decide();
                continue;
            }
            if (dl) jump_to_deadline(dl);
            atomic_fetch_add(&seg->idle_rounds, 1);
            if (!bounded) {
                struct timespec d = {0, pause_ns};
                weft_real_syscall(SYS_nanosleep, &d, NULL, 0, 0, 0, 0);
                if (pause_ns < 10000000) pause_ns *= 2;
            }
        }
        /* bounded: a whole idle round since this wait began (completed here or at another
         * waiter, which then paused) - nobody in the tree can make it ready: the timeout elapses,
         * once the tree clock has reached it. A later deadline keeps waiting: the earlier one's
         * process runs first and may end this wait (`timeout 20` waiting for a child whose own
         * 1 s timed wait elapsed in the same idle round used to fire at 20 s at once) */
        if (bounded && atomic_load(&seg->idle_rounds) != rounds && deadline <= atomic_load(&seg->clock)) break;
        next = next_after(my_slot);
    }
    atomic_store(&seg->idle, 0);
    atomic_store(&s->ready_at, 0);
    atomic_store(&s->state, PS_RUN);
    return got;
}

/* ------------------------------------------------------------------ fork, spawn, exec, exit, wait */

/* Before a fork or spawn: make the segment if this process has none, and reserve the child's slot
 * (the parent holds the token, so the slot the child gets is deterministic). */
void weft_pt_before_child(void) {
    if (!seg) create_segment();
    if (!seg) return;
    own_slot();
    pending_child = claim(-1, scheduling() ? PS_RUN : PS_DONE);
    if (pending_child == NONE) return;
    /* who made it (a daemon is known by its parent having gone) and whether it is in a session of
     * its own: a child of a process that called setsid is too */
    atomic_store(&seg->slots[pending_child].ppid, raw_pid());
    atomic_store(&seg->slots[pending_child].session, in_own_session());
}

/* In the parent after the fork/spawn: the child's pid (or the failure) fills the reservation. */
void weft_pt_after_child(pid_t pid) {
    if (!seg || pending_child == NONE) return;
    pt_slot *s = &seg->slots[pending_child];
    int32_t reserved = -1;
    if (pid > 0) atomic_compare_exchange_strong(&s->pid, &reserved, (int32_t)pid);
    else if (atomic_load(&s->pid) == -1) free_slot(pending_child);
    pending_child = NONE;
    if (pid > 0) weft_pt_yield("fork");
}

/* In a fork child: take the reserved slot, then wait for the first turn. */
void weft_pt_in_fork_child(void) {
    created_seg = 0;
    if (!seg) return;
    int slot = pending_child;
    pending_child = NONE;
    int32_t me = raw_pid(), reserved = -1;
    if (slot != NONE && (atomic_compare_exchange_strong(&seg->slots[slot].pid, &reserved, me) ||
                         atomic_load(&seg->slots[slot].pid) == me)) {
        my_slot = slot;
        atomic_store(&seg->slots[slot].mono, weft_mono_peek());
    } else {
        my_slot = NONE;
        own_slot();
        sched_on = 0;
        return;
    }
    /* a fresh slot: the parent kept the token at the fork (a later decision may hand it here) */
    atomic_store(&seg->slots[slot].fresh, 0);
    if (scheduling()) wait_turn();
}

/* A new image (after exec or spawn) that found its slot number in WEFT_PROC: adopt it if it is
 * really ours (a spawn's reservation, or the slot of the process that exec'd), then wait for the
 * token unless the exec carried it over. */
void weft_pt_image_start(int slot) {
    if (!seg) return;
    int32_t me = raw_pid(), reserved = -1;
    if (slot >= 0 && slot < PT_SLOTS &&
        (atomic_load(&seg->slots[slot].pid) == me ||
         atomic_compare_exchange_strong(&seg->slots[slot].pid, &reserved, me))) {
        my_slot = slot;
    } else {
        sched_on = 0; /* not a slot of ours (a copy of a parent's environment): run freely */
        own_slot();
        return;
    }
    /* A spawned image's slot is fresh: the spawning parent kept the token, so wait for a turn.
     * Otherwise this is the same process after an exec, which carried the token over. */
    int was_fresh = 1;
    if (atomic_compare_exchange_strong(&seg->slots[slot].fresh, &was_fresh, 0) && scheduling()) wait_turn();
}

/* Exec (successful or not) keeps the slot and the token; the new image starts from this clock. */
void weft_pt_publish(void) {
    if (!seg) return;
    own_slot();
    if (my_slot != NONE) atomic_store(&seg->slots[my_slot].mono, weft_mono_peek());
}

/* The process ends (library destructor, _exit): publish the clock, hand the token on, and let the
 * segment's name go if this image made it (everyone still running has it mapped). */
void weft_pt_exit(int flush) {
    if (!seg || exited) return;
    exited = 1;
    weft_pt_publish();
    if (scheduling() && atomic_load(&seg->holder) == my_slot) {
        /* exit() flushes stdio after the library destructors: do it now, while this process still
         * holds the token, or its buffered output would land in the next holder's turn */
        if (flush) fflush(NULL);
        if (weft_cfg.stats)
            weft_errline("[weft] process scheduler: slot %d exits after %lu run-wide decision(s)", my_slot,
                         (unsigned long)seg->decisions);
        atomic_store(&seg->slots[my_slot].state, PS_DONE);
        int next = decide();
        if (next == NONE) {
            if (weft_cfg.stats)
                weft_errline("[weft] process scheduler: %lu signal(s) from outside the tree delivered at their receiver's turn",
                             (unsigned long)atomic_load(&seg->outside_sigs));
            atomic_store(&seg->holder, NONE);
        } else {
            atomic_store(&seg->exiting, raw_pid()); /* the next holder waits until we are gone */
            give(next);
        }
    } else if (my_slot != NONE) {
        atomic_store(&seg->slots[my_slot].state, PS_DONE);
    }
    if (created_seg) weft_real_syscall(SYS_unlinkat, AT_FDCWD, seg_path, 0, 0, 0, 0);
}

/* A child `pid` was reaped: the clock advances to at least the child's last, and its slot is
 * freed. (Between the child's exit and this call the slot is PS_DONE: never a candidate.) */
void weft_pt_reaped(pid_t pid) {
    if (!seg || pid <= 0) return;
    int i = find_pid((int32_t)pid);
    if (i == NONE) return;
    uint64_t m = atomic_load(&seg->slots[i].mono);
    weft_mono_at_least(m);
    WEFT_TRACE("child_clock", "pid %d at %lu ns", (int)pid, (unsigned long)m);
    free_slot(i);
}

unsigned long weft_pt_decisions(void) { return seg && sched_on ? (unsigned long)seg->decisions : 0; }

/* ------------------------------------------------------------------ writers waiting for room */

/*
 * A process waiting for room in a full pipe names the pipe (its inode) in its slot for the length
 * of the wait (hook_io.c). A reader waiting for a whole line in that pipe must then read what there
 * is: the line is longer than the pipe holds, and neither could go on otherwise. Only the token
 * holder writes its own slot's field and only at its turns, and readers look at their turns, so
 * what a reader sees is a function of the schedule.
 */
void weft_pt_room_wait(uint64_t ino) {
    if (seg && my_slot != NONE) atomic_store(&seg->slots[my_slot].room_ino, ino);
}

int weft_pt_room_awaited(uint64_t ino) {
    if (!seg || !ino) return 0;
    for (int i = 0, end = top(); i < end; i++)
        if (atomic_load(&seg->slots[i].room_ino) == ino && candidate(i)) return 1;
    return 0;
}

/* ------------------------------------------------------------------ signals (hook_signal.c) */

/* Is `pid` another live process of this run's tree (a signal to it is a process yield point)? */
int weft_pt_in_tree(pid_t pid) {
    return seg && pid > 0 && pid != raw_pid() && find_pid((int32_t)pid) != NONE;
}

/* Before a process of the tree sends `sig` (kill's meaning of `pid`): mark it in the receivers'
 * slots, so their token waits know it is the tree's (delivered at their turns) and not a signal
 * from outside (outside_signal_overdue). Marked before the real call: a receiver never sees it
 * pending unmarked. A group or broadcast marks every slot (a mark on a process the signal does not
 * reach only excuses that signal number until its next turn). No allocation; atomics only. */
void weft_pt_tree_signal(pid_t pid, int sig) {
    if (!seg || sig <= 0 || sig > 64) return;
    uint64_t bit = 1ULL << (sig - 1);
    if (pid > 0) {
        int i = find_pid((int32_t)pid);
        if (i != NONE) atomic_fetch_or(&seg->slots[i].tree_sigs, bit);
        return;
    }
    for (int i = 0, n = top(); i < n; i++) atomic_fetch_or(&seg->slots[i].tree_sigs, bit);
}

/* One warning per static image and run (exec_static.c): `key` (never 0) is recorded in the first
 * free entry by CAS; 1 when it was not there yet. Without a segment (no fork yet: this process's
 * exec is its only one) or with the table full, every call answers 1. */
int weft_pt_first_static(uint64_t key) {
    if (!seg) return 1;
    for (int i = 0; i < 32; i++) {
        uint64_t seen = atomic_load(&seg->static_warned[i]);
        if (seen == key) return 0;
        if (seen == 0) {
            if (atomic_compare_exchange_strong(&seg->static_warned[i], &seen, key)) return 1;
            if (seen == key) return 0;
        }
    }
    return 1;
}
