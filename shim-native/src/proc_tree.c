/*
 * proc_tree.c - a process's place in the run's process tree (issue 18, item 2): its own random
 * streams, and a virtual clock that continues its parent's across fork and exec.
 *
 * Identity. The process `weft run` starts is the root, id 0: its streams are the spec's (§7.2),
 * unchanged. The n-th child (n = 1, 2, ... counted per parent, fork/vfork/posix_spawn alike) of a
 * process with id P gets id = SplitMix64-out(P XOR n * golden) (never 0), and every stream of that
 * process is keyed with expand(SplitMix64-out(seed XOR id)) instead of expand(seed). So siblings
 * differ, and a process's numbers depend only on the seed and its path from the root.
 * srand(u) still reseeds stream 0 from the run seed alone (the same u gives the same sequence in
 * every process, as with glibc). The realtime base is the run's in every process.
 *
 * Passing it on. The identity and the clock travel in one environment string,
 * WEFT_PROC=<id>:<monotonic ns>:<run start>, 16 hex digits each, of fixed length, so it can be
 * rewritten in place (the run start is the root's real CLOCK_REALTIME in ns, used only as the
 * threshold "modified during the run" by hook_stat.c):
 *   - the library constructor of the root adds it to environ (setenv, once, before main);
 *   - fork (a pthread_atfork child handler) derives the child's id, rekeys its streams and writes
 *     the new id and the current clock into the string in this process's own environ (no
 *     allocation: the child's copy of the string is private memory);
 *   - exec: execve/execv/execvp/execvpe refresh the clock in the string first (so the new image
 *     starts where the old one stopped); an execve whose explicit envp holds a different
 *     WEFT_PROC string (a shell's own copy of its environment) gets a copy of envp on the stack
 *     with ours in its place;
 *   - vfork runs as fork (allowed by POSIX), so its child gets a fork child's identity;
 *   - posix_spawn/posix_spawnp write the child's id and the clock into the string for the duration
 *     of the call (the spawned image reads it at exec), then restore the parent's.
 *   - the new image's configuration (engine.c) reads the string: clock starts there, streams are
 *     rekeyed, and CPU time counts from there (weft_mono_origin).
 * Not carried: a parent's clock does not learn how much virtual time its children spent (it goes
 * on from the fork instant), and a program that builds its children's environment from scratch
 * without WEFT_PROC starts them as a root would (id 0, clock 0).
 */
#include "weft.h"
#include "proc_seg.h"

#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SM_G 0x9E3779B97F4A7C15ULL
#define PROC_VAR "WEFT_PROC="
#define PROC_VAR_LEN 10
#define PROC_VALUE_LEN WEFT_PROC_VALUE_LEN /* proc_seg.h: five 16-digit hex fields */

extern char **environ;


static uint64_t proc_id;          /* 0 = the root */
static uint64_t children;         /* children created so far (the next is children + 1) */
uint64_t weft_run_start_real_ns;  /* real time when the run's root began (hook_stat.c) */

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef pid_t (*fork_fn)(void);
typedef void (*exit_fn)(int);
typedef int (*execv_fn)(const char *, char *const[]);
typedef pid_t (*vfork_fn)(void);
typedef int (*posix_spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                              const posix_spawnattr_t *, char *const[], char *const[]);
REAL_FN(fork_fn, fork)
REAL_FN(fork_fn, setsid)
REAL_FN(exit_fn, _exit)
REAL_FN(exit_fn, _Exit)
REAL_FN(execve_fn, execve)
REAL_FN(execv_fn, execv)
REAL_FN(execv_fn, execvp)
REAL_FN(execve_fn, execvpe)
REAL_FN(posix_spawn_fn, posix_spawn)
REAL_FN(posix_spawn_fn, posix_spawnp)

static void hex16(char *out, uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    for (int i = 15; i >= 0; i--) { out[i] = digits[v & 15]; v >>= 4; }
}

static void rekey(uint64_t id) {
    uint8_t key[32];
    weft_expand(weft_sm_out(weft_cfg.seed ^ id), key);
    for (int s = 0; s < WEFT_NSTREAMS; s++) weft_chacha_init(&weft_streams[s].g, key, (uint64_t)s);
}

