/*
 * hook_tcp.c - simulated TCP: on a cluster node (WEFT_BROKER set) socket(AF_INET, SOCK_STREAM)
 * becomes a broker connection speaking the TCP messages of docs/design/protocol-v3.md (wire client:
 * tcp_wire.c), and the socket calls on it become requests. docs/shim.md "TCP" is the user's view.
 *
 * As for UDP (hook_net.c), the fd the program holds IS the broker connection: fork, dup and exec
 * share it like any fd, and the last close anywhere in the node's process tree is the broker's EOF,
 * which the broker takes as the FIN (or as a reset after TcpAbort, sent first for SO_LINGER {1,0}).
 *
 * One simulated socket = one connection = one open file description, so its state lives where every
 * holder of the fd sees it: a table in a shared memory file (memfd) made by the first TCP socket of
 * a process and inherited by fork. Per process, fd_conn[] maps fd numbers to table entries (dup adds
 * a number, close removes one). exec loses the mapping, so the exec hooks write the live fds and the
 * memfd into WEFT_TCP (a fixed-length environment string, rewritten in place, never reallocated) and
 * the new image's constructor maps them again.
 *
 * Each entry has a process-shared futex lock, held for one request/reply exchange (weft_depth
 * raised: a signal handler's socket call passes through as EINTR instead of deadlocking). A wait is
 * never a held request: a blocking call that cannot complete *arms* the socket (one TcpWait
 * outstanding; its Ready is the next frame on the stream), drops the lock and waits until the
 * kernel says the stream is readable; whoever next takes the lock for another request first takes
 * the Ready back (TcpUnwait), and re-arms on leaving while anyone still waits (`waiters`, counted
 * across threads and processes), so no waiter is ever left on a stream nobody will answer.
 * poll/select/epoll arm the sockets they watch the same way and let the kernel wait on their streams
 * among the program's other fds; the Ready's revents become the socket's.
 *
 * Nothing here allocates; internal I/O is raw system calls.
 */
#include "weft.h"
#include "tcp_wire.h"
#include "sock_values.h"
#include "node_count.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define TCP_MAX_FD 8192
#define TCP_CONNS 2048
#define TABLE_MAGIC 0x57544350u /* "WTCP" */

typedef struct tcp_conn {
    atomic_int used;          /* 0 free, 1 a live socket */
    atomic_int refs;          /* fd numbers referring to it across the node's process tree */
    atomic_int lock;          /* process-shared futex: 0 free, 1 held, 2 held with waiters */
    int dead;                 /* an exchange failed: the stream is out of step, calls fail with EIO */
    int nonblock;             /* O_NONBLOCK of the open file description (never set on the stream) */
    int armed;                /* a TcpWait is outstanding: its Ready is the next frame */
    uint32_t armed_events;
    uint64_t armed_deadline;
    uint64_t own_deadline;    /* windowed: the waiter's own deadline (armed_deadline may fold in others) */
    int armed_pid;            /* the process that armed it (the table is shared by the node's tree) */
    int waiters;              /* blocked calls waiting for the stream (any thread, any process) */
    uint32_t wait_events;
    uint64_t wait_deadline;
    int bound, listening, connecting, connected;
    uint32_t lip, pip;        /* host order */
    uint16_t lport, pport;
    uint64_t rcvtimeo_ns, sndtimeo_ns;
    int opt_reuseaddr, opt_reuseport, opt_keepalive, opt_nodelay, opt_keepidle, opt_keepintvl, opt_keepcnt;
    int opt_rcvbuf, opt_sndbuf, opt_linger_on, opt_linger_secs, opt_oobinline;
    int ep_fd;                /* the epoll instance it was last added to (-1 none) */
    uint32_t ep_events;
    uint64_t ep_data;
    uint32_t et_reported;     /* edge-triggered: bits reported and not yet re-enabled */
    uint32_t probe_rev;       /* a zero-timeout epoll's synchronous answer */
    int probe_valid;
} tcp_conn;

typedef struct tcp_table {
    uint32_t magic, nconns;
    /* windowed (protocol-v3 §2a), node-wide: the processes of the tree using the table that are not
     * idle (waiting with their TCP waits armed); set-aside waits sent and not yet acknowledged; an
     * IDLE wait is held and no Ready came since; one re-declaration at a time */
    atomic_int running, setting_aside, node_idle, redeclaring;
    atomic_int gone_pid;      /* the last process that left the count (redeclaring waits for its death) */
    tcp_conn c[TCP_CONNS];
} tcp_table;

static tcp_table *tab;
static int table_fd = -1;
static int16_t fd_conn[TCP_MAX_FD];       /* this process: conn index + 1, 0 = not a TCP socket */
atomic_int weft_tcp_open;                 /* fds mapped in this process (the fast "any?") */
static atomic_int tcp_fd_limit;           /* 1 + the highest fd mapped (bounds scans) */
static atomic_int atfork_done;
static _Atomic uint64_t n_tcp_simulated, n_tcp_accepted;

/* Windowed: this process counts itself idle (not in tab->running): its threads wait with their TCP
 * waits armed. `uncounted`: it left the count for good (exited, or an exec'd image holding no socket). */
static int me_idle, uncounted;
/* Windowed: this thread re-declares the node idle and holds that announcement (node_count.h). */
static WEFT_TLS int redeclaring_here;

static int set_errno(int e) { errno = e; return -1; }
static inline uint32_t own_ip(void) { return 0x7F000001u + weft_cfg.node_id; }

static tcp_conn *conn_of(int fd) {
    if (fd < 0 || fd >= TCP_MAX_FD || !tab) return NULL;
    int i = fd_conn[fd];
    return i ? &tab->c[i - 1] : NULL;
}

int weft_tcp_is_fd(int fd) {
    if (atomic_load_explicit(&weft_tcp_open, memory_order_relaxed) == 0) return 0;
    return conn_of(fd) != NULL;
}

/* ------------------------------------------------------------------ the shared table */

static int table_map(int fd) {
    void *p = (void *)weft_real_syscall(SYS_mmap, 0, sizeof(tcp_table), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return -1;
    tab = p;
    table_fd = fd;
    return 0;
}

/* The first TCP socket of a process without an inherited table makes one (zero-filled by the
 * kernel). Kept at fd 950 or above, close-on-exec except across the exec hooks' window. */
static int table_ready(void) {
    if (tab) return 0;
    int fd = (int)weft_real_syscall(SYS_memfd_create, "weft-tcp", MFD_CLOEXEC, 0, 0, 0, 0);
    if (fd < 0) return -1;
    int high = (int)weft_real_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 950, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    if (high < 0) return -1;
    if (weft_real_syscall(SYS_ftruncate, high, sizeof(tcp_table), 0, 0, 0, 0) < 0 || table_map(high) < 0) {
        weft_real_syscall(SYS_close, high, 0, 0, 0, 0, 0);
        return -1;
    }
    tab->magic = TABLE_MAGIC;
    atomic_store(&tab->running, 1);   /* this process */
    tab->nconns = TCP_CONNS;
    return 0;
}

static int conn_new(int nonblock) {
    for (int i = 0; i < TCP_CONNS; i++) {
        int z = 0;
        if (!atomic_compare_exchange_strong(&tab->c[i].used, &z, 1)) continue;
        tcp_conn *c = &tab->c[i];
        memset((char *)c + sizeof c->used, 0, sizeof *c - sizeof c->used);
        atomic_store(&c->refs, 1);
        c->nonblock = nonblock;
        c->opt_rcvbuf = 131072;
        c->opt_sndbuf = 16384;
        c->opt_keepidle = 7200;
        c->opt_keepintvl = 75;
        c->opt_keepcnt = 9;
        c->ep_fd = -1;
        return i;
    }
    return -1;
}

static void conn_unref(tcp_conn *c) {
    if (atomic_fetch_sub(&c->refs, 1) == 1) atomic_store(&c->used, 0);
}

static void before_fork(void);

/* weft_net_open counts TCP fds too: "this process has simulated sockets" (sleep pacing, the
 * scheduler's idle wait, the fd hooks' fast check) */
static void map_fd(int fd, int idx) {
    if (fd_conn[fd] == 0) { atomic_fetch_add(&weft_tcp_open, 1); atomic_fetch_add(&weft_net_open, 1); }
    fd_conn[fd] = (int16_t)(idx + 1);
    for (int lim = atomic_load(&tcp_fd_limit); lim < fd + 1 && !atomic_compare_exchange_weak(&tcp_fd_limit, &lim, fd + 1);) {
    }
    if (!atomic_exchange(&atfork_done, 1)) pthread_atfork(before_fork, NULL, NULL);
}

static void unmap_fd(int fd) {
    if (fd_conn[fd] == 0) return;
    fd_conn[fd] = 0;
    atomic_fetch_sub(&weft_tcp_open, 1);
    atomic_fetch_sub(&weft_net_open, 1);
}

/* A fork child holds every fd its parent held: one more reference each, counted before the fork
 * (pthread_atfork's prepare), since the parent may close its copy before the child runs. A failed
 * fork leaves the count one high: that socket's entry is then never reused, nothing worse. The
 * locks are shared with the parent (a lock another thread of the parent held at the fork is
 * released by that thread), so, unlike the UDP slots, nothing is reset in the child. */
static void before_fork(void) {
    if (tab && !uncounted) atomic_fetch_add(&tab->running, 1);   /* the child starts running */
    int lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (c) atomic_fetch_add(&c->refs, 1);
    }
}

/* ------------------------------------------------------------------ locks */

