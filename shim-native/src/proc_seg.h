/*
 * proc_seg.h - the layout of the run segment (proc_sched.c), shared with weft_super: a static image
 * exec'd inside a shimmed tree runs under the supervisor, which publishes its clock into the slot
 * of the process that exec'd it (super_join.c), as the shim does at exit.
 */
#ifndef WEFT_PROC_SEG_H
#define WEFT_PROC_SEG_H

#include "weft.h"

#include <stdatomic.h>

#define PT_SLOTS 1024
#define PT_MAGIC 0x5745465452554e31ULL /* "WEFTRUN1" */

enum { PS_FREE = 0, PS_RUN, PS_WAIT, PS_DONE };

typedef struct pt_slot {
    _Atomic int32_t pid;        /* 0 = free; -1 = reserved for a child whose pid is not known yet */
    _Atomic int32_t state;      /* PS_* (scheduling); PS_DONE once the process has exited */
    _Atomic uint32_t turn;      /* futex word: 1 = this process now holds the run token */
    _Atomic int32_t fresh;      /* reserved for a child that has not started yet (it waits for a turn) */
    _Atomic uint64_t mono;      /* the process's clock when it last published (exit, exec) */
    _Atomic int32_t ppid;       /* the process that made this slot's process (fork, spawn) */
    _Atomic int32_t session;    /* 1: the process (or an ancestor since the root) called setsid */
    _Atomic uint64_t room_ino;  /* the pipe (inode) this process waits for room in, 0 when none */
    _Atomic uint64_t tree_sigs; /* signals (bit sig-1) a process of the tree sent it since its last turn */
    _Atomic uint64_t ready_at;  /* a sleeper: the tree instant it wakes at (virtual monotonic ns); a
                                 * bounded waiter: its deadline; 0 = neither (ready now) */
} pt_slot;

typedef struct pt_seg {
    uint64_t magic;
    _Atomic int32_t sched;      /* process scheduling on for this run (the creator's WEFT_PROC_SCHED) */
    _Atomic int32_t disabled;   /* given up (watchdog): every process runs freely from then on */
    _Atomic int32_t holder;     /* slot holding the run token, NONE when nobody does */
    _Atomic int32_t idle;       /* consecutive hand-overs to waiters that were not ready */
    _Atomic uint64_t idle_rounds; /* how often `idle` reached a whole round: the tree was idle */
    _Atomic uint64_t handovers; /* every hand-over (the watchdog's sign of life) */
    _Atomic int32_t exiting;    /* pid of a process that handed the token on while exiting, or 0 */
    _Atomic int32_t top;        /* 1 + the highest slot ever claimed: the scans stop there */
    _Atomic uint64_t clock;     /* the tree's clock: the latest instant a holder had reached when it handed over */
    uint64_t decisions;
    _Atomic uint64_t outside_sigs; /* signals from outside the tree delivered at a turn's start (--stats) */
    weft_chacha g;              /* the run-wide decision stream (token holder only) */
    _Atomic uint64_t static_warned[32]; /* images already warned about as static (exec_static.c) */
    pt_slot slots[PT_SLOTS];
    _Alignas(4096) unsigned char files[WEFT_FT_REGION_BYTES]; /* the file-times table (file_times.c) */
} pt_seg;

/* WEFT_PROC, what a process passes to the processes it starts: five 16-digit lower-case hex fields
 * (id, monotonic clock, run start, run segment name, slot) joined by ':'. One decoder for the shim
 * (proc_tree.c) and weft_super (super_join.c); 0 for a malformed value. Pure: no allocation. */
#define WEFT_PROC_FIELDS 5
#define WEFT_PROC_VALUE_LEN (WEFT_PROC_FIELDS * 17 - 1)

static inline int weft_proc_value_parse(const char *v, uint64_t f[WEFT_PROC_FIELDS]) {
    if (!v) return 0;
    for (int i = 0; i < WEFT_PROC_VALUE_LEN; i++)
        if (!v[i]) return 0;
    if (v[WEFT_PROC_VALUE_LEN]) return 0;
    for (int i = 0; i < WEFT_PROC_FIELDS; i++) {
        const char *s = v + i * 17;
        if (i < WEFT_PROC_FIELDS - 1 && s[16] != ':') return 0;
        uint64_t x = 0;
        for (int k = 0; k < 16; k++) {
            char c = s[k];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) return 0;
            x = x << 4 | (uint64_t)d;
        }
        f[i] = x;
    }
    return 1;
}

#endif
