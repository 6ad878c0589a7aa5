/*
 * super.h - weft_super, the supervisor that brings static binaries (and Go) under the seeded
 * engine without LD_PRELOAD (docs/shim.md "Static binaries").
 *
 *   weft_super.c   main: the filtered child, the notification loop, the process table
 *   super_answer.c answers to the notified system calls (clock, sleeps, getrandom, getcpu)
 *   super_stat.c   the stat family, made on the caller's behalf with virtual file times
 *   super_devrand.c /dev/urandom and /dev/random: pipes the supervisor fills from the seed
 *   super_join.c   joining a shimmed tree: the target's place from WEFT_PROC, its clock handed back
 *   super_vdso.c   the vDSO: which entry points exist, and rewriting them in a child so they
 *                  make real system calls the filter sees
 *
 * The engine (engine.c: seed, ChaCha8, configuration, diagnostics) is compiled in unchanged; the
 * supervisor keeps one virtual clock and one getrandom stream per supervised process itself,
 * because engine.c's clock is one per process and here one process answers for a whole tree.
 */
#ifndef WEFT_SUPER_H
#define WEFT_SUPER_H

#include "../weft.h"
#include <linux/seccomp.h>

#define SUPER_FORK_CLOCKS 16

/* One process (thread group) of the supervised tree. */
typedef struct super_proc {
    pid_t tgid;                       /* 0: never used, -1: freed */
    uint64_t id;                      /* place in the tree, as docs/shim.md "The process tree" */
    uint64_t mono_ns;                 /* this process's virtual monotonic clock */
    uint64_t origin_ns;               /* the clock when the image began: CPU time counts from here */
    uint8_t key[32];                  /* its streams' key */
    weft_chacha entropy;              /* stream 1 (getrandom) keyed for this id */
    uint64_t devrand_opens;           /* random devices opened so far (each its own stream) */
    uint64_t children;                /* children numbered so far */
    pid_t last_child;                 /* the highest child pid numbered */
    uint64_t forks;                   /* process-creating clones seen */
    uint64_t fork_clock[SUPER_FORK_CLOCKS]; /* the clock at the k-th of them (k mod 16) */
    pid_t parent;                     /* the process that numbered this one (0: a root) */
    int exited;                       /* made exit_group (freed once its parent learnt its clock) */
    unsigned unmerged;                /* children that exited and whose clock this one has not learnt */
    int image_unchecked;              /* an exec may have replaced the image: inspect at next stop */
    unsigned images;                  /* static images prepared in this process so far */
    int wrapper;                      /* before the target (weft run's unshare, setarch, sh, env): the
                                         first static image of this line becomes the root */
    int shim_owned;                   /* a dynamically linked image: the preloaded shim answers */
} super_proc;

/* What the supervisor did, for --stats (WEFT_SCHED_STATS=1). */
typedef struct super_counts {
    unsigned long getrandom, clock, cputime, sleep, getcpu, rseq, stat, continued, failed;
    unsigned long devrand, vdso_images, at_random, shim_images, processes;
} super_counts;
extern super_counts super_stats;

/* Answers one notification for process p; fills r (id already set). */
void super_answer(super_proc *p, const struct seccomp_notif *n, struct seccomp_notif_resp *r);

/* /dev/urandom and /dev/random (super_devrand.c). open: 1 when answered (the fd is installed and
 * the call answered), 0 to let it continue. pollfds/service: the pipes that want refilling. */
struct pollfd;
int super_devrand_open(super_proc *p, int listener, const struct seccomp_notif *n);
int super_devrand_pollfds(struct pollfd *pf, int cap);
void super_devrand_service(const struct pollfd *pf, int n);

/* The stat family with virtual file times (super_stat.c): 1 when answered (r filled), 0 to let the
 * call continue. super_run_start_ns: real time when the run began (1 s early, as proc_tree.c). */
extern uint64_t super_run_start_ns;
int super_stat(super_proc *p, const struct seccomp_notif *n, struct seccomp_notif_resp *r);

/* Reads this process's own vDSO once: offsets of the entry points to rewrite. 0 when none. */
int super_vdso_prepare(void);
/* Rewrites them in pid's vDSO mapped at base; returns entries written, or -errno. */
int super_vdso_patch(pid_t pid, uint64_t base);
/* The names of the entry points prepare() found, for the trace (static string). */
const char *super_vdso_names(void);

/* A supervisor started by the shim's exec hook for a static image inside a shimmed tree
 * (super_join.c): the target takes the identity in WEFT_PROC instead of the root's. */
typedef struct super_join_state {
    int active;                       /* WEFT_PROC was found: the target continues that process */
    uint64_t id, mono_ns, run_start_ns; /* its id, its clock at the exec, the run's real start */
    uint64_t segment, slot;           /* the run segment's name and the exec'ing process's slot */
} super_join_state;
extern super_join_state super_join;
void super_join_configure(void);      /* reads WEFT_PROC (no-op without a valid one) */
void super_join_publish(uint64_t mono_ns); /* the target's last clock into the exec'ing process's slot */
struct pt_seg;
struct pt_seg *super_join_segment(void); /* the run segment WEFT_PROC names, mapped once; NULL: none */

/* Taking turns in the shimmed tree's scheduler (super_turns.c). begin: before the target starts
 * (a spawned image waits for its first turn; *mono_ns adopts the tree clock then). serving: the
 * listener and the target's pid. sleep: the target's sleep until `wake` as a tree wait: 1 slept
 * (p's clock moved), 2 the stopped call is gone (the target was killed meanwhile; p's clock is the
 * tree's), 0 not taking turns (the caller lets the sleep run in real time). end: the token on. */
void super_turns_begin(uint64_t *mono_ns);
void super_turns_serving(int listener, pid_t target);
int super_turns_sleep(super_proc *p, uint64_t wake, uint64_t notif_id);
void super_turns_end(uint64_t mono_ns);

#endif