static void conn_lock(tcp_conn *c) {
    weft_depth++;
    int v = 0;
    if (atomic_compare_exchange_strong(&c->lock, &v, 1)) return;
    if (v != 2) v = atomic_exchange(&c->lock, 2);
    while (v != 0) {
        weft_real_syscall(SYS_futex, &c->lock, FUTEX_WAIT, 2, NULL, NULL, 0);
        v = atomic_exchange(&c->lock, 2);
    }
}

static void lock_release(tcp_conn *c) {
    if (atomic_exchange(&c->lock, 0) == 2) weft_real_syscall(SYS_futex, &c->lock, FUTEX_WAKE, 1, NULL, NULL, 0);
    weft_depth--;
}

/* ------------------------------------------------------------------ arming */

static int mark_dead(tcp_conn *c) {
    c->dead = 1;
    c->armed = 0;
    return set_errno(EIO);
}

/* Every reply's vt: a windowed node's clock moves to the instant the answer holds at. */
static void saw(const tcpw_reply *r) {
    if (weft_cfg.window_ns) weft_mono_at_least(r->vt);
}

static int stream_readable(int fd) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return weft_real_syscall(SYS_poll, &p, 1, 0, 0, 0, 0) > 0;
}

static int gone_alive(int pid);

/* The process that last left the count is still alive (it leaves before it dies). Its parent gets
 * SIGCHLD when it dies, which interrupts the parent's wait in real time: the node may be declared
 * idle again only once that has happened (a zombie, or gone). */
static int gone_still_alive(void) {
    int pid = atomic_load(&tab->gone_pid);
    if (pid > 0 && !gone_alive(pid)) atomic_compare_exchange_strong(&tab->gone_pid, &pid, 0);
    pid = atomic_load(&tab->gone_pid);
    return pid > 0 && gone_alive(pid);
}

static int gone_alive(int pid) {
    if (pid <= 0 || pid == (int)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0)) return 0;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    long r = weft_real_syscall(SYS_waitid, P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT, NULL, 0);
    if (r == 0) return si.si_pid == 0;                      /* our child: alive until it is a zombie */
    if (weft_real_syscall(SYS_kill, pid, 0, 0, 0, 0, 0) != 0) return 0;   /* gone */
    char path[32] = "/proc/", buf[64];                      /* not ours: alive unless a zombie */
    int k = 6;
    char digits[12];
    int nd = 0;
    for (int v = pid; v > 0; v /= 10) digits[nd++] = (char)('0' + v % 10);
    while (nd > 0) path[k++] = digits[--nd];
    memcpy(path + k, "/stat", 6);
    int fd = (int)weft_real_syscall(SYS_open, path, O_RDONLY | O_CLOEXEC, 0, 0, 0, 0);
    if (fd < 0) return 0;
    long n = weft_real_syscall(SYS_read, fd, buf, sizeof buf - 1, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    if (n <= 0) return 0;
    buf[n] = '\0';
    char *p = strrchr(buf, ')');
    return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/* Windowed: this process runs again (one of its waits came back): it counts in tab->running. */
static void process_runs(void) {
    if (!tab) return;
    int rejoins = me_idle && !uncounted;
    if (rejoins) me_idle = 0;
    node_count_runs(&tab->running, &tab->node_idle, rejoins);
}

/* Windowed: a wait of this process is about to be sent, announced first (node_count.h). True when
 * it is the node's idle wait (`idle`: no other thread of the process runs, and no other process of
 * the node runs): it goes once every wait the others set aside has been acknowledged (so the broker
 * has them all). Otherwise it is set aside: arm reads its Ack, then node_count_acknowledged. */
static int process_waits(int idle) {
    int process = uncounted ? NODE_GONE : me_idle ? NODE_WAITING : NODE_RUNNING;
    if (idle && process == NODE_RUNNING) me_idle = 1;
    if (!node_count_wait_begin(&tab->running, &tab->setting_aside, &tab->node_idle, process, idle)) return 0;
    for (int i = 0; !node_count_settled(&tab->setting_aside, redeclaring_here) || (i < 50000 && gone_still_alive()); i++) {
        struct timespec d = {0, 20000};
        weft_real_syscall(SYS_nanosleep, &d, NULL, 0, 0, 0, 0);
    }
    return 1;
}

/* The process leaves the node for good (exit, _exit, an exec'd image without sockets). */
void weft_tcp_process_gone(int exiting) {
    if (!tab || uncounted || !weft_cfg.window_ns) return;
    uncounted = 1;
    if (exiting) atomic_store(&tab->gone_pid, (int)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0));
    if (!me_idle) atomic_fetch_sub(&tab->running, 1);
}


/* Takes the outstanding TcpWait back: *rev = its Ready's revents. Conn locked. */
static int disarm(int fd, tcp_conn *c, uint32_t *rev) {
    if (rev) *rev = 0;
    if (!c->armed) return 0;
    tcpw_reply r;
    int rc = stream_readable(fd) ? tcpw_read_reply(fd, NULL, 0, 0, &r) : tcpw_unwait(fd, &r);
    c->armed = 0;
    /* windowed: a thread of this process runs on, so the node is no longer idle; the broker has set its
     * other waits aside (dormant) until an idle wait is declared again */
    if (weft_cfg.window_ns) process_runs();
    if (rc || r.tag != REP_READY) return mark_dead(c);
    saw(&r);
    if (rev) *rev = r.n;
    WEFT_TRACE("tcp_ready", "%d revents 0x%x vt %lu", fd, r.n, (unsigned long)r.vt);
    return 0;
}

/*
 * One TcpWait for `events` (re-sent when a different one is outstanding). Conn locked.
 * Windowed (protocol-v3 §2a): `idle` says that with this wait held no thread of the process runs,
 * so the node waits: the TcpWait carries TCPW_WAIT_IDLE and, as its deadline, the earliest of its
 * own and every timed wait of the other threads (the broker then wakes the node for whichever
 * comes first, in virtual time). Without `idle` the broker holds the wait without counting it
 * until the node declares itself idle.
 */
static int arm(int fd, tcp_conn *c, uint32_t events, uint64_t deadline, int idle) {
    if (c->dead) return -1;
    uint32_t flags = 0;
    uint64_t sent = deadline;
    if (c->armed && c->armed_events == events && c->armed_deadline == sent && !idle) return 0;
    if (c->armed && disarm(fd, c, NULL)) return -1;
    if (!weft_cfg.window_ns && idle) flags = TCPW_WAIT_FOREVER;   /* plain: the node waits here for good */
    if (weft_cfg.window_ns && process_waits(idle)) {
        flags = TCPW_WAIT_IDLE;
        uint64_t other = weft_sched_idle_deadline();
        if (other && (!sent || other < sent)) sent = other;
    }
    int aside = weft_cfg.window_ns && !(flags & TCPW_WAIT_IDLE);
    int bad = tcpw_wait_send(fd, events, weft_mono_peek(), sent, flags) != 0;
    if (!bad && aside) {   /* set aside: acknowledged at once, in program order */
        tcpw_reply a;
        bad = tcpw_read_reply(fd, NULL, 0, 0, &a) || a.tag != REP_ACK;
        if (!bad) saw(&a);
    }
    if (aside) node_count_acknowledged(&tab->setting_aside);
    if (bad) return mark_dead(c);
    WEFT_TRACE("tcp_wait", "%d events 0x%x deadline %lu%s", fd, events, (unsigned long)sent,
               flags & TCPW_WAIT_IDLE ? " idle" : flags ? " forever" : "");
    c->armed = 1;
    c->armed_events = events;
    c->armed_deadline = sent;
    c->own_deadline = deadline;
    c->armed_pid = (int)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    if (flags & TCPW_WAIT_IDLE) atomic_store(&tab->node_idle, 1);
    return 0;
}

/* Windowed: may this thread's wait declare the node idle? Not while another thread of the process
 * still has to arm its own wait (it will, last, and declare it). */
static int may_idle(void) {
    return weft_cfg.window_ns && weft_sched_armers_pending() == 0;
}

/* Real-time wait for the stream: 1 readable, 0 budget spent, -1 interrupted. */
static int wait_readable(int fd, uint64_t budget_ns) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    struct timespec ts = {(time_t)(budget_ns / 1000000000ULL), (long)(budget_ns % 1000000000ULL)};
    long r = weft_real_syscall(SYS_ppoll, &p, 1, budget_ns == UINT64_MAX ? NULL : &ts, NULL, 8, 0);
    if (r < 0) return -1;
    return r > 0;
}

/* Windowed, an unmanaged wait: in slices of 1 ms of real time, between which the node's idle wait is
 * declared again when every process of the node waits and none holds it (another process's wait
 * was answered, then it exited or waits again without declaring: weft_tcp_redeclare_idle). */
int weft_tcp_windowed_wait_fd(int fd) {
    for (;;) {
        int r = wait_readable(fd, 1000000);
        if (r != 0) return r;
        weft_tcp_redeclare_idle();
    }
}

int weft_tcp_idle_declared(void) { return tab && atomic_load(&tab->node_idle); }

int weft_tcp_waits_here(void) {
    if (!tab) return 0;
    int lim = atomic_load(&tcp_fd_limit);
    int me = (int)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (c && c->armed && !c->dead && c->armed_pid == me) return 1;
    }
    return 0;
}

/*
 * The scheduler found the process idle (no thread can run, none waits to arm) after one of its
 * waits was answered: the broker has set the others aside. Re-send one of them as the idle wait
 * (TcpUnwait, then the same TcpWait with TCPW_WAIT_IDLE), which makes all of the node's held waits
 * bound it again. Called from pick() with sched_lock held: every other thread is parked.
 */
