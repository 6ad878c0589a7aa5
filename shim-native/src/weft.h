/*
 * weft.h - internal interface of libweft_shim.so (LD_PRELOAD shim, Linux x86-64 glibc).
 *
 * The shim is split by responsibility:
 *   engine.c      configuration (WEFT_* variables), seed parsing/expansion, ChaCha8 streams,
 *                 the virtual clock, tracing and the reentrancy guard
 *   hook_time.c   time / sleep functions
 *   hook_rand.c   libc PRNGs, getrandom/getentropy/getauxval, arc4random
 *   hook_devrand.c /dev/urandom and /dev/random through fds and stdio
 *   sched.c       the deterministic scheduler model (token passing, decisions, modelled waits)
 *   hook_pthread.c the pthread hooks that drive it (shared declarations: sched_model.h)
 *   hook_io.c     waits outside pthreads (poll/select/epoll, blocking reads, children, futexes)
 *   faults.c      file faults: fsync lies, ENOSPC after N bytes, torn writes
 *   hook_net.c    simulated UDP sockets served by the broker (wire protocol, spec §1-4)
 *   hook_tcp.c    simulated TCP sockets (docs/design/protocol-v3.md), wire client in tcp_wire.c
 *   hook_proc.c   CPU-time clocks (clock, times, getrusage) and the temp-name family
 *   proc_tree.c   per-process streams and the clock across fork/exec (WEFT_PROC)
 *   hook_stat.c   file times in the virtual timeline (stat family, utimensat, truncate)
 *   file_times.c  the per-file virtual times table, shared by the process tree
 *   hook_tsc.c    rdtsc/rdtscp trapped and answered from the virtual clock (opt-in)
 *   hook_procfs.c getcpu/sched_getcpu (CPU 0) and the process's own /proc stat, schedstat, uptime
 *   proc_sched.c  the run segment shared by the process tree: children's clocks, process scheduling
 *   proc_sync.c   process-shared mutexes and condition variables, timed waits on shared objects
 *   hook_timer.c  alarm, setitimer, POSIX timers: expiries at virtual instants (and the timerfd table)
 *   hook_timerfd.c timerfd_create/settime/gettime and timerfd reads on that table
 *   timer_wait.c  fd waits (poll & co, blocking reads) cut at each timer expiry
 *   hook_signal.c signals between the processes of the tree (delivered at the start of a turn)
 *   backstop.c    raw system calls from the program's own code (syscall user dispatch)
 *
 * Rules every hook follows (see docs/shim.md):
 *   - decide first with weft_engaged(): unseeded, reentered (signal handler / our own
 *     machinery) or before configuration => call the real function unchanged;
 *   - never allocate, never call a hooked function, take no lock except the engine's
 *     spinlocks (which are only ever held for a bounded number of instructions).
 */
#ifndef WEFT_H
#define WEFT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <stdatomic.h>
#include <dlfcn.h>

#define WEFT_EXPORT __attribute__((visibility("default")))
/* libc declares many pointer parameters nonnull, which lets the compiler delete our defensive
 * NULL checks; passing the pointer through an empty asm makes its value opaque again. */
#define WEFT_OPAQUE(p) ({ __typeof__(p) weft_q_ = (p); __asm__("" : "+r"(weft_q_)); weft_q_; })
#define WEFT_TLS __thread __attribute__((tls_model("initial-exec")))

