/*
 * super_turns.c - a static image exec'd or spawned inside a shimmed tree takes scheduling turns
 * like a shimmed process (docs/shim.md "Static images exec'd inside a dynamic tree").
 *
 * The supervisor stands in the tree as the process that exec'd (its pid, its slot of the run
 * segment). Only the target's own sleeps are turns: a stopped nanosleep/clock_nanosleep names its
 * wake instant in the slot and hands the run token on with the tree's own rules (proc_turns.h);
 * the stopped call stays unanswered until the token comes back with the tree clock at the wake,
 * so the sleep takes no real time and ends in the tree's order of wake instants. A signal sent to
 * the supervisor by a process of the tree (timeout's SIGTERM, forwarded to the image) makes the
 * slot eligible before its wake; if the image died of it, the stopped call is gone and the clock
 * is the tree's at that turn.
 *
 * Why the notification loop may block here: while the slot does not hold the token, no process it
 * stands for should run; the other processes of the supervised tree (a busybox shell's children)
 * simply stay stopped at their next notified call until the turn comes back. Their own sleeps do
 * not take turns (one slot, one wake instant): they keep moving their clocks and running in real
 * time.
 */
#include "super.h"
#include "../proc_turns.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static pt_seg *seg;        /* NULL: not taking turns */
static int slot = PT_NONE;
static int listener = -1;
static pid_t target;

static int on(void) { return seg && !atomic_load(&seg->disabled); }

/* Is the process holding the token gone without handing it over (killed)? pidfd: readable once
 * the process has terminated. */
static int gone(int32_t pid) {
    if (pid <= 0) return 0; /* reserved: its pid is about to be written */
    long fd = syscall(SYS_pidfd_open, pid, 0);
    if (fd < 0) return errno == ESRCH;
    struct pollfd p = {.fd = (int)fd, .events = POLLIN};
    int r = poll(&p, 1, 0);
    close((int)fd);
    return r == 1;
}

/* A process that handed the token on from its exit path may not be a zombie yet: wait until it is
 * (bounded), so what the next turn sees (a pipe's end, a child's exit) follows the schedule. */
static void settle_exit(void) {
    int32_t pid = atomic_load(&seg->exiting);
    if (!pid) return;
    long fd = syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0) {
        struct pollfd p = {.fd = (int)fd, .events = POLLIN};
        poll(&p, 1, 2000);
        close((int)fd);
    }
    atomic_store(&seg->exiting, 0);
}

/*
 * Waits until this slot holds the token, checking every 50 ms whether the run gave scheduling up
 * or the holder died without handing over (then whoever notices first decides in its place, as
 * proc_sched.c's waiters do). The watchdog for a holder blocked where no hook sees stays with the
 * shimmed processes waiting meanwhile (the exec'ing process's parent at least).
 */
static uint64_t wait_turn(uint64_t mono_ns) {
    pt_slot *s = &seg->slots[slot];
    for (;;) {
        uint32_t one = 1;
        if (atomic_compare_exchange_strong(&s->turn, &one, 0)) break;
        if (atomic_load(&seg->disabled)) return 0;
        struct timespec t = {0, 50000000};
        syscall(SYS_futex, &s->turn, FUTEX_WAIT, 0, &t, NULL, 0);
        if (atomic_load(&s->turn)) continue;
        int h = atomic_load(&seg->holder);
        if (h != PT_NONE && h != slot && gone(atomic_load(&seg->slots[h].pid)) &&
            atomic_compare_exchange_strong(&seg->holder, &h, slot)) {
            atomic_store(&seg->slots[h].state, PS_DONE);
            pt_publish_clock(seg, mono_ns);
            int next = pt_draw(seg);
            if (next == slot || next == PT_NONE) { atomic_store(&seg->holder, slot); break; }
            pt_hand_over(seg, next);
        }
    }
    /* a turn: this slot runs now (progress for the idle count, as proc_sched.c's wait_turn) and
     * the signals the tree sent it are being delivered (the supervisor forwarded them already) */
    settle_exit();
    atomic_store(&seg->idle, 0);
    return atomic_exchange(&s->tree_sigs, 0);
}

/* A signal mask line of /proc/PID/status ("SigBlk:\t0000000000000000"), 0 when unreadable. */
static uint64_t status_mask(const char *status, const char *name) {
    const char *at = strstr(status, name);
    if (!at) return 0;
    at += strlen(name);
    while (*at == ':' || *at == '\t' || *at == ' ') at++;
    uint64_t m = 0;
    for (; (*at >= '0' && *at <= '9') || (*at >= 'a' && *at <= 'f'); at++)
        m = m << 4 | (uint64_t)(*at <= '9' ? *at - '0' : *at - 'a' + 10);
    return m;
}

/*
 * The tree signalled the supervisor (signals `sigs`, forwarded to the image by its handler before
 * this turn began: they were pending when the token was handed here). Do they end the image's
 * stopped sleep? On a machine one that is neither blocked nor ignored does (the image dies of it,
 * or a handler runs); the kernel takes that effect asynchronously, so wait for it (bounded) rather
 * than let real timing decide whether this turn sees the call gone. 1 when the call is gone.
 */