int weft_tcp_redeclare_idle(void) {
    if (!weft_cfg.window_ns || !tab || atomic_load(&tab->node_idle)) return 0;
    /* another process still runs (it will declare), or re-declares right now */
    if (atomic_load(&tab->running) > (me_idle || uncounted ? 0 : 1)) return 0;
    if (gone_still_alive()) return 0;
    int z = 0;
    if (!atomic_compare_exchange_strong(&tab->redeclaring, &z, 1)) return 0;
    /* announced, then the declaration claimed, before the TcpUnwait: a process that claimed it just
     * before sends its idle wait only once this one's TcpUnwait and wait are with the broker (this
     * wait then goes set aside); otherwise the TcpUnwait could follow that idle wait, at a clock the
     * broker had sealed past (socat fork: a late TcpUnwait). The claim ends when the TcpUnwait makes
     * the process run again (disarm); its wait then claims the declaration anew, or is set aside. */
    node_count_announce(&tab->setting_aside);
    redeclaring_here = 1;
    int lim = atomic_load(&tcp_fd_limit), done = 0, taken_back = 0;
    int claimed = node_count_claim_redeclare(&tab->running, &tab->node_idle, me_idle || uncounted ? 0 : 1);
    int me = (int)weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    for (int fd = 0; claimed && fd < lim && !done; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c || !c->armed || c->dead || c->armed_pid != me) continue;
        conn_lock(c);
        if (c->armed && !c->dead) {
            uint32_t ev = c->armed_events;
            uint64_t d = c->own_deadline;
            taken_back = 1;
            done = disarm(fd, c, NULL) == 0 && arm(fd, c, ev, d, 1) == 0;
        }
        lock_release(c);
    }
    if (claimed && !taken_back) atomic_store(&tab->node_idle, 0);   /* no wait of ours to declare with */
    redeclaring_here = 0;
    node_count_acknowledged(&tab->setting_aside);
    atomic_store(&tab->redeclaring, 0);
    return done;
}

/* Windowed (protocol-v3 §2): a held TcpWait tells the broker "this node is blocked at its clock", so
 * a managed thread first parks as a net waiter (fd -1: "ready" at once) and goes on only when the
 * scheduler has no other thread to run; only then is the TcpWait sent (as net_recv_windowed asks). */
static void windowed_idle_point(void) {
    if (!weft_cfg.window_ns || !weft_sched_active()) return;
    weft_io_wait w = {.kind = WEFT_IO_NET, .net = 1, .fd = WEFT_TCP_IDLE_FD};
    weft_sched_net_block(&w, 0);
}

/* Leaves the socket: while anyone waits on its stream, a TcpWait must be outstanding for them. */
static void conn_unlock(int fd, tcp_conn *c) {
    if (!c->dead && c->waiters > 0 && !c->armed) arm(fd, c, c->wait_events, c->wait_deadline, 0);
    lock_release(c);
}

/* Locks the socket for a request: the outstanding wait (if any) is taken back first. */
static int begin_op(int fd, tcp_conn *c) {
    conn_lock(c);
    if (c->dead || disarm(fd, c, NULL)) {
        lock_release(c);
        return set_errno(EIO);
    }
    return 0;
}


/* A wait cut by a signal timer at its expiry (timer_wait.c): the timer fires; a handler ends the call
 * with EINTR unless it has SA_RESTART and the socket no timeout (SO_RCVTIMEO/SO_SNDTIMEO: such a call
 * is never restarted, socket(7)); otherwise 0: the
 * caller asks again and waits on. */
static int timer_cut_ends(tcp_conn *c, uint64_t cut, uint64_t sock_timeout_ns) {
    WEFT_TRACE("tcp_wait", "cut by a timer at %lu", (unsigned long)cut);
    lock_release(c);   /* the handler runs with the socket free (and weft_depth 0) */
    int eintr = weft_timer_net_fired(cut, !sock_timeout_ns);
    conn_lock(c);
    if (c->dead) return set_errno(EIO);
    return eintr ? set_errno(EINTR) : 0;
}

/*
 * A call that cannot complete yet waits for `events` (conn locked on entry and on return 0):
 * 0 = try again; -1 with errno: EAGAIN when the virtual timeout passed (the clock then at t0 +
 * timeout), EINTR, EIO. Managed threads wait in the scheduler model as net waiters (woken only when
 * no thread can run, spec §8); others in ppoll on the stream, paced like UDP receives (docs/shim.md
 * "Network"). The broker learns the deadline too, so it can end the wait in virtual time.
 */
static int wait_for(int fd, tcp_conn *c, uint32_t events, uint64_t t0, uint64_t timeout_ns) {
    uint64_t deadline = timeout_ns ? t0 + timeout_ns : 0;
    /* a signal timer expiring first is the wait's deadline, and fires there (issue 29) */
    uint64_t cut = weft_timer_net_cut(deadline), own_timeout = timeout_ns;
    if (cut && cut <= weft_mono_peek()) return timer_cut_ends(c, cut, own_timeout);
    if (cut) {
        uint64_t now = weft_mono_peek();
        deadline = cut;
        timeout_ns = cut - (now < cut ? now : cut);   /* the real budget below: what is left to the expiry */
    }
    if (weft_cfg.window_ns && weft_sched_active()) {
        conn_unlock(fd, c);
        windowed_idle_point();
        conn_lock(c);
        if (c->dead) return set_errno(EIO);
        if (c->armed && disarm(fd, c, NULL)) return -1;
    }
    c->waiters++;
    c->wait_events |= events;
    if (deadline && (!c->wait_deadline || deadline < c->wait_deadline)) c->wait_deadline = deadline;
    /* windowed: this thread's wait is the node's idle wait (see arm); plain: a wait with no deadline in a
     * single-threaded process alone in its node is the whole node's, forever (the deadlock verdict) */
    if (weft_cfg.window_ns && !c->dead && !c->armed) arm(fd, c, c->wait_events, c->wait_deadline, may_idle());
    else if (!weft_cfg.window_ns && !c->dead && !c->armed && !deadline && c->waiters == 1 && weft_pt_alone() &&
             !atomic_load_explicit(&weft_multithreaded, memory_order_relaxed))
        arm(fd, c, c->wait_events, 0, 1);
    conn_unlock(fd, c);
    int rc;
    if (weft_sched_active()) {
        weft_io_wait w = {.kind = WEFT_IO_NET, .net = 1, .fd = fd};
        int ok = weft_sched_net_block(&w, deadline);
        rc = !ok ? 0 : (w.result < 0 ? (errno = w.err, -1) : 1);
    } else {
        for (;;) {
            if (weft_cfg.window_ns) {   /* the broker answers at the deadline (virtual time), never a budget */
                rc = weft_tcp_windowed_wait_fd(fd);
                break;
            }
            rc = wait_readable(fd, timeout_ns ? weft_net_real_budget(timeout_ns) : UINT64_MAX);
            if (rc == 0 && weft_net_broker_behind()) continue; /* the broker had no chance yet */
            break;
        }
    }
    int saved = errno;
    conn_lock(c);
    if (--c->waiters == 0) { c->wait_events = 0; c->wait_deadline = 0; }
    if (c->dead) return set_errno(EIO);
    if (rc < 0) { errno = saved; return -1; }
    uint32_t rev = 1;
    if (rc > 0 && c->armed && stream_readable(fd) && disarm(fd, c, &rev)) return -1;
    /* windowed (protocol-v3 §2: nothing armed): the thread runs on, so the wait is taken back */
    if (weft_cfg.window_ns && c->armed && disarm(fd, c, rc > 0 ? &rev : NULL)) return -1;
    /* the virtual timeout; windowed, a Ready with nothing at an earlier instant (another thread's
     * deadline folded into the idle wait) is only a wake-up: the caller asks again */
    if (rc == 0 || (deadline && rev == 0 && (!weft_cfg.window_ns || weft_mono_peek() >= deadline))) {
        weft_mono_at_least(deadline);
        if (cut) return timer_cut_ends(c, cut, own_timeout);
        return set_errno(EAGAIN);
    }
    return 0;
}

/* ------------------------------------------------------------------ addresses */

static int parse_sockaddr(const struct sockaddr *a, socklen_t len, tcpw_addr *out) {
    if (!a) return set_errno(EFAULT);
    if (len < (socklen_t)sizeof(struct sockaddr_in)) return set_errno(EINVAL);
    if (a->sa_family != AF_INET) return set_errno(EAFNOSUPPORT);
    const struct sockaddr_in *in = (const struct sockaddr_in *)a;
    out->ip = ntohl(in->sin_addr.s_addr);
    out->port = ntohs(in->sin_port);
    return 0;
}

/* An Error reply's errno; anything else is the stream out of step. */
static int reply_error(tcp_conn *c, const tcpw_reply *r) {
    if (r->tag == REP_ERROR && r->err > 0 && r->err < 4096) return set_errno((int)r->err);
    return mark_dead(c);
}

/* ------------------------------------------------------------------ socket, bind, listen */

/* A new simulated socket on a fresh broker connection: its fd, -1 with errno, or -2 when the broker
 * cannot be reached (the caller warns and hands out a real socket, as for UDP). */
static int open_stream(int cloexec, int nonblock) {
    if (table_ready()) return -2;
    weft_depth++;
    int fd = weft_net_broker_connect(cloexec ? SOCK_CLOEXEC : 0);
    if (fd >= 0 && (fd >= TCP_MAX_FD || weft_net_hello(fd) != 0)) {
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        fd = -1;
    }
    weft_depth--;
    if (fd < 0) return -2;
    int idx = conn_new(nonblock);
    if (idx < 0) {
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        return set_errno(ENFILE);
    }
    map_fd(fd, idx);
    return fd;
}