/* Called by configure() (engine.c) after the realtime base is drawn: adopt an inherited identity.
 * Pure (getenv, arithmetic), like the rest of configuration. A malformed value is ignored. */
void weft_proc_configure(void) {
    const char *v = getenv("WEFT_PROC");
    uint64_t f[WEFT_PROC_FIELDS];
    /* process scheduling is on by default (weft_pt_configure also needs the thread scheduler):
     * off with WEFT_PROC_SCHED=0 (or off), and for a node of a simulated network, whose processes
     * are one node under the broker's schedule */
    const char *ps = getenv("WEFT_PROC_SCHED");
    int want_sched = !weft_cfg.net && !(ps && (!strcmp(ps, "0") || !strcasecmp(ps, "off")));
    if (!weft_proc_value_parse(v, f)) {
        weft_pt_configure(0, want_sched);
        struct timespec now; /* the root: the raw system call, not our clock_gettime hook */
        if (weft_real_syscall(SYS_clock_gettime, CLOCK_REALTIME, &now, 0, 0, 0, 0) == 0)
            /* one second early: the kernel stamps files from its coarse clock (a tick behind),
             * so a file made just after the start would otherwise look older than the run */
            weft_run_start_real_ns = ((uint64_t)now.tv_sec - 1) * 1000000000ULL + (uint64_t)now.tv_nsec;
        return;
    }
    uint64_t id = f[0], mono = f[1], start = f[2], run = f[3], slot = f[4];
    weft_run_start_real_ns = start;
    proc_id = id;
    if (id) rekey(id);
    weft_mono_at_least(mono);
    weft_mono_origin = mono;
    /* the run segment: children's clocks and process scheduling (proc_sched.c); this may wait for
     * the run token (a spawned image runs only when the schedule says so) */
    weft_pt_configure(run, want_sched);
    weft_pt_image_start(slot > 0x7fffffff ? -1 : (int)slot);
}

/* The WEFT_PROC=... string in our environ, or NULL. */
static char *proc_string(void) {
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, PROC_VAR, PROC_VAR_LEN) && strlen(*e) == PROC_VAR_LEN + PROC_VALUE_LEN) return *e;
    return NULL;
}

static void write_proc_slot(uint64_t id, uint64_t mono, int slot) {
    char *s = proc_string();
    if (!s) return;
    hex16(s + PROC_VAR_LEN, id);
    hex16(s + PROC_VAR_LEN + 17, mono);
    hex16(s + PROC_VAR_LEN + 34, weft_run_start_real_ns);
    hex16(s + PROC_VAR_LEN + 51, weft_pt_name());
    hex16(s + PROC_VAR_LEN + 68, slot < 0 ? UINT64_MAX : (uint64_t)slot);
}

static void write_proc(uint64_t id, uint64_t mono) { write_proc_slot(id, mono, weft_pt_slot()); }

static uint64_t child_id(uint64_t n) {
    uint64_t id = weft_sm_out(proc_id ^ (n * SM_G));
    return id ? id : 1;
}

/* pthread_atfork: prepare counts the child in the parent (the child inherits the count, so it
 * knows its n); the child handler becomes that child. Only the forking thread exists in the child,
 * and the engine locks were reset before this handler (registered earlier), so rekeying is safe. */
static void before_fork(void) { children++; }

/* The node is this one process: it is its tree's root and has started no children (exited ones count:
 * conservative). hook_net.c tells the broker about a deadline-free wait only then. */
int weft_pt_alone(void) { return proc_id == 0 && children == 0; }

static void in_child(void) {
    proc_id = child_id(children);
    children = 0;
    rekey(proc_id);
    weft_backstop_thread(); /* not inherited by fork */
    /* takes the slot the parent reserved, and waits here until the schedule lets the child run */
    weft_pt_in_fork_child();
    write_proc(proc_id, weft_mono_peek());
}

/* Constructor work (engine.c's weft_ctor, single-threaded, before main): the root adds the
 * variable so every descendant can find and rewrite it in place. */