/* ---- configuration, read once (lazily) from the environment ---- */
typedef struct weft_config {
    int active;            /* WEFT_SEED present and valid */
    uint64_t seed;
    uint8_t key[32];       /* expand(seed) */
    int trace;             /* WEFT_TRACE=1 */
    int sched;             /* scheduler enabled (WEFT_SCHED not 0/off) */
    int strategy_rr;       /* WEFT_STRATEGY rr */
    int stats;             /* WEFT_SCHED_STATS=1 */
    int fsync_lies;        /* WEFT_FSYNC_LIES=1 */
    uint64_t enospc_bytes; /* WEFT_ENOSPC_BYTES (0 = off) */
    uint32_t torn_ppm;     /* WEFT_TORN_WRITES probability in parts per million (0 = off) */
    uint64_t real_base_ns; /* realtime at mono 0 */
    /* network (spec §4-5): on when WEFT_BROKER is set and WEFT_NODE_ID parses as u32 */
    int net;
    uint32_t node_id;      /* WEFT_NODE_ID: own IP is 127.0.0.1 + node_id */
    uint32_t host_id;      /* WEFT_HOST_ID (0 when absent/invalid) */
    uint64_t window_ns;    /* WEFT_WINDOW_NS (0 = single-host behaviour) */
    uint64_t net_speedup;  /* WEFT_NET_SPEEDUP: virtual ns per real ns while waiting on the net */
    uint64_t net_spin_ns;  /* WEFT_NET_SPIN_NS: real ns a lone thread polls for a broker reply before sleeping */
    char broker[256];      /* WEFT_BROKER, copied (unix path or host:port) */
} weft_config;

extern weft_config weft_cfg;

/* Initialises the configuration on first call (thread-safe); returns weft_cfg.active. */
int weft_init(void);

/* Per-thread nesting depth of shim machinery; > 0 means "we are inside the shim". */
extern WEFT_TLS int weft_depth;

/* True when the calling hook must apply simulated behaviour (seeded, not reentered). */
/* What getsockopt reads back after setsockopt(SO_RCVBUF/SO_SNDBUF, v): the kernel doubles the value (room for its
 * bookkeeping) and never goes below its minimum (2304 bytes received, 4608 sent). One rule for UDP and TCP sockets. */
static inline int weft_sockbuf_rcv(int v) { return v < 1152 ? 2304 : 2 * v; }
static inline int weft_sockbuf_snd(int v) { return v < 2304 ? 4608 : 2 * v; }

static inline int weft_engaged(void) {
    if (weft_depth != 0) return 0;
    return weft_init();
}