int weft_tcp_socket(int type) {
    int fd = open_stream(type & SOCK_CLOEXEC, (type & SOCK_NONBLOCK) != 0);
    if (fd >= 0) {
        atomic_fetch_add(&n_tcp_simulated, 1);
        WEFT_TRACE("socket", "AF_INET, SOCK_STREAM -> simulated %d", fd);
    }
    return fd;
}

static int do_bind(int fd, tcp_conn *c, tcpw_addr a) {
    tcpw_reply r;
    if (tcpw_bind(fd, a, &r)) return mark_dead(c);
    saw(&r);
    if (r.tag != REP_BOUND) return reply_error(c, &r);
    c->bound = 1;
    c->lip = r.a.ip;
    c->lport = r.a.port;
    return 0;
}

int weft_tcp_bind(int fd, const struct sockaddr *a, socklen_t len) {
    tcp_conn *c = conn_of(fd);
    tcpw_addr want;
    if (parse_sockaddr(a, len, &want)) return -1;
    if (want.ip == INADDR_ANY) want.ip = own_ip(); /* a node has one interface */
    if (begin_op(fd, c)) return -1;
    int rc = c->bound ? set_errno(EINVAL) : do_bind(fd, c, want);
    conn_unlock(fd, c);
    WEFT_TRACE("bind", "tcp %d %x:%u -> %d", fd, want.ip, want.port, rc);
    return rc;
}

int weft_tcp_listen(int fd, int backlog) {
    tcp_conn *c = conn_of(fd);
    if (begin_op(fd, c)) return -1;
    int rc = 0;
    if (c->connected || c->connecting) rc = set_errno(EINVAL);
    if (rc == 0 && !c->bound) rc = do_bind(fd, c, (tcpw_addr){own_ip(), 0}); /* as the kernel: an ephemeral port */
    if (rc == 0) {
        tcpw_reply r;
        if (tcpw_listen(fd, backlog < 0 ? 0 : (uint32_t)backlog, &r)) rc = mark_dead(c);
        else if (saw(&r), r.tag != REP_ACK) rc = reply_error(c, &r);
        else c->listening = 1;
    }
    conn_unlock(fd, c);
    WEFT_TRACE("listen", "tcp %d backlog %d -> %d", fd, backlog, rc);
    return rc;
}

/* ------------------------------------------------------------------ connect */

/* The socket's state from the broker (Status), caching what it says. Conn locked. */
static int refresh_status(int fd, tcp_conn *c, tcpw_reply *r) {
    if (tcpw_status(fd, r)) return mark_dead(c);
    saw(r);
    if (r->tag != REP_STATUS) return reply_error(c, r);
    if (r->a.port) { c->bound = 1; c->lip = r->a.ip; c->lport = r->a.port; }
    if (r->state == TCPS_ESTABLISHED || r->state == TCPS_PEER_CLOSED) {
        c->connected = 1;
        c->connecting = 0;
        c->pip = r->b.ip;
        c->pport = r->b.port;
    } else if (c->connecting && r->state != TCPS_CONNECTING) {
        c->connecting = 0;   /* refused or timed out: so_error says why */
    }
    return 0;
}

int weft_tcp_connect(int fd, const struct sockaddr *a, socklen_t len) {
    tcp_conn *c = conn_of(fd);
    tcpw_addr dst;
    if (parse_sockaddr(a, len, &dst)) return -1;
    uint64_t t0 = weft_mono_observe();
    if (begin_op(fd, c)) return -1;
    int rc = 0;
    tcpw_reply r;
    if (c->connected) rc = set_errno(EISCONN);
    else if (c->listening) rc = set_errno(EINVAL);
    else if (c->connecting) {
        /* a second connect while one is under way: EALREADY, or how it ended */
        if (refresh_status(fd, c, &r) == 0) {
            if (c->connected) rc = set_errno(EISCONN);
            else if (c->connecting) rc = set_errno(EALREADY);
            else rc = set_errno(r.so_error ? (int)r.so_error : ECONNREFUSED);
        } else {
            rc = -1;
        }
    } else if (tcpw_connect(fd, dst, t0, 1, &r)) {
        rc = mark_dead(c);
    } else if (saw(&r), r.tag != REP_ACK) {
        rc = reply_error(c, &r);
    } else {
        c->connecting = 1;
        c->pip = dst.ip;
        c->pport = dst.port;
        if (c->nonblock) {
            rc = set_errno(EINPROGRESS);
        } else {
            /* blocking: wait for the outcome (OUT, or ERR/HUP, which are always reported) */
            for (;;) {
                if (refresh_status(fd, c, &r)) { rc = -1; break; }
                if (c->connected) break;
                if (!c->connecting) { rc = set_errno(r.so_error ? (int)r.so_error : ECONNREFUSED); break; }
                if (wait_for(fd, c, TCPW_OUT, t0, c->sndtimeo_ns)) {
                    rc = errno == EAGAIN ? set_errno(EINPROGRESS) : -1;
                    break;
                }
            }
        }
    }
    conn_unlock(fd, c);
    WEFT_TRACE("connect", "tcp %d %x:%u -> %d", fd, dst.ip, dst.port, rc);
    return rc;
}

/* ------------------------------------------------------------------ accept */

int weft_tcp_accept(int fd, struct sockaddr *a, socklen_t *al, int flags) {
    tcp_conn *c = conn_of(fd);
    if (flags & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) return set_errno(EINVAL);
    uint64_t t0 = weft_mono_observe();
    if (begin_op(fd, c)) return -1;
    if (!c->listening) { conn_unlock(fd, c); return set_errno(EINVAL); }
    c->et_reported &= ~(uint32_t)TCPW_IN;
    tcpw_reply r;
    for (;;) {
        if (tcpw_accept(fd, t0, 0, &r)) { mark_dead(c); conn_unlock(fd, c); return -1; }
        saw(&r);
        if (r.tag == REP_ACCEPTED) break;
        if (r.tag != REP_EMPTY) { int rc = reply_error(c, &r); conn_unlock(fd, c); return rc; }
        if (c->nonblock) { conn_unlock(fd, c); return set_errno(EAGAIN); }
        if (wait_for(fd, c, TCPW_IN, t0, c->rcvtimeo_ns)) { int e = errno; conn_unlock(fd, c); return set_errno(e); }
    }
    conn_unlock(fd, c);
    /* the accepted stream gets a connection of its own, adopted by its sid */
    int nfd = open_stream(flags & SOCK_CLOEXEC, (flags & SOCK_NONBLOCK) != 0);
    if (nfd == -2) { weft_errline("[weft] WARNING: cannot reach the broker at %s to adopt an accepted connection", weft_cfg.broker); return set_errno(ECONNABORTED); }
    if (nfd < 0) return -1;
    tcp_conn *n = conn_of(nfd);
    conn_lock(n);
    tcpw_reply ack;
    int rc = tcpw_adopt(nfd, r.sid, &ack);
    if (rc == 0 && (saw(&ack), ack.tag != REP_ACK)) rc = -1;
    if (rc == 0) {
        n->bound = n->connected = 1;
        n->pip = r.a.ip;
        n->pport = r.a.port;
        n->lip = r.b.ip;
        n->lport = r.b.port;
    }
    lock_release(n);
    if (rc) {
        unmap_fd(nfd);
        conn_unref(n);
        weft_real_syscall(SYS_close, nfd, 0, 0, 0, 0, 0);
        return set_errno(ECONNABORTED);
    }
    atomic_fetch_add(&n_tcp_accepted, 1);
    weft_fill_sockaddr(a, al, r.a.ip, r.a.port);
    WEFT_TRACE("accept", "tcp %d -> %d (sid %lu)", fd, nfd, (unsigned long)r.sid);
    return nfd;
}

/* ------------------------------------------------------------------ sending */

static void raise_sigpipe(void) {
    long pid = weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    long tid = weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
    weft_real_syscall(SYS_tgkill, pid, tid, SIGPIPE, 0, 0, 0);
}

/* iov advanced past `skip` bytes, into out (at most cap entries): the count */
static int iov_from(const struct iovec *iov, int n, size_t skip, struct iovec *out, int cap) {
    int k = 0;
    for (int i = 0; i < n && k < cap; i++) {
        if (skip >= iov[i].iov_len) { skip -= iov[i].iov_len; continue; }
        out[k++] = (struct iovec){(char *)iov[i].iov_base + skip, iov[i].iov_len - skip};
        skip = 0;
    }
    return k;
}

#define IOV_CAP 64

ssize_t weft_tcp_send(int fd, const struct iovec *iov, int n, int flags) {
    tcp_conn *c = conn_of(fd);
    if (n < 0 || n > 1024) return set_errno(EINVAL);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!iov[i].iov_base && iov[i].iov_len) return set_errno(EFAULT);
        total += iov[i].iov_len;
    }
    int nonblock = (flags & MSG_DONTWAIT) || c->nonblock;
    uint64_t t0 = weft_mono_observe();
    if (begin_op(fd, c)) return -1;
    if (!c->connected && !c->connecting) { conn_unlock(fd, c); return set_errno(ENOTCONN); }
    if (total == 0) { conn_unlock(fd, c); return 0; }
    size_t sent = 0;
    int err = 0;
    while (sent < total) {
        struct iovec part[IOV_CAP];
        int k = iov_from(iov, n, sent, part, IOV_CAP);
        size_t left = total - sent;
        tcpw_reply r;
        if (tcpw_write(fd, part, k, left < TCPW_WRITE_CHUNK ? left : TCPW_WRITE_CHUNK, t0, 0, &r)) {
            mark_dead(c);
            err = EIO;
            break;
        }
        saw(&r);
        if (r.tag == REP_WROTE && r.n > 0) {
            sent += r.n;
            continue;
        }
        if (r.tag == REP_WROTE || r.tag == REP_EMPTY) {   /* the peer's buffer is full */
            c->et_reported &= ~(uint32_t)TCPW_OUT;
            if (nonblock) { if (!sent) err = EAGAIN; break; }
            if (wait_for(fd, c, TCPW_OUT, t0, c->sndtimeo_ns)) { if (!sent) err = errno; break; }
            continue;
        }
        if (reply_error(c, &r) == -1 && !sent) err = errno;
        break;
    }
    conn_unlock(fd, c);
    WEFT_TRACE("send", "tcp %d %zu of %zu bytes%s", fd, sent, total, err ? " (error)" : "");
    if (sent || !err) {
        if (weft_sched_active()) weft_sched_net_send();
        return (ssize_t)sent;
    }
    if (err == EPIPE && !(flags & MSG_NOSIGNAL)) raise_sigpipe();
    return set_errno(err);
}