void weft_proc_tree_init(void) {
    if (!proc_string()) {
        char v[PROC_VALUE_LEN + 1];
        hex16(v, proc_id);
        v[16] = ':';
        hex16(v + 17, weft_mono_peek());
        v[33] = ':';
        hex16(v + 34, weft_run_start_real_ns);
        v[50] = ':';
        hex16(v + 51, 0);          /* no run segment yet: made at the first fork or spawn */
        v[67] = ':';
        hex16(v + 68, UINT64_MAX); /* no slot */
        v[PROC_VALUE_LEN] = '\0';
        setenv("WEFT_PROC", v, 1);
    }
    pthread_atfork(before_fork, NULL, in_child);
    weft_static_exec_init(); /* where weft_super is, found now rather than inside an exec hook */
}

/* Before an exec: the new image starts at the current virtual instant (and the run segment knows
 * it, should the new image never publish its own). */
static void refresh_clock(void) {
    weft_pt_publish();
    write_proc(proc_id, weft_mono_peek());
}

/*
 * fork: the parent reserves the child's slot in the run segment before the real fork (it holds
 * the run token, so which slot is deterministic) and fills in the pid after it; the child side
 * is the pthread_atfork handler above. A fork is a process yield point.
 */
WEFT_EXPORT pid_t fork(void) {
    if (!weft_engaged()) return get_real_fork()();
    weft_pt_before_child();
    weft_sched_fork_begin();
    pid_t p = get_real_fork()();
    weft_sched_fork_end();
    if (p != 0) weft_pt_after_child(p);
    return p;
}

/* _exit and _Exit skip the library destructor: publish the clock and hand the run token on here. */
WEFT_EXPORT void _exit(int status) {
    if (weft_engaged()) { weft_tcp_at_quick_exit(); weft_pt_exit(0); }
    get_real__exit()(status);
    __builtin_unreachable();
}

WEFT_EXPORT void _Exit(int status) {
    if (weft_engaged()) { weft_tcp_at_quick_exit(); weft_pt_exit(0); }
    get_real__Exit()(status);
    __builtin_unreachable();
}

WEFT_EXPORT pid_t vfork(void) {
    /* vfork's child shares the parent's memory and may not return from the function that called
     * vfork; fork has neither restriction, so it is always a valid vfork (POSIX allows it) and
     * runs the fork handlers that give the child its identity. */
    return fork();
}

/* setsid: a process starting a session of its own may be a daemon on its way out of the tree
 * (proc_sched.c's leave_if_daemon; daemon(3) calls glibc's internal fork and setsid, past both
 * hooks, so its child already runs freely: it has no reserved slot). */
WEFT_EXPORT pid_t setsid(void) {
    pid_t sid = get_real_setsid()();
    if (sid >= 0 && weft_engaged()) weft_pt_new_session();
    return sid;
}

#define MAX_STACK_ENV 2048

/* envp with ours in place of a stale WEFT_PROC copy (a shell's own copy of its environment, a
 * runtime's snapshot): NULL when envp can be used as it is. The copy lives in the caller's frame. */
static char *const *with_ours(char *const *envp, char **copy) {
    char *ours = proc_string();
    char *tcp = weft_tcp_env_string(); /* the simulated TCP sockets' identities (hook_tcp.c), the same way */
    envp = WEFT_OPAQUE(envp);
    if ((!ours && !tcp) || !envp || envp == (char *const *)environ) return NULL;
    size_t n = 0, at = (size_t)-1, tcp_at = (size_t)-1;
    for (; envp[n]; n++) {
        if (!strncmp(envp[n], PROC_VAR, PROC_VAR_LEN)) at = n;
        if (!strncmp(envp[n], "WEFT_TCP=", 9)) tcp_at = n;
    }
    int stale = (ours && at != (size_t)-1 && envp[at] != ours) || (tcp && tcp_at != (size_t)-1 && envp[tcp_at] != tcp);
    if (!stale || n >= MAX_STACK_ENV) return NULL;
    memcpy(copy, envp, (n + 1) * sizeof *copy);
    if (ours && at != (size_t)-1) copy[at] = ours;
    if (tcp && tcp_at != (size_t)-1) copy[tcp_at] = tcp;
    return copy;
}