/* Resolve the next definition of a symbol (the real libc one). */
void *weft_real(const char *name);
#define REAL_FN(type, name) \
    static type real_##name; \
    static inline type get_real_##name(void) { \
        type f = __atomic_load_n(&real_##name, __ATOMIC_RELAXED); \
        if (!f) { f = (type)weft_real(#name); __atomic_store_n(&real_##name, f, __ATOMIC_RELAXED); } \
        return f; \
    }

/* ---- SplitMix64 / seed ---- */
uint64_t weft_splitmix_step(uint64_t *state);
uint64_t weft_sm_out(uint64_t t);     /* one SplitMix64 step from state t, its output */
void weft_expand(uint64_t seed, uint8_t key[32]);
/* Parses seed text per spec §6; returns 0 and *out on success, else a static reason string. */
const char *weft_parse_seed(const char *text, uint64_t *out);

/* ---- ChaCha8 ---- */
#define WEFT_CHACHA_BUFWORDS 64   /* 4 blocks are generated at once (vectorisable) */
typedef struct weft_chacha {
    uint32_t key[8];
    uint64_t stream;
    uint64_t counter;             /* next block to generate */
    uint32_t pos;                 /* next unread word in buf */
    uint32_t buf[WEFT_CHACHA_BUFWORDS];
} weft_chacha;

void weft_chacha_init(weft_chacha *g, const uint8_t key[32], uint64_t stream);
uint32_t weft_chacha_u32(weft_chacha *g);
uint64_t weft_chacha_u64(weft_chacha *g);
void weft_chacha_fill(weft_chacha *g, void *dst, size_t n);
/* 20-round block for the spec's validation vector (tests only). */
void weft_chacha_block_rounds(const uint32_t in[16], uint32_t out[16], int rounds);

/* ---- shared per-process streams (spec §7.2), each behind its own spinlock ---- */
enum { WEFT_S_RAND = 0, WEFT_S_GETRANDOM = 1, WEFT_S_DEVRANDOM = 2, WEFT_S_AUX = 3,
       WEFT_S_CLOCK = 4, WEFT_S_SCHED = 5, WEFT_S_FAULTS = 6, WEFT_S_TEMPNAME = 7,
       WEFT_NSTREAMS = 8 };

typedef struct weft_stream {
    atomic_int lock;
    weft_chacha g;
} weft_stream;

extern weft_stream weft_streams[WEFT_NSTREAMS];

void weft_spin_lock(atomic_int *l);
void weft_spin_unlock(atomic_int *l);

/*
 * Until the process creates its first thread (weft_note_thread_start, called by the
 * pthread_create hook before the real call), nobody else can draw, so draws skip the atomic
 * lock, which measured as most of a draw's cost. weft_depth is still raised, so a signal handler
 * interrupting a draw passes through instead of interleaving with it. Draws read the buffer
 * index once into a local, so not even a thread the shim did not see (one started by libc
 * itself) could make a draw read outside the buffer.
 */
extern atomic_int weft_multithreaded;
void weft_note_thread_start(void);
uint64_t weft_stream_u64_slow(int s);

static inline uint64_t weft_stream_u64(int s) {
    weft_stream *st = &weft_streams[s];
    if (__builtin_expect(!atomic_load_explicit(&weft_multithreaded, memory_order_relaxed), 1)) {
        uint32_t p = st->g.pos;
        if (__builtin_expect(p <= WEFT_CHACHA_BUFWORDS - 2, 1)) {
            weft_depth++;
            uint64_t v = (uint64_t)st->g.buf[p] | (uint64_t)st->g.buf[p + 1] << 32;
            st->g.pos = p + 2;
            weft_depth--;
            return v;
        }
    }
    return weft_stream_u64_slow(s);
}
void weft_stream_fill(int s, void *dst, size_t n);
/* Replace stream 0 (libc-rand) per the reseed rule with value u. */
void weft_reseed_rand(uint64_t u);

/* ---- virtual clock ---- */
uint64_t weft_mono_observe(void);          /* mono += 1000; returns new mono */
uint64_t weft_real_observe(void);          /* real_base + mono observation */
uint64_t weft_mono_peek(void);
void weft_file_time_map(int64_t *sec, int64_t *nsec, uint64_t run_start_ns, uint64_t now_real_ns);
void weft_mono_advance(uint64_t ns);       /* sleeps */
void weft_mono_at_least(uint64_t ns);      /* absolute sleeps */
/* CPU time of this process: a clock observation minus the clock at process start (hook_proc.c) */
uint64_t weft_cpu_observe(void);
extern uint64_t weft_mono_origin;          /* the clock when this process image began */

/* ---- file times (hook_stat.c): syscall(SYS_*stat*) results mapped like the stat hooks' ---- */
void weft_stat_fix_syscall(long n, long rc, long a, long b, long c, long d, long e);

/* ---- per-file virtual times (file_times.c): a table shared by the process tree ---- */
extern uint64_t weft_run_start_real_ns;    /* the root's real start: kernel times after it are the run's */
#define WEFT_FT_REGION_BYTES (24 + 8192 * 80) /* the run segment's room for the table (asserted) */
void weft_ft_attach(void *region, int created); /* the segment's region is mapped (created: initialise it) */
ssize_t weft_ft_wrote(int fd, ssize_t rc); /* write hooks: returns rc, after recording a modification */
int weft_ft_opened(int fd, int flags);     /* open hooks: returns fd, after recording a create/truncate */
struct stat;
void weft_ft_modified(const struct stat *st); /* truncate & co: a regular file modified at the caller's now */
/* utimensat & co succeeded: `after` is the file's kernel stat now; m the mtime to report from now
 * on, a the atime set (NULL: omitted) */
void weft_ft_times_set(const struct stat *after, const int64_t *a, int64_t m);
typedef struct weft_ft_times { int64_t a, m, c, b; } weft_ft_times; /* ns since the epoch */
/* The table's times for a file the kernel describes so; 0 when the caller applies the mapping */
int weft_ft_lookup(uint64_t dev, uint64_t ino, int64_t kmtime, uint64_t ksize, int modified_in_run,
                   weft_ft_times *out);
void weft_ft_stats(void);                  /* --stats: one line when this process used the table */

/* ---- rdtsc from virtual time (hook_tsc.c, WEFT_RDTSC=1) ---- */
void weft_tsc_init(void);                  /* constructor: SIGSEGV handler + PR_SET_TSC */
void weft_tsc_allow(void);                 /* before exec/spawn: the next loader reads the TSC */
void weft_tsc_trap_again(void);
unsigned long weft_tsc_traps(void);

/* ---- raw system calls from the program's own code (backstop.c, syscall user dispatch) ---- */
void weft_backstop_init(void);             /* constructor: the main thread */
void weft_backstop_thread(void);           /* a new managed thread, a fork child */
struct sigaction;
int weft_backstop_sigaction(const struct sigaction *act, struct sigaction *old); /* SIGSYS kept */
void weft_backstop_stats(void);

/* ---- the process tree (proc_tree.c) ---- */
void weft_proc_configure(void);            /* from configure(): adopt an inherited WEFT_PROC */
void weft_proc_tree_init(void);            /* from the constructor: export WEFT_PROC, fork handlers */

/* ---- the run segment (proc_sched.c): children's clocks, process scheduling (default; WEFT_PROC_SCHED=0: off) ---- */
void weft_pt_configure(uint64_t name, int want_sched); /* from weft_proc_configure */
void weft_pt_image_start(int slot);        /* a new image adopts its slot (may wait for the token) */
uint64_t weft_pt_name(void);               /* the segment's name for WEFT_PROC (0: none) */
int weft_pt_slot(void);                    /* this process's slot, -1 when none */
int weft_pt_pending_child(void);           /* the slot reserved for the child being made */
void weft_pt_before_child(void);           /* fork/spawn: make the segment, reserve the child's slot */
void weft_pt_after_child(pid_t pid);       /* ... and fill in its pid (-1: failed); a yield point */
int weft_pt_alone(void);                   /* the tree's root, no children started: this process is the node */
void weft_pt_in_fork_child(void);          /* fork child: take the slot, wait for the first turn */
void weft_pt_publish(void);                /* write this process's clock into its slot */
void weft_pt_exit(int flush);              /* the process ends: publish, hand the token on */
void weft_pt_reaped(pid_t pid);            /* a child was reaped: the clock reaches the child's */
void weft_pt_new_session(void);            /* setsid: a daemon leaves the tree once its parent is gone */
void weft_pt_room_wait(uint64_t ino);      /* this process waits for room in pipe `ino` (0: no more) */
int weft_pt_room_awaited(uint64_t ino);    /* a process of the tree waits for room in pipe `ino` */
int weft_pt_active(void);                  /* this process takes part in process scheduling */
void weft_pt_yield(const char *site);      /* a process yield point (no-op unless scheduling) */
void weft_pt_block(int (*ready)(void *), void *arg); /* a blocking call, as a process-level wait */
void weft_pt_block_inside(int (*ready)(void *), void *arg); /* the same from inside the scheduler */
int weft_pt_block_bounded(int (*ready)(void *), void *arg, uint64_t deadline); /* a timed wait: 1 ready, 0 tree idle */
int weft_pt_block_bounded_inside(int (*ready)(void *), void *arg, uint64_t deadline); /* the same, inside the scheduler */
int weft_pt_sleep_until(uint64_t wake); /* a sleep ordered by the tree clock: 1 slept, 2 a handler ran first, 0 not scheduling */
int weft_pt_sleep_until_inside(uint64_t wake); /* the same, inside the scheduler (every thread waits) */
unsigned long weft_pt_decisions(void);
/* signals while a process waits for its turn (proc_sched.c): blocked, then delivered at the turn's start */
void weft_pt_mask_signals(uint64_t *saved);  /* blocks every blockable asynchronous signal, saves the mask */
void weft_pt_unmask_signals(const uint64_t *saved); /* restores it: pending ones run their handlers now */
extern _Atomic uint64_t weft_sig_handled;    /* handlers run at a turn's start so far (pause's probe) */
int weft_pt_in_tree(pid_t pid);              /* pid is another process of the run's tree */
void weft_pt_tree_signal(pid_t pid, int sig); /* a process of the tree is about to send sig (kill's pid) */
uint64_t weft_pt_outside_pending(const uint64_t *saved, uint64_t from_tree); /* see hook_signal.c */
uint64_t weft_sig_pending_of(int tid);      /* signals pending for thread tid of this process (hook_signal.c) */
void weft_sig_suspend_wait(const void *mask); /* sigsuspend of a managed thread: a model wait (hook_signal.c) */
uint64_t weft_sig_wait_begin(uint64_t through); /* a wait for the signals `through` (sigsuspend, sigwait) */
void weft_sig_wait_end(uint64_t prev);
int weft_pt_first_static(uint64_t key);      /* 1 the first time the run sees static image `key` */
/* exec_static.c: a static image exec'd inside the tree runs under weft_super (x->super with x->argv,
 * returns 1); without a supervisor, 0 after one warning per image and run */
#define WEFT_STATIC_ARGV 2052
typedef struct weft_static_exec {
    char super[4096], path[4096];
    char *argv[WEFT_STATIC_ARGV];
} weft_static_exec;
int weft_static_exec_prepare(weft_static_exec *x, const char *file, int search, char *const argv[]);
void weft_static_exec_init(void);            /* constructor: finds weft_super beside the library */

/* ---- timers on the virtual clock (hook_timer.c) ---- */
uint64_t weft_timer_next(void);              /* the earliest armed expiry (virtual mono ns), 0: none */
void weft_timer_main_wait(uint64_t cut);     /* the main thread waits until `cut` in a wait a signal ends (0: no more) */
int weft_timer_next_signal(void);            /* its signal (0: none) */
int weft_timer_fire_due(void);               /* fire what is due now; bit 0: a handler ran, bit 1: one without SA_RESTART */
int weft_pt_block_timed(int (*ready)(void *), void *arg); /* weft_pt_block a timer may interrupt: 0 EINTR */
void weft_timer_poll(void);                  /* the same, cheap when nothing is due (clock reads) */
int weft_timer_suspend(int (*ready)(void *), void *mask); /* sigsuspend bounded by a timer (hook_signal.c) */
struct itimerspec;
uint64_t weft_timer_next_fd(void);           /* the earliest expiry a wait for fds ends at (signal timers, timerfds) */
/* a wait for ready(arg) cut at each expiry before deadline (0: none) (timer_wait.c); restart: only a
 * handler without SA_RESTART interrupts it (read), else any handler does (poll & co) */
enum { WEFT_TW_PASS, WEFT_TW_READY, WEFT_TW_EINTR };
int weft_timer_wait(int (*ready)(void *), void *arg, uint64_t deadline, int restart);
/* a wait on a simulated socket ending by `end` (0: none) is cut at this signal-timer expiry (0: none);
 * at the cut, weft_timer_net_fired fires what is due: 1 when the call fails with EINTR (a handler ran
 * without SA_RESTART, or restart is 0: a socket with SO_RCVTIMEO is never restarted, socket(7)) */
uint64_t weft_timer_net_cut(uint64_t end);
int weft_timer_net_fired(uint64_t cut, int restart);
/* timerfds (hook_timerfd.c) over the timer table (hook_timer.c) */
int weft_vtimer_fd_count(void);
int weft_vtimer_of_fd(int fd);
int weft_vtimer_fd_new(int fd, clockid_t c);
void weft_vtimer_fd_set(int slot, int abs, const struct itimerspec *nv, struct itimerspec *ov);
void weft_vtimer_fd_get(int slot, struct itimerspec *cv);
uint64_t weft_vtimer_fd_take(int slot);
void weft_vtimer_fd_forget(int fd);
ssize_t weft_timerfd_read(int fd, void *buf, size_t n); /* read of a timerfd: its virtual expirations */

/* ---- tracing: one line per hook, formatted on the stack, one write(2) ---- */
void weft_trace(const char *fn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define WEFT_TRACE(...) do { if (weft_cfg.trace) weft_trace(__VA_ARGS__); } while (0)

/* stderr line via a raw write(2) syscall (never a hooked function, never allocation) */
void weft_errline(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* tiny formatter (no locale, no allocation): returns length written (always NUL-terminated) */
int weft_vfmt(char *buf, size_t cap, const char *fmt, __builtin_va_list ap);
int weft_fmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- the real syscall(2) wrapper (the shim hooks syscall itself) ---- */
long weft_real_syscall(long n, long a, long b, long c, long d, long e, long f);
#define weft_real_syscall(n, a, b, c, d, e, f) \
    weft_real_syscall((long)(n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))

/* ---- waits the scheduler models beyond pthreads (sched.c) and readiness probes (hook_io.c) ---- */
enum { WEFT_IO_POLL = 1, WEFT_IO_SELECT, WEFT_IO_EPOLL, WEFT_IO_CHILD, WEFT_IO_NET,
       WEFT_IO_SEM,                         /* a process-shared semaphore: probed with sem_trywait (fds) */
       WEFT_IO_FN };                        /* anything else: probed by probe(probe_arg) (sched.c) */
typedef struct weft_io_wait {
    int kind;
    int net;                                /* the wait involves simulated sockets (a net wait) */
    int fd;                                 /* net: the simulated socket a recv waits on */
    void *fds; unsigned long nfds;          /* poll: struct pollfd[nfds] */
    int nsel; void *rd, *wr, *ex;           /* select: fd_set pointers (may be NULL) */
    int epfd; void *events; int maxevents;  /* epoll */
    int idtype; int id; int wflags;         /* child: waitid(idtype, id, ..., wflags) */
    int result; int err;                    /* set by a successful probe */
    int (*probe)(void *); void *probe_arg;  /* WEFT_IO_FN: 1 when ready (process-shared objects, signals) */
} weft_io_wait;
/* Zero-timeout probe with the real call: 1 when ready or failed (result/err set), else 0. */
int weft_io_probe(weft_io_wait *w);
int weft_sched_active(void);                 /* calling thread managed, scheduler on */
void weft_sched_sleep_until(uint64_t mono_deadline);
int weft_sched_futex_wait(const atomic_int *word, int expected, uint64_t deadline);
int weft_sched_futex_wake(const void *word, int n);
int weft_sched_io_wait(weft_io_wait *w, uint64_t deadline);
/* the same wait at the yield-point site net_block (a blocking receive on a simulated socket) */
int weft_sched_net_block(weft_io_wait *w, uint64_t deadline);
void weft_sched_net_send(void);              /* the yield point after a managed send (net_send) */
/* windowed TCP (sched.c, for hook_tcp.c): the earliest deadline of a timed-blocked thread (0 none);
 * how many threads wait at a TCP idle point (a WEFT_IO_NET wait on WEFT_TCP_IDLE_FD) */
#define WEFT_TCP_IDLE_FD (-2)
uint64_t weft_sched_idle_deadline(void);
int weft_sched_armers_pending(void);
/* hook_tcp.c, for the scheduler: an idle wait of this process bounds the node now; re-declare it
 * (1: a wait was re-sent) after another wait of the node was answered */
int weft_tcp_idle_declared(void);
int weft_tcp_waits_here(void);             /* this process has a TCP wait armed */
int weft_tcp_redeclare_idle(void);
/* an unmanaged windowed wait for a stream fd (1 readable, -1 interrupted), re-declaring between slices */
int weft_tcp_windowed_wait_fd(int fd);
void weft_tcp_process_gone(int exiting);    /* the process leaves the node's count (exit, _exit: 1) */
void weft_tcp_at_quick_exit(void);          /* _exit, _Exit: the process's socket references go, then as above */
/* before a blocking read-like call: a managed thread waits in the model until fd is readable */
int weft_io_before_read(int fd);             /* -1: a timer's handler interrupted the wait (EINTR) */
/* write(2) under process scheduling: a write that would block on a full pipe or socket is a
 * process wait first (in PIPE_BUF pieces); otherwise just real(fd, buf, n) */
ssize_t weft_io_write(int fd, const void *buf, size_t n, ssize_t (*real)(int, const void *, size_t));

/* ---- scheduler queries used by other hooks ---- */
int weft_sched_managed(void);
int weft_sched_foreign_thread(void);   /* unmanaged while the process's other threads are managed */
/* around the real fork (proc_tree.c): a fork child's model is fixed before other atfork handlers use it */
void weft_sched_fork_begin(void);
void weft_sched_fork_end(void);
void weft_sched_stats_at_exit(void);

/* ---- simulated sockets (hook_net.c) used by the fd hooks of other files ---- */
extern atomic_int weft_net_open;             /* simulated sockets currently open (fast "any?") */
int weft_net_is_fd(int fd);
ssize_t weft_net_read(int fd, void *buf, size_t n);
ssize_t weft_net_readv(int fd, const struct iovec *iov, int n);
ssize_t weft_net_write(int fd, const void *buf, size_t n);
ssize_t weft_net_reentered(void);            /* EINTR: I/O on a simulated socket while the shim is re-entered */
void weft_net_forget(int fd);                /* the fd was replaced (dup2/dup3) */
void weft_net_close(int fd);                 /* the fd is being closed (windowed: waits for the Goodbye to be read) */
/* fcntl on a simulated socket: O_NONBLOCK is kept by the shim, never set on the broker connection */
int weft_net_fcntl(int fd, int cmd, long arg);
void weft_net_epoll_ctl(int epfd, int op, int fd, const void *event);
/* poll/select/epoll: arm the simulated sockets a wait reads from; returns how many are involved */
int weft_net_prepare_poll(void *fds, unsigned long n);
int weft_net_prepare_select(int nfds, void *rd);
/* As above, told whether the wait has no timeout (the deadlock verdict's input: docs/broker.md). */
int weft_net_prepare_poll_for(void *fds, unsigned long n, int no_timeout);
int weft_net_prepare_select_for(int nfds, void *rd, void *wr, void *ex, int no_timeout);
int weft_net_prepare_epoll(int epfd);
/* real-time budget of a network wait with this much virtual time (the pacing rule, docs/shim.md) */
uint64_t weft_net_real_budget(uint64_t virtual_ns);
/* 1 while the broker has not yet read every request byte this process wrote to it (a virtual net
 * timeout must not fire just because the broker's thread was not scheduled: docs/shim.md "Network") */
int weft_net_broker_behind(void);
/* every fd a net wait watches (struct pollfd entries), for the scheduler's real wait; returns how many */
int weft_io_wait_fds(const weft_io_wait *w, void *pollfds, int cap);
/* at exit: windowed Goodbyes, then the --stats line */
void weft_net_at_exit(void);

/* the broker stream primitives (hook_net.c), shared with the TCP wire client (tcp_wire.c) */
int weft_net_write_all(int fd, struct iovec *iov, int n);
int weft_net_read_exact(int fd, void *buf, size_t n);
int weft_net_broker_connect(int cloexec);
int weft_net_hello(int fd);

/* ---- simulated TCP sockets (hook_tcp.c; docs/shim.md "TCP") used by the hooks of other files ---- */
struct sockaddr;                             /* (socket lengths are socklen_t = unsigned int) */
extern atomic_int weft_tcp_open;             /* simulated TCP fds mapped in this process */
int weft_tcp_is_fd(int fd);
int weft_tcp_socket(int type);               /* fd, -1 errno, -2: broker unreachable (pass through) */
int weft_tcp_bind(int fd, const struct sockaddr *a, unsigned int len);
int weft_tcp_listen(int fd, int backlog);
int weft_tcp_connect(int fd, const struct sockaddr *a, unsigned int len);
int weft_tcp_accept(int fd, struct sockaddr *a, unsigned int *al, int flags);
ssize_t weft_tcp_send(int fd, const struct iovec *iov, int n, int flags);
ssize_t weft_tcp_recv(int fd, const struct iovec *iov, int n, int flags);
int weft_tcp_shutdown(int fd, int how);
void weft_tcp_forget(int fd);                /* the fd is being closed or replaced */
void weft_tcp_dup(int from, int to);         /* `to` is now a copy of `from` */
int weft_tcp_getsockname(int fd, struct sockaddr *a, unsigned int *al);
int weft_tcp_getpeername(int fd, struct sockaddr *a, unsigned int *al);
int weft_tcp_setsockopt(int fd, int level, int name, const void *v, unsigned int len);
int weft_tcp_getsockopt(int fd, int level, int name, void *v, unsigned int *len);
int weft_tcp_fcntl(int fd, int cmd, long arg);
int weft_tcp_ioctl(int fd, unsigned long req, void *arg, int *rc);
/* readiness: the sockets a wait watches are armed before it and their Ready read after it */
struct pollfd;
struct epoll_event;
int weft_tcp_poll_begin(struct pollfd *fds, unsigned long n, uint32_t *saved, uint64_t deadline, int zero);
int weft_tcp_poll_end(struct pollfd *fds, unsigned long n, const uint32_t *saved, int rc);
int weft_tcp_select_begin(int nfds, void *rd, void *wr, void *ex, uint32_t *saved, uint64_t deadline, int zero);
int weft_tcp_select_end(int nfds, void *rd, void *wr, void *ex, const uint32_t *saved, int rc);
int weft_tcp_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev,
                       int (*real)(int, int, int, struct epoll_event *));
int weft_tcp_epoll_begin(int epfd, uint64_t deadline, int zero);
int weft_tcp_epoll_end(int epfd, struct epoll_event *ev, int max, int rc, int zero);
/* exec: carry the sockets to the new image (WEFT_TCP) */
char *weft_tcp_env_string(void);
void weft_tcp_before_exec(void);
void weft_tcp_after_exec(int spawned);        /* the exec failed (0) or a spawn returned (1 = it started) */
void weft_tcp_image_init(void);              /* constructor */
void weft_tcp_at_exit(uint64_t passed_tcp);  /* references dropped, the --stats line */

/* ---- devrandom bookkeeping used by faults.c (write hooks must skip random fds) ---- */
int weft_devrand_is_fd(int fd);

/* ---- the process's own /proc accounting files (hook_procfs.c), for the open hooks (hook_devrand.c) ---- */
#define WEFT_PROCFS_NOT_OURS (-2)
int weft_procfs_open(const char *path, int flags); /* an fd, -1 with errno, or WEFT_PROCFS_NOT_OURS */
struct _IO_FILE;
int weft_procfs_fopen(const char *path, const char *mode, struct _IO_FILE **out); /* 1: *out is the answer */

#endif