/* ------------------------------------------------------------------ receiving */

ssize_t weft_tcp_recv(int fd, const struct iovec *iov, int n, int flags) {
    tcp_conn *c = conn_of(fd);
    if (n < 0 || n > 1024) return set_errno(EINVAL);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (!iov[i].iov_base && iov[i].iov_len) return set_errno(EFAULT);
        total += iov[i].iov_len;
    }
    if (total > TCPW_READ_CHUNK) total = TCPW_READ_CHUNK;
    int peek = (flags & MSG_PEEK) != 0;
    int waitall = (flags & MSG_WAITALL) && !peek;
    int nonblock = (flags & MSG_DONTWAIT) || c->nonblock;
    uint64_t t0 = weft_mono_observe();
    if (begin_op(fd, c)) return -1;
    if (c->listening || (!c->connected && !c->connecting)) { conn_unlock(fd, c); return set_errno(ENOTCONN); }
    c->et_reported &= ~(uint32_t)(TCPW_IN | TCPW_RDHUP);
    size_t got = 0;
    int err = 0;
    while (total > 0) {
        struct iovec part[IOV_CAP];
        int k = iov_from(iov, n, got, part, IOV_CAP);
        tcpw_reply r;
        if (tcpw_read(fd, (uint32_t)(total - got), peek, t0, 0, part, k, &r)) { mark_dead(c); err = EIO; break; }
        saw(&r);
        if (r.tag == REP_DATA) {
            got += r.n;
            if (!waitall || got >= total) break;
            continue;
        }
        if (r.tag == REP_EOF) break;
        if (r.tag == REP_EMPTY) {
            if (nonblock) { if (!got) err = EAGAIN; break; }
            if (wait_for(fd, c, TCPW_IN, t0, c->rcvtimeo_ns)) { if (!got) err = errno; break; }
            continue;
        }
        if (reply_error(c, &r) == -1 && !got) err = errno;
        break;
    }
    conn_unlock(fd, c);
    WEFT_TRACE("recv", "tcp %d %zu bytes%s", fd, got, err ? " (error)" : "");
    if (err) return set_errno(err);
    return (ssize_t)got;
}

/* ------------------------------------------------------------------ shutdown, close, dup */

int weft_tcp_shutdown(int fd, int how) {
    tcp_conn *c = conn_of(fd);
    if (how < SHUT_RD || how > SHUT_RDWR) return set_errno(EINVAL);
    if (begin_op(fd, c)) return -1;
    tcpw_reply r;
    int rc = 0;
    if (tcpw_shutdown(fd, (uint32_t)how, &r)) rc = mark_dead(c);
    else if (saw(&r), r.tag != REP_ACK) rc = reply_error(c, &r);
    conn_unlock(fd, c);
    WEFT_TRACE("shutdown", "tcp %d how %d -> %d", fd, how, rc);
    return rc;
}

/* Windowed: the last reference of a socket goes: TcpClose{local_vt} puts the close at the node's
 * clock in key order (its Ack comes once it is applied); the EOF that follows only ends the
 * connection. Without it the EOF would be keyed by when the broker noticed it. */
static void close_with_clock(int fd, tcp_conn *c) {
    if (!weft_cfg.window_ns || atomic_load(&c->refs) != 1) return;
    conn_lock(c);
    tcpw_reply r;
    if (!c->dead && disarm(fd, c, NULL) == 0) {
        if (tcpw_close(fd, weft_mono_observe(), &r) || r.tag != REP_ACK) mark_dead(c);
        else saw(&r);
        WEFT_TRACE("tcp_close", "%d at the node's clock", fd);
    }
    c->dead = 1;   /* nothing more may be said on it */
    lock_release(c);
}

/* The fd is being closed (or replaced by dup2): the last reference of an SO_LINGER {1,0} socket
 * tells the broker that the coming EOF is a reset. The close itself is the caller's real close. */
void weft_tcp_forget(int fd) {
    tcp_conn *c = conn_of(fd);
    if (!c) return;
    if (c->opt_linger_on && c->opt_linger_secs == 0 && atomic_load(&c->refs) == 1) {
        conn_lock(c);
        if (!c->dead && disarm(fd, c, NULL) == 0) tcpw_abort(fd);
        lock_release(c);
    }
    close_with_clock(fd, c);
    unmap_fd(fd);
    conn_unref(c);
    WEFT_TRACE("close", "tcp %d", fd);
}

/* dup, dup2, dup3, F_DUPFD: `to` now refers to the same socket as `from`. */
void weft_tcp_dup(int from, int to) {
    tcp_conn *c = conn_of(from);
    if (!c || to < 0 || to >= TCP_MAX_FD || to == from) return;
    if (conn_of(to)) weft_tcp_forget(to);
    atomic_fetch_add(&c->refs, 1);
    map_fd(to, (int)(c - tab->c));
}

/* ------------------------------------------------------------------ names, options, flags */

int weft_tcp_getsockname(int fd, struct sockaddr *a, socklen_t *al) {
    tcp_conn *c = conn_of(fd);
    if (!a || !al) return set_errno(EFAULT);
    if (!c->lport && (c->connecting || c->connected)) {
        tcpw_reply r;
        if (begin_op(fd, c)) return -1;
        int rc = refresh_status(fd, c, &r);
        conn_unlock(fd, c);
        if (rc) return -1;
    }
    weft_fill_sockaddr(a, al, c->lport ? c->lip : 0, c->lport);
    return 0;
}

int weft_tcp_getpeername(int fd, struct sockaddr *a, socklen_t *al) {
    tcp_conn *c = conn_of(fd);
    if (!a || !al) return set_errno(EFAULT);
    if (!c->connected && c->connecting) {
        tcpw_reply r;
        if (begin_op(fd, c)) return -1;
        int rc = refresh_status(fd, c, &r);
        conn_unlock(fd, c);
        if (rc) return -1;
    }
    if (!c->connected) return set_errno(ENOTCONN);
    weft_fill_sockaddr(a, al, c->pip, c->pport);
    return 0;
}

/* Options live in the socket's entry (the broker connection's own must not change: SO_RCVTIMEO on
 * it would cut a reply in half). The usual ones are accepted and read back; they change nothing
 * the simulation models (docs/tcp.md). */