static int signal_ended_sleep(uint64_t sigs, uint64_t notif_id) {
    static const uint64_t harmless = /* default action ignore or stop: no interruption */
        1ULL << (SIGCHLD - 1) | 1ULL << (SIGURG - 1) | 1ULL << (SIGWINCH - 1) | 1ULL << (SIGCONT - 1) |
        1ULL << (SIGTSTP - 1) | 1ULL << (SIGTTIN - 1) | 1ULL << (SIGTTOU - 1);
    char path[40], status[4096];
    snprintf(path, sizeof path, "/proc/%d/status", (int)target);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, status, sizeof status - 1) : -1;
    if (fd >= 0) close(fd);
    int interrupts = 0;
    if (n > 0) {
        status[n] = '\0';
        uint64_t blocked = status_mask(status, "SigBlk"), ignored = status_mask(status, "SigIgn"),
                 caught = status_mask(status, "SigCgt");
        interrupts = (sigs & ~blocked & ~ignored & (caught | ~harmless)) != 0;
    }
    for (int tries = 0; tries < 2000; tries++) { /* 2 s at most */
        if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &notif_id) != 0) return 1;
        if (!interrupts) return 0;
        struct timespec t = {0, 1000000};
        nanosleep(&t, NULL);
    }
    return 0;
}

void super_turns_begin(uint64_t *mono_ns) {
    pt_seg *m = super_join_segment();
    const char *ps = getenv("WEFT_PROC_SCHED");
    int wanted = !weft_cfg.net && weft_cfg.sched && !(ps && (!strcmp(ps, "0") || !strcasecmp(ps, "off")));
    if (!m || !wanted || !atomic_load(&m->sched) || atomic_load(&m->disabled)) return;
    int i = (int)super_join.slot;
    int32_t me = (int32_t)getpid(), reserved = -1;
    /* our slot: the exec'ing process's (same pid), or a spawn's reservation */
    if (atomic_load(&m->slots[i].pid) != me && !atomic_compare_exchange_strong(&m->slots[i].pid, &reserved, me))
        return;
    seg = m;
    slot = i;
    int fresh = 1;
    if (atomic_compare_exchange_strong(&seg->slots[i].fresh, &fresh, 0)) {
        /* spawned: the parent kept the token; the image starts at its first turn, at the tree clock */
        (void)wait_turn(*mono_ns);
        uint64_t tree = atomic_load(&seg->clock);
        if (tree > *mono_ns) *mono_ns = tree;
    }
}

void super_turns_serving(int fd, pid_t pid) {
    listener = fd;
    target = pid;
}

int super_turns_sleep(super_proc *p, uint64_t wake, uint64_t notif_id) {
    if (!on() || p->tgid != target || atomic_load(&seg->holder) != slot) return 0;
    pt_slot *s = &seg->slots[slot];
    atomic_store(&s->state, PS_RUN); /* a sleeper: eligible again once the tree clock reaches wake */
    atomic_store(&s->ready_at, wake);
    int r = 1;
    for (;;) {
        atomic_store(&s->tree_sigs, 0);
        pt_publish_clock(seg, p->mono_ns); /* the instant the sleep began: the tree's now */
        int next = pt_draw(seg);
        uint64_t sigs = 0;
        if (next != slot && next != PT_NONE) {
            pt_hand_over(seg, next);
            sigs = wait_turn(p->mono_ns);
        }
        uint64_t tree = atomic_load(&seg->clock);
        if (tree > p->mono_ns) p->mono_ns = tree;
        /* signalled by the tree: did it end the stopped call (timeout's SIGTERM)? */
        if (sigs && signal_ended_sleep(sigs, notif_id)) { r = 2; break; }
        if (!on() || next == PT_NONE || p->mono_ns >= wake) break;
    }
    atomic_store(&s->ready_at, 0);
    if (r == 1 && p->mono_ns < wake) p->mono_ns = wake;
    WEFT_TRACE("super turns", "sleep of %d ends at %lu ns%s", (int)p->tgid, (unsigned long)p->mono_ns,
               r == 2 ? " (the call is gone)" : "");
    return r;
}

/* The target is gone: its slot is done and the token goes on (the next holder waits until this
 * process has exited: seg->exiting, as after a shimmed process's exit). */
void super_turns_end(uint64_t mono_ns) {
    if (!seg) return;
    pt_slot *s = &seg->slots[slot];
    if (on() && atomic_load(&seg->holder) == slot) {
        atomic_store(&s->state, PS_DONE);
        pt_publish_clock(seg, mono_ns);
        int next = pt_draw(seg);
        if (next == PT_NONE) {
            atomic_store(&seg->holder, PT_NONE);
        } else {
            atomic_store(&seg->exiting, (int32_t)getpid());
            pt_hand_over(seg, next);
        }
    } else {
        atomic_store(&s->state, PS_DONE);
    }
    seg = NULL;
}