/* The exec family's one body: the clock refreshed, a stale WEFT_PROC in an explicit envp replaced
 * (exec_ve), the TSC trap lifted for the new image's loader and set again when the exec failed. A
 * static image goes through weft_super (exec_static.c); should that exec fail, the image is exec'd
 * directly, as before. */
static int exec_ve(execve_fn real, const char *file, char *const argv[], char *const envp[]) {
    if (!weft_engaged()) return real(file, argv, envp);
    weft_static_exec sx;
    int super = weft_static_exec_prepare(&sx, file, real != get_real_execve(), argv);
    refresh_clock();
    char *copy[MAX_STACK_ENV];
    char *const *e = with_ours(envp, copy);
    WEFT_TRACE("exec", "%s%s", file, e ? " (WEFT_PROC replaced)" : "");
    weft_tcp_before_exec();
    weft_tsc_allow();
    int rc = super ? get_real_execve()(sx.super, sx.argv, e ? e : envp) : -1;
    if (!super || rc < 0) rc = real(file, argv, e ? e : envp);
    weft_tsc_trap_again(); /* only reached when the exec failed */
    weft_tcp_after_exec(0);
    return rc;
}

static int exec_v(execv_fn real, const char *file, char *const argv[]) {
    int engaged = weft_engaged(), super = 0;
    weft_static_exec sx;
    if (engaged) {
        super = weft_static_exec_prepare(&sx, file, real != get_real_execv(), argv);
        refresh_clock();
        weft_tcp_before_exec();
    }
    weft_tsc_allow();
    int rc = super ? get_real_execve()(sx.super, sx.argv, environ) : -1;
    if (!super || rc < 0) rc = real(file, argv);
    weft_tsc_trap_again();
    if (engaged) weft_tcp_after_exec(0);
    return rc;
}

WEFT_EXPORT int execve(const char *path, char *const argv[], char *const envp[]) {
    return exec_ve(get_real_execve(), path, argv, envp);
}

WEFT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[]) {
    return exec_ve(get_real_execvpe(), file, argv, envp);
}

WEFT_EXPORT int execv(const char *path, char *const argv[]) { return exec_v(get_real_execv(), path, argv); }

WEFT_EXPORT int execvp(const char *file, char *const argv[]) { return exec_v(get_real_execvp(), file, argv); }

static int spawn(posix_spawn_fn real, pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *at, char *const argv[], char *const envp[]) {
    if (!weft_engaged()) return real(pid, path, fa, at, argv, envp);
    weft_static_exec sx;
    int super = weft_static_exec_prepare(&sx, path, real != get_real_posix_spawn(), argv);
    /* the spawned image reads WEFT_PROC at its exec, which posix_spawn waits for */
    children++;
    weft_pt_before_child();
    weft_pt_publish();
    write_proc_slot(child_id(children), weft_mono_peek(), weft_pt_pending_child());
    char *copy[MAX_STACK_ENV];
    char *const *e = with_ours(envp, copy);
    weft_tcp_before_exec();
    weft_tsc_allow(); /* the spawned image's loader reads the TSC */
    pid_t child = -1;
    /* a static image under weft_super; posix_spawn (not posix_spawnp) takes the resolved path */
    int rc = super ? get_real_posix_spawn()(&child, sx.super, fa, at, sx.argv, e ? e : envp) : -1;
    if (!super || rc != 0) rc = real(&child, path, fa, at, argv, e ? e : envp);
    weft_tsc_trap_again();
    weft_tcp_after_exec(rc == 0); /* this image goes on; the spawned one holds its sockets too */
    pid = WEFT_OPAQUE(pid);
    if (pid && rc == 0) *pid = child;
    write_proc(proc_id, weft_mono_peek());
    weft_pt_after_child(rc == 0 ? child : -1);
    return rc;
}

WEFT_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                            const posix_spawnattr_t *at, char *const argv[], char *const envp[]) {
    return spawn(get_real_posix_spawn(), pid, path, fa, at, argv, envp);
}

WEFT_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
                             const posix_spawnattr_t *at, char *const argv[], char *const envp[]) {
    return spawn(get_real_posix_spawnp(), pid, file, fa, at, argv, envp);
}