int weft_tcp_setsockopt(int fd, int level, int name, const void *v, socklen_t len) {
    tcp_conn *c = conn_of(fd);
    if (!v) return set_errno(EFAULT);
    if (level == SOL_SOCKET && (name == SO_RCVTIMEO || name == SO_SNDTIMEO)) {
        return weft_timeout_opt_in(v, len, name == SO_RCVTIMEO ? &c->rcvtimeo_ns : &c->sndtimeo_ns);
    }
    if (level == SOL_SOCKET && name == SO_LINGER) {
        if (len < (socklen_t)sizeof(struct linger)) return set_errno(EINVAL);
        const struct linger *l = v;
        c->opt_linger_on = l->l_onoff != 0;
        c->opt_linger_secs = l->l_linger;
        return 0;
    }
    if (len < (socklen_t)sizeof(int)) return set_errno(EINVAL);
    int iv = *(const int *)v;
    if (level == SOL_SOCKET) {
        switch (name) {
        case SO_REUSEADDR: c->opt_reuseaddr = iv != 0; return 0;
        case SO_REUSEPORT: c->opt_reuseport = iv != 0; return 0;
        case SO_KEEPALIVE: c->opt_keepalive = iv != 0; return 0;
        case SO_OOBINLINE: c->opt_oobinline = iv != 0; return 0;
        case SO_RCVBUF: c->opt_rcvbuf = weft_sockbuf_rcv(iv); return 0;
        case SO_SNDBUF: c->opt_sndbuf = weft_sockbuf_snd(iv); return 0;
        case SO_PRIORITY: case SO_TIMESTAMP: case SO_TIMESTAMPNS: case SO_DONTROUTE: case SO_RCVLOWAT:
        case SO_SNDLOWAT: case SO_BROADCAST: case SO_MARK: case SO_BUSY_POLL: return 0;
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_TCP) {
        switch (name) {
        case TCP_NODELAY: c->opt_nodelay = iv != 0; return 0;
        case TCP_KEEPIDLE: case TCP_KEEPINTVL: case TCP_KEEPCNT:
            if (iv < 1 || iv > 32767) return set_errno(EINVAL);
            if (name == TCP_KEEPIDLE) c->opt_keepidle = iv;
            else if (name == TCP_KEEPINTVL) c->opt_keepintvl = iv;
            else c->opt_keepcnt = iv;
            return 0;
        case TCP_CORK: case TCP_QUICKACK: case TCP_DEFER_ACCEPT: case TCP_FASTOPEN: case TCP_USER_TIMEOUT:
        case TCP_MAXSEG: case TCP_NOTSENT_LOWAT: case TCP_SYNCNT: case TCP_LINGER2: case TCP_WINDOW_CLAMP:
            return 0;
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_IP) {
        switch (name) {
        case IP_TOS: case IP_TTL: case IP_RECVERR: case IP_MTU_DISCOVER: case IP_BIND_ADDRESS_NO_PORT:
        case IP_FREEBIND: case IP_TRANSPARENT: return 0;
        default: return set_errno(ENOPROTOOPT);
        }
    }
    return set_errno(ENOPROTOOPT);
}

/* SO_ERROR: the pending error of a finished non-blocking connect (then cleared, as the kernel does) */
static int so_error(int fd, tcp_conn *c, int *out) {
    *out = 0;
    if (!c->connecting && c->connected) return 0;
    tcpw_reply r;
    if (begin_op(fd, c)) return -1;
    int was_connecting = c->connecting;
    int rc = refresh_status(fd, c, &r);
    conn_unlock(fd, c);
    if (rc) return -1;
    if (was_connecting || !c->connected) *out = (int)r.so_error;
    return 0;
}

int weft_tcp_getsockopt(int fd, int level, int name, void *v, socklen_t *len) {
    tcp_conn *c = conn_of(fd);
    if (!v || !len) return set_errno(EFAULT);
    if (level == SOL_SOCKET) {
        switch (name) {
        case SO_TYPE: return weft_int_opt_out(v, len, SOCK_STREAM);
        case SO_DOMAIN: return weft_int_opt_out(v, len, AF_INET);
        case SO_PROTOCOL: return weft_int_opt_out(v, len, IPPROTO_TCP);
        case SO_ACCEPTCONN: return weft_int_opt_out(v, len, c->listening);
        case SO_ERROR: {
            int e;
            if (so_error(fd, c, &e)) return -1;
            return weft_int_opt_out(v, len, e);
        }
        case SO_REUSEADDR: return weft_int_opt_out(v, len, c->opt_reuseaddr);
        case SO_REUSEPORT: return weft_int_opt_out(v, len, c->opt_reuseport);
        case SO_KEEPALIVE: return weft_int_opt_out(v, len, c->opt_keepalive);
        case SO_OOBINLINE: return weft_int_opt_out(v, len, c->opt_oobinline);
        case SO_RCVBUF: return weft_int_opt_out(v, len, c->opt_rcvbuf);
        case SO_SNDBUF: return weft_int_opt_out(v, len, c->opt_sndbuf);
        case SO_LINGER: {
            if (*len < (socklen_t)sizeof(struct linger)) return set_errno(EINVAL);
            struct linger l = {c->opt_linger_on, c->opt_linger_secs};
            memcpy(v, &l, sizeof l);
            *len = sizeof l;
            return 0;
        }
        case SO_RCVTIMEO: return weft_timeout_opt_out(v, len, c->rcvtimeo_ns);
        case SO_SNDTIMEO: return weft_timeout_opt_out(v, len, c->sndtimeo_ns);
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_TCP) {
        switch (name) {
        case TCP_NODELAY: return weft_int_opt_out(v, len, c->opt_nodelay);
        case TCP_KEEPIDLE: return weft_int_opt_out(v, len, c->opt_keepidle);
        case TCP_KEEPINTVL: return weft_int_opt_out(v, len, c->opt_keepintvl);
        case TCP_KEEPCNT: return weft_int_opt_out(v, len, c->opt_keepcnt);
        case TCP_MAXSEG: return weft_int_opt_out(v, len, 65483);
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_IP && name == IP_TTL) return weft_int_opt_out(v, len, 64);
    if (level == IPPROTO_IP && name == IP_TOS) return weft_int_opt_out(v, len, 0);
    return set_errno(ENOPROTOOPT);
}

int weft_tcp_fcntl(int fd, int cmd, long arg) {
    tcp_conn *c = conn_of(fd);
    if (cmd == F_GETFL) {
        long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
        if (fl < 0) return -1;
        return (int)((fl & ~O_NONBLOCK) | (c->nonblock ? O_NONBLOCK : 0));
    }
    c->nonblock = (arg & O_NONBLOCK) != 0;   /* the stream stays blocking */
    return (int)weft_real_syscall(SYS_fcntl, fd, F_SETFL, arg & ~O_NONBLOCK, 0, 0, 0);
}

/* FIONBIO, FIONREAD (= SIOCINQ: unread bytes), SIOCOUTQ (0: written bytes are the broker's at
 * once); 1 when answered (result in *rc), 0 for a request the stream itself answers. */
int weft_tcp_ioctl(int fd, unsigned long req, void *arg, int *rc) {
    tcp_conn *c = conn_of(fd);
    if (req != FIONBIO && req != FIONREAD && req != SIOCOUTQ) return 0;
    if (!arg) { *rc = set_errno(EFAULT); return 1; }
    *rc = 0;
    if (req == FIONBIO) { c->nonblock = *(int *)arg != 0; return 1; }
    if (req == SIOCOUTQ) { *(int *)arg = 0; return 1; }
    if (c->listening) { *rc = set_errno(EINVAL); return 1; }
    tcpw_reply r;
    if (begin_op(fd, c)) { *rc = -1; return 1; }
    if (refresh_status(fd, c, &r)) *rc = -1;
    conn_unlock(fd, c);
    if (*rc == 0) *(int *)arg = (int)r.unread;
    return 1;
}

/* ------------------------------------------------------------------ readiness */

static uint32_t poll_to_wait(uint32_t ev) {
    uint32_t w = 0;
    if (ev & (POLLIN | POLLRDNORM)) w |= TCPW_IN;
    if (ev & (POLLOUT | POLLWRNORM)) w |= TCPW_OUT;
    if (ev & POLLRDHUP) w |= TCPW_RDHUP;
    return w;
}

/* A Ready's revents as poll bits the caller asked for (ERR and HUP always). */
static short wait_to_poll(uint32_t rev, uint32_t asked) {
    uint32_t p = 0;
    if (rev & TCPW_IN) p |= asked & (POLLIN | POLLRDNORM);
    if (rev & TCPW_OUT) p |= asked & (POLLOUT | POLLWRNORM);
    if (rev & TCPW_RDHUP) p |= asked & POLLRDHUP;
    if (rev & TCPW_HUP) p |= POLLHUP;
    if (rev & TCPW_ERR) p |= POLLERR;
    return (short)p;
}

/* A zero-timeout wait asks at once: TcpWait with the deadline now, answered without waiting.
 * Conn locked; *rev the answer. */
static int probe_now(int fd, tcp_conn *c, uint32_t events, uint32_t *rev) {
    *rev = 0;
    if (c->dead) { *rev = TCPW_ERR | TCPW_HUP; return 0; }
    if (disarm(fd, c, NULL)) { *rev = TCPW_ERR | TCPW_HUP; return 0; }
    uint64_t now = weft_mono_peek();
    tcpw_reply r;
    if (tcpw_wait_send(fd, events, now, now ? now : 1, TCPW_WAIT_PROBE) || tcpw_read_reply(fd, NULL, 0, 0, &r) || r.tag != REP_READY) {
        mark_dead(c);
        *rev = TCPW_ERR | TCPW_HUP;
        return 0;
    }
    saw(&r);
    *rev = r.n;
    return 0;
}

/* Prepares one watched socket: arms it (or, for a zero timeout, asks at once). Returns the poll
 * events to give the kernel for its stream: POLLIN (a Ready arrives), or everything at once when
 * the answer is already known (dead socket, probe). */
static short watch(int fd, tcp_conn *c, uint32_t events, uint64_t deadline, int zero, uint32_t *probed, int idle) {
    conn_lock(c);
    short kev = POLLIN;
    if (zero) {
        probe_now(fd, c, events, probed);
        kev = 0;
    } else if (c->dead || arm(fd, c, events, deadline, idle)) {
        kev = POLLIN | POLLOUT;  /* the stream is writable: the wait returns at once and reports the error */
    }
    conn_unlock(fd, c);
    return kev;
}

/* After the kernel's wait: the socket's revents (TcpWait bits) from its Ready, if one arrived. */
static uint32_t collect(int fd, tcp_conn *c, short kernel_rev) {
    uint32_t rev = 0;
    conn_lock(c);
    if (c->dead) rev = TCPW_ERR | TCPW_HUP;
    else if (c->armed && weft_cfg.window_ns) {
        /* windowed: the caller runs on, so no TcpWait may stay held (its Ready, or TcpUnwait) */
        if (disarm(fd, c, &rev)) rev = TCPW_ERR | TCPW_HUP;
    } else if (c->armed && (kernel_rev & (POLLIN | POLLHUP | POLLERR)) && stream_readable(fd)) {
        if (disarm(fd, c, &rev)) rev = TCPW_ERR | TCPW_HUP;
    } else if (kernel_rev & (POLLHUP | POLLERR)) {
        mark_dead(c);
        rev = TCPW_ERR | TCPW_HUP;
    }
    conn_unlock(fd, c);
    return rev;
}

/* The first entry of fds[0..i] watching fd (a program may list one fd twice: nc polls its socket
 * once for reading and once for writing; the socket is armed once, for both). */
static unsigned long first_entry(const struct pollfd *fds, unsigned long i) {
    for (unsigned long j = 0; j < i; j++)
        if (fds[j].fd == fds[i].fd) return j;
    return i;
}

/* saved[i]: the entry's own events in the low 16 bits, a probe's answer (+ 1 << 31) above */
int weft_tcp_poll_begin(struct pollfd *fds, unsigned long n, uint32_t *saved, uint64_t deadline, int zero) {
    int k = 0;
    for (unsigned long i = 0; i < n; i++)
        if (conn_of(fds[i].fd)) saved[i] = (uint16_t)fds[i].events, k++;
    if (k && !zero) windowed_idle_point();
    unsigned long last = n;   /* windowed: the last socket armed declares the node idle */
    for (unsigned long i = 0; i < n; i++)
        if (conn_of(fds[i].fd) && first_entry(fds, i) == i) last = i;
    int idle = may_idle();
    k = 0;
    for (unsigned long i = 0; i < n; i++) {
        tcp_conn *c = conn_of(fds[i].fd);
        if (!c || first_entry(fds, i) != i) continue;
        k++;
        uint32_t want = 0, probed = 0;
        for (unsigned long j = i; j < n; j++)
            if (fds[j].fd == fds[i].fd) want |= poll_to_wait(saved[j]);
        short kev = watch(fds[i].fd, c, want, deadline, zero, &probed, idle && i == last);
        for (unsigned long j = i; j < n; j++) {
            if (fds[j].fd != fds[i].fd) continue;
            fds[j].events = j == i ? kev : 0;
            if (zero) saved[j] |= 0x80000000u | (probed & 0x7fff) << 16;
        }
    }
    return k;
}

int weft_tcp_poll_end(struct pollfd *fds, unsigned long n, const uint32_t *saved, int rc) {
    int ready = 0;
    for (unsigned long i = 0; i < n; i++) {
        tcp_conn *c = conn_of(fds[i].fd);
        if (!c) {
            if (fds[i].fd >= 0 && fds[i].revents) ready++;
            continue;
        }
        if (first_entry(fds, i) != i) continue;
        uint32_t rev = (saved[i] & 0x80000000u) ? (saved[i] >> 16) & 0x7fff
                     : (rc > 0 || weft_cfg.window_ns) ? collect(fds[i].fd, c, rc > 0 ? fds[i].revents : 0) : 0;
        for (unsigned long j = i; j < n; j++) {
            if (fds[j].fd != fds[i].fd) continue;
            uint32_t asked = saved[j] & 0xffff;
            fds[j].events = (short)asked;
            fds[j].revents = rc < 0 ? 0 : wait_to_poll(rev, asked);
            if (fds[j].revents) ready++;
        }
    }
    return rc < 0 ? rc : ready;
}

/* select: saved[fd] = 1 read, 2 write, 4 except asked; 8 + probe answer << 4 for a zero timeout */
int weft_tcp_select_begin(int nfds, void *rdv, void *wrv, void *exv, uint32_t *saved, uint64_t deadline, int zero) {
    fd_set *rd = rdv, *wr = wrv, *ex = exv;
    int k = 0;
    if (!zero) {
        for (int fd = 0; fd < nfds && fd < TCP_MAX_FD && !k; fd++) k = conn_of(fd) != NULL;
        if (k) windowed_idle_point();
        k = 0;
    }
    int last = -1, idle = may_idle();   /* windowed: the last socket armed declares the node idle */
    for (int fd = 0; fd < nfds && fd < TCP_MAX_FD; fd++)
        if (conn_of(fd) && ((rd && FD_ISSET(fd, rd)) || (wr && FD_ISSET(fd, wr)) || (ex && FD_ISSET(fd, ex)))) last = fd;
    for (int fd = 0; fd < nfds && fd < TCP_MAX_FD; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c) continue;
        uint32_t s = (rd && FD_ISSET(fd, rd) ? 1 : 0) | (wr && FD_ISSET(fd, wr) ? 2 : 0) | (ex && FD_ISSET(fd, ex) ? 4 : 0);
        saved[fd] = s;
        if (!s) continue;
        k++;
        uint32_t probed = 0;
        uint32_t ev = (s & 1 ? TCPW_IN : 0) | (s & 2 ? TCPW_OUT : 0);
        short kev = watch(fd, c, ev, deadline, zero, &probed, idle && fd == last);
        if (wr) FD_CLR(fd, wr);
        if (ex) FD_CLR(fd, ex);
        if (kev & POLLOUT && wr) FD_SET(fd, wr);   /* dead: returns at once */
        if (kev & POLLIN) FD_SET(fd, rd);
        else FD_CLR(fd, rd);
        if (zero) saved[fd] |= 8 | probed << 4;
    }
    return k;
}

int weft_tcp_select_end(int nfds, void *rdv, void *wrv, void *exv, const uint32_t *saved, int rc) {
    fd_set *rd = rdv, *wr = wrv, *ex = exv;
    if (rc < 0) {
        if (weft_cfg.window_ns)   /* windowed: take every wait back before the caller runs on */
            for (int fd = 0; fd < nfds && fd < TCP_MAX_FD; fd++)
                if (saved[fd] && !(saved[fd] & 8) && conn_of(fd)) collect(fd, conn_of(fd), 0);
        return rc;
    }
    int ready = 0;
    for (int fd = 0; fd < nfds; fd++) {
        tcp_conn *c = fd < TCP_MAX_FD ? conn_of(fd) : NULL;
        if (!c || !saved[fd]) {
            ready += (rd && FD_ISSET(fd, rd)) + (wr && FD_ISSET(fd, wr)) + (ex && FD_ISSET(fd, ex));
            continue;
        }
        uint32_t s = saved[fd];
        short kr = (short)((rd && FD_ISSET(fd, rd) ? POLLIN : 0) | (wr && FD_ISSET(fd, wr) ? POLLERR : 0));
        uint32_t rev = (s & 8) ? s >> 4 : (rc > 0 || weft_cfg.window_ns) ? collect(fd, c, rc > 0 ? kr : 0) : 0;
        int r = (s & 1) && (rev & (TCPW_IN | TCPW_HUP | TCPW_ERR | TCPW_RDHUP));
        int w = (s & 2) && (rev & (TCPW_OUT | TCPW_HUP | TCPW_ERR));
        if (rd) { if (r) FD_SET(fd, rd); else FD_CLR(fd, rd); }
        if (wr) { if (w) FD_SET(fd, wr); else FD_CLR(fd, wr); }
        if (ex) FD_CLR(fd, ex);
        ready += r + w;
    }
    return ready;
}

/* epoll: the kernel watches each socket's stream for EPOLLIN (a Ready); what the program asked for
 * is kept here. Edge-triggered registrations report a bit once until the program has used it: IN
 * and RDHUP until the next read or accept, OUT until a write finds the peer's buffer full, HUP and
 * ERR once. That is a superset of the kernel's edges (a partial reader is told again), never fewer. */
int weft_tcp_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev, int (*real)(int, int, int, struct epoll_event *)) {
    tcp_conn *c = conn_of(fd);
    if (op == EPOLL_CTL_DEL) {
        int rc = real(epfd, op, fd, ev);
        if (rc == 0 && c->ep_fd == epfd) c->ep_fd = -1;
        return rc;
    }
    if (!ev) return set_errno(EFAULT);
    struct epoll_event kev = {.events = EPOLLIN | (ev->events & (EPOLLONESHOT | EPOLLWAKEUP | EPOLLEXCLUSIVE)),
                              .data = ev->data};
    int rc = real(epfd, op, fd, &kev);
    if (rc == 0) {
        c->ep_fd = epfd;
        c->ep_events = ev->events;
        c->ep_data = ev->data.u64;
        c->et_reported = 0;
    }
    return rc;
}

static uint32_t epoll_wanted(const tcp_conn *c) {
    uint32_t w = poll_to_wait(c->ep_events & (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLRDNORM | EPOLLWRNORM));
    if (c->ep_events & EPOLLET) w &= ~c->et_reported;
    return w;
}

int weft_tcp_epoll_begin(int epfd, uint64_t deadline, int zero) {
    int k = 0, lim = atomic_load(&tcp_fd_limit);
    if (!zero) {
        for (int fd = 0; fd < lim && !k; fd++) k = conn_of(fd) && conn_of(fd)->ep_fd == epfd;
        if (k) windowed_idle_point();
        k = 0;
    }
    int last = -1, idle = may_idle();   /* windowed: the last socket armed declares the node idle */
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (c && c->ep_fd == epfd && !((c->ep_events & EPOLLET) && epoll_wanted(c) == 0 &&
                                        (c->et_reported & (TCPW_HUP | TCPW_ERR)))) last = fd;
    }
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c || c->ep_fd != epfd) continue;
        k++;
        uint32_t want = epoll_wanted(c), probed = 0;
        c->probe_valid = 0;
        if ((c->ep_events & EPOLLET) && want == 0 && (c->et_reported & (TCPW_HUP | TCPW_ERR))) continue;
        watch(fd, c, want, deadline, zero, &probed, idle && fd == last);
        if (zero) { c->probe_rev = probed; c->probe_valid = 1; }
    }
    return k;
}

