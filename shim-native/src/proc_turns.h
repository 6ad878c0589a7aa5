/*
 * proc_turns.h - who takes the run token next: the rules of the tree's scheduler that only read and
 * write the run segment (proc_seg.h), shared by the shim (proc_sched.c) and weft_super (a static
 * image exec'd inside a shimmed tree takes its turns too: super_turns.c). One copy of the rules, so
 * a decision made by the supervisor is the one the shim would have made.
 *
 * Everything here is called by the token holder only (that is what makes the decisions
 * deterministic), allocates nothing and makes no system call but the futex wake-up.
 */
#ifndef WEFT_PROC_TURNS_H
#define WEFT_PROC_TURNS_H

#include "proc_seg.h"

#include <linux/futex.h>
#include <sys/syscall.h>

#define PT_NONE (-1)

/* Slots at or above `top` were never claimed: every scan stops there. */
static inline int pt_top(pt_seg *seg) { return atomic_load(&seg->top); }

static inline int pt_candidate(pt_seg *seg, int i) {
    int st = atomic_load(&seg->slots[i].state);
    return (st == PS_RUN || st == PS_WAIT) && atomic_load(&seg->slots[i].pid) != 0;
}

/*
 * Virtual time orders the tree's events (a conservative discrete-event pick). A sleeping process
 * names its wake instant in its slot (ready_at) and stays a candidate that is not yet eligible:
 * only once the tree clock T has reached its wake may it take the token. Runnable processes and
 * waiters are always eligible (a waiter's ready_at is its bounded deadline, looked at only when the
 * tree is idle). When nobody is eligible, T jumps to the earliest wake. Why the order is
 * deterministic: ready_at is written only by its own process while it holds the token, T only by
 * token holders (publish, wake_earliest), and every choice below is a function of those and of the
 * seeded stream, scanned in ascending slot order (ties at one wake instant stay seeded).
 */
static inline int pt_eligible(pt_seg *seg, int i, uint64_t tree) {
    if (!pt_candidate(seg, i)) return 0;
    return atomic_load(&seg->slots[i].state) == PS_WAIT || atomic_load(&seg->slots[i].ready_at) <= tree ||
           atomic_load(&seg->slots[i].tree_sigs) != 0; /* a sleeper another process signalled */
}

static inline int pt_neligible(pt_seg *seg, uint64_t tree) {
    int n = 0;
    for (int i = 0, end = pt_top(seg); i < end; i++) n += pt_eligible(seg, i, tree);
    return n;
}

/* The earliest wake among sleepers still in the future of T, and its slot (PT_NONE when none). */
static inline uint64_t pt_earliest_wake(pt_seg *seg, uint64_t tree, int *slot) {
    uint64_t best = 0;
    *slot = PT_NONE;
    for (int i = 0, end = pt_top(seg); i < end; i++) {
        if (!pt_candidate(seg, i) || atomic_load(&seg->slots[i].state) == PS_WAIT) continue;
        uint64_t w = atomic_load(&seg->slots[i].ready_at);
        if (w > tree && (*slot == PT_NONE || w < best)) { best = w; *slot = i; }
    }
    return best;
}

/* The tree clock jumps to the earliest sleeper's wake; 0 when nobody sleeps. */
static inline uint64_t pt_wake_earliest(pt_seg *seg) {
    int who;
    uint64_t w = pt_earliest_wake(seg, atomic_load(&seg->clock), &who);
    if (who == PT_NONE) return 0;
    atomic_store(&seg->clock, w);
    WEFT_TRACE("proc_wake", "tree clock jumps to %lu ns (slot %d wakes)", (unsigned long)w, who);
    return w;
}

/* One clock for the tree: whoever hands over publishes the instant it reached (the maximum is kept). */
static inline void pt_publish_clock(pt_seg *seg, uint64_t mine) {
    uint64_t tree = atomic_load(&seg->clock);
    while (mine > tree && !atomic_compare_exchange_weak(&seg->clock, &tree, mine)) {}
}

/* The decision, the holder's clock already published: the next holder drawn from the run-wide
 * stream among the eligible processes in ascending slot order; PT_NONE when there is none. */
static inline int pt_draw(pt_seg *seg) {
    uint64_t tree = atomic_load(&seg->clock);
    int n = pt_neligible(seg, tree);
    if (n == 0 && pt_wake_earliest(seg)) n = pt_neligible(seg, tree = atomic_load(&seg->clock));
    if (n == 0) return PT_NONE;
    uint64_t d = weft_chacha_u64(&seg->g);
    seg->decisions++;
    int k = (int)(d % (uint64_t)n);
    for (int i = 0, end = pt_top(seg); i < end; i++)
        if (pt_eligible(seg, i, tree) && k-- == 0) return i;
    return PT_NONE;
}

/* The token goes to slot t (its process waits on its own futex word). */
static inline void pt_hand_over(pt_seg *seg, int t) {
    atomic_store(&seg->holder, t);
    atomic_fetch_add(&seg->handovers, 1);
    atomic_store(&seg->slots[t].turn, 1);
    weft_real_syscall(SYS_futex, &seg->slots[t].turn, FUTEX_WAKE, 1, NULL, NULL, 0);
}

#endif