/* The program's epoll bits for a socket's TcpWait revents (edge-triggered: once). */
static uint32_t epoll_report(tcp_conn *c, uint32_t rev) {
    uint32_t bits = wait_to_poll(rev, c->ep_events & (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLRDNORM | EPOLLWRNORM)) & 0xffff;
    if (c->ep_events & EPOLLET) {
        uint32_t fresh = rev & ~c->et_reported;
        c->et_reported |= rev & (TCPW_IN | TCPW_OUT | TCPW_RDHUP | TCPW_HUP | TCPW_ERR);
        bits = wait_to_poll(fresh, c->ep_events & (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLRDNORM | EPOLLWRNORM)) & 0xffff;
    }
    return bits;
}

static int fd_for_event(int epfd, uint64_t data) {
    int lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (c && c->ep_fd == epfd && c->ep_data == data) return fd;
    }
    return -1;
}

/* Windowed: every socket of the set still armed after the wait is taken back (its Ready, or
 * TcpUnwait); what it says is reported when there is room (rc < 0: dropped). */
static int epoll_unarm(int epfd, struct epoll_event *ev, int max, int out) {
    int lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c || c->ep_fd != epfd || !c->armed) continue;
        uint32_t rev = collect(fd, c, 0);
        if (out < 0 || out >= max || !rev) continue;
        uint32_t bits = epoll_report(c, rev);
        if (bits) ev[out++] = (struct epoll_event){.events = bits, .data.u64 = c->ep_data};
    }
    return out;
}

int weft_tcp_epoll_end(int epfd, struct epoll_event *ev, int max, int rc, int zero) {
    if (rc < 0) { if (weft_cfg.window_ns) epoll_unarm(epfd, ev, max, -1); return rc; }
    int out = 0;
    for (int i = 0; i < rc; i++) {
        int fd = fd_for_event(epfd, ev[i].data.u64);
        tcp_conn *c = fd >= 0 ? conn_of(fd) : NULL;
        if (!c) { ev[out++] = ev[i]; continue; }
        if (zero) continue;   /* the probes below answer for it */
        /* windowed: the kernel lists the streams in the real-time order their Readys came; the
         * program acts in the order it is told (asyncio reads them so), so armed sockets are
         * reported in fd order below, as each is taken back (a dead one is reported here) */
        if (weft_cfg.window_ns && c->armed && !c->dead) continue;
        uint32_t bits = epoll_report(c, collect(fd, c, (short)ev[i].events));
        if (bits) { ev[out] = ev[i]; ev[out].events = bits; out++; }
    }
    if (zero) {
        int lim = atomic_load(&tcp_fd_limit);
        for (int fd = 0; fd < lim && out < max; fd++) {
            tcp_conn *c = conn_of(fd);
            if (!c || c->ep_fd != epfd || !c->probe_valid) continue;
            c->probe_valid = 0;
            uint32_t bits = epoll_report(c, c->probe_rev);
            if (bits) ev[out++] = (struct epoll_event){.events = bits, .data.u64 = c->ep_data};
        }
    }
    if (weft_cfg.window_ns) out = epoll_unarm(epfd, ev, max, out);
    return out;
}

/* ------------------------------------------------------------------ exec: WEFT_TCP */

/*
 * WEFT_TCP=<table fd, 8 hex>:<fd 4 hex>=<entry 4 hex>,… padded with '-' to a fixed length, so the
 * exec hooks rewrite it in place. The constructor of the root adds it once (setenv, before main);
 * the string then travels in the environment like WEFT_PROC (proc_tree.c replaces a stale copy in
 * an explicit envp).
 */
#define ENV_NAME "WEFT_TCP="
#define ENV_NAME_LEN 9
#define ENV_SLOTS 64
#define ENV_VALUE_LEN (8 + 1 + ENV_SLOTS * 10)
extern char **environ;

char *weft_tcp_env_string(void) {
    for (char **e = environ; e && *e; e++)
        if (!strncmp(*e, ENV_NAME, ENV_NAME_LEN) && strlen(*e) == ENV_NAME_LEN + ENV_VALUE_LEN) return *e;
    return NULL;
}

static void hex(char *p, uint32_t v, int digits) {
    for (int i = digits - 1; i >= 0; i--, v >>= 4) p[i] = "0123456789abcdef"[v & 15];
}

static int unhex(const char *p, int digits, uint32_t *out) {
    uint32_t v = 0;
    for (int i = 0; i < digits; i++) {
        char ch = p[i];
        int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (d < 0) return -1;
        v = v << 4 | (uint32_t)d;
    }
    *out = v;
    return 0;
}

/* Before an exec: the fds that survive it (no FD_CLOEXEC) and the table go into WEFT_TCP; the table's
 * fd loses FD_CLOEXEC for the exec. */
void weft_tcp_before_exec(void) {
    char *s = weft_tcp_env_string();
    if (!s) return;
    char *v = s + ENV_NAME_LEN;
    memset(v, '-', ENV_VALUE_LEN);
    v[8] = ':';
    if (!tab || atomic_load(&weft_tcp_open) == 0) return;
    hex(v, (uint32_t)table_fd, 8);
    weft_real_syscall(SYS_fcntl, table_fd, F_SETFD, 0, 0, 0, 0);
    int k = 0, lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim && k < ENV_SLOTS; fd++) {
        if (!fd_conn[fd]) continue;
        long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFD, 0, 0, 0, 0);
        if (fl < 0 || (fl & FD_CLOEXEC)) continue;
        char *e = v + 9 + 10 * k++;
        hex(e, (uint32_t)fd, 4);
        e[4] = '=';
        hex(e + 5, (uint32_t)(fd_conn[fd] - 1), 4);
        e[9] = ',';
    }
}

/* Back in this image after an exec that failed or a spawn: the table's fd is close-on-exec again,
 * and the string is emptied so that a child this image starts without the hooks (system, popen)
 * adopts nothing stale. A spawned image holds its own references to what it was given. */
void weft_tcp_after_exec(int spawned) {
    char *s = weft_tcp_env_string();
    if (s && spawned && tab) {
        for (int k = 0; k < ENV_SLOTS; k++) {
            uint32_t fd, idx;
            const char *e = s + ENV_NAME_LEN + 9 + 10 * k;
            if (unhex(e, 4, &fd) || unhex(e + 5, 4, &idx) || idx >= TCP_CONNS) break;
            atomic_fetch_add(&tab->c[idx].refs, 1);
        }
    }
    if (s) {
        memset(s + ENV_NAME_LEN, '-', ENV_VALUE_LEN);
        s[ENV_NAME_LEN + 8] = ':';
    }
    if (table_fd >= 0) weft_real_syscall(SYS_fcntl, table_fd, F_SETFD, FD_CLOEXEC, 0, 0, 0);
}

/* Constructor: adopt the sockets an exec carried over (their references move with them; those the
 * exec closed, FD_CLOEXEC, are given up here), or add the empty string in a root. */
void weft_tcp_image_init(void) {
    if (!weft_cfg.net) return;
    char *s = weft_tcp_env_string();
    if (!s) {
        char v[ENV_VALUE_LEN + 1];
        memset(v, '-', ENV_VALUE_LEN);
        v[8] = ':';
        v[ENV_VALUE_LEN] = '\0';
        setenv("WEFT_TCP", v, 1);
        return;
    }
    const char *v = s + ENV_NAME_LEN;
    uint32_t tfd;
    if (unhex(v, 8, &tfd)) return;
    struct stat st;
    if (weft_real_syscall(SYS_fstat, tfd, &st, 0, 0, 0, 0) != 0 || (uint64_t)st.st_size != sizeof(tcp_table)) return;
    if (table_map((int)tfd)) return;
    weft_real_syscall(SYS_fcntl, tfd, F_SETFD, FD_CLOEXEC, 0, 0, 0);
    if (tab->magic != TABLE_MAGIC) { tab = NULL; table_fd = -1; return; }
    for (int k = 0; k < ENV_SLOTS; k++) {
        const char *e = v + 9 + 10 * k;
        uint32_t fd, idx;
        if (unhex(e, 4, &fd) || unhex(e + 5, 4, &idx)) break;
        if (fd >= TCP_MAX_FD || idx >= TCP_CONNS || !atomic_load(&tab->c[idx].used)) continue;
        if (weft_real_syscall(SYS_fcntl, fd, F_GETFD, 0, 0, 0, 0) < 0) continue;
        map_fd((int)fd, (int)idx);
        WEFT_TRACE("exec", "tcp socket %u carried over", fd);
    }
    memset(s + ENV_NAME_LEN + 9, '-', ENV_VALUE_LEN - 9);   /* consumed: nothing stale for later children */
    if (atomic_load(&weft_tcp_open) == 0) weft_tcp_process_gone(0);   /* an image without sockets (cat) */
}

/* ------------------------------------------------------------------ exit and statistics */

/* The process ends: its fds close with it. */
/* _exit and _Exit skip the library destructor (weft_tcp_at_exit): the process's references to its sockets go
 * here, as the kernel is about to close its fds. A fork child that leaves so (redis's RDB writer) would otherwise
 * keep its inherited copies counted for good, and its parent's close of such a socket, not the last reference any
 * more by the count, would send no TcpClose: a close by EOF, without a clock (a late op once the broker had sealed
 * past the node's clock). */
void weft_tcp_at_quick_exit(void) {
    int lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c) continue;
        close_with_clock(fd, c);   /* windowed: the last reference's close at the node's clock */
        unmap_fd(fd);
        conn_unref(c);
    }
    weft_tcp_process_gone(1);
}

void weft_tcp_at_exit(uint64_t passed_tcp) {
    int lim = atomic_load(&tcp_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        tcp_conn *c = conn_of(fd);
        if (!c) continue;
        if (weft_engaged()) close_with_clock(fd, c);   /* windowed: the close at the node's clock */
        unmap_fd(fd);
        conn_unref(c);
    }
    weft_tcp_process_gone(1);
    if (!weft_cfg.stats || !weft_cfg.net) return;
    weft_errline("[weft] tcp: %lu simulated TCP socket(s), %lu accepted connection(s); %lu TCP socket(s) passed through",
                 (unsigned long)atomic_load(&n_tcp_simulated), (unsigned long)atomic_load(&n_tcp_accepted),
                 (unsigned long)passed_tcp);
}

/* ------------------------------------------------------------------ listen (only hooked here) */

typedef int (*listen_fn)(int, int);
REAL_FN(listen_fn, listen)

WEFT_EXPORT int listen(int fd, int backlog) {
    if (!weft_tcp_is_fd(fd) || !weft_engaged()) return get_real_listen()(fd, backlog);
    return weft_tcp_listen(fd, backlog);
}
