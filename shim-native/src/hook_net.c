/*
 * hook_net.c - simulated UDP: socket(AF_INET, SOCK_DGRAM) becomes a connection to the broker
 * (wire protocol: docs/spec/wire-and-abi.md §1-4), and the socket calls on it become
 * requests. Node n's own address is 127.0.0.1 + n.
 *
 * The fd the program holds IS the broker connection (a Unix or TCP stream). Per fd the shim keeps
 * a slot in a static table: local and peer address, O_NONBLOCK (kept here, never set on the
 * stream), SO_RCVTIMEO, and whether the socket is *armed*.
 *
 * Armed: a blocking Recv is outstanding and its reply (a Deliver) is the next frame on the stream.
 * The broker answers it the moment a datagram for the socket exists, so "the kernel says the
 * stream is readable" means "a datagram is here": poll/select/epoll on a mix of simulated sockets
 * and ordinary fds work by arming the sockets and letting the kernel wait, and a waiting thread
 * costs the broker one request, never a busy poll. The reply is only read by a receive call,
 * straight into the program's buffer (no datagram is ever stored in the shim). While a socket is
 * armed its stream cannot carry another request, so sends on it go through one per-process
 * auxiliary connection (the broker takes a Send's source from the message, spec §3).
 *
 * Virtual time and network waits (docs/shim.md "Network"): a receive or poll with a virtual timeout
 * T waits for real for at most T / WEFT_NET_SPEEDUP (default 10) before the clock jumps by T and the
 * call times out, so a retransmit-on-timeout client gives its peers real time to answer instead of
 * spinning through thousands of timeouts. A datagram that arrives does not advance the clock.
 * Managed threads (the scheduler) wait in the model as net waiters: they are only examined when no
 * thread can run, then woken without a draw (spec §8), so thread interleavings do not depend on when
 * replies arrive in real time.
 *
 * Windowed runs (WEFT_WINDOW_NS > 0) never arm: the broker answers every Recv at once, and a
 * receive retries against the broker's horizon (net_recv_windowed); sockets say Goodbye at close
 * and at exit.
 *
 * Hook shape (docs/shim.md "How a hook is built"): the fd decides first (weft_net_is_fd, one load),
 * then weft_engaged(); anything else passes through to the real function. No allocation: frames are
 * written with one sendmsg of (stack header, program buffer, stack trailer) and read straight into
 * the program's buffers. Internal I/O uses raw system calls (weft_real_syscall), never a hooked
 * function. A slot's lock is a futex word held only across one request/reply exchange, with
 * weft_depth raised, so a signal handler calling a socket function passes through instead of
 * deadlocking on it.
 */
#include "weft.h"
#include "sock_values.h"
#include "wire_bytes.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#define MAX_SIM_FD 8192
#define FRAME_MAX 16777216u
#define UDP_MAX_PAYLOAD 65507u
#define AUTO_PORT_BASE 50000

/* The tags are a public contract with the broker (Java dev.weft.broker.wire.Wire); WireConstantsTest compares them. */
enum { REQ_HELLO = 1, REQ_BIND = 2, REQ_SEND = 3, REQ_RECV = 4, REQ_FRONTIER = 5, REQ_GOODBYE = 6 };
enum { REP_ACK = 1, REP_DELIVER = 2, REP_EMPTY = 3 };
/* The receive lease (windowed runs, docs/broker.md "Receive leases"): Lease{addr, mode, local_vt} is held by the
 * broker until its final outcome, Deliver or Leased{until, vt}: empty, and no datagram reaches the socket before
 * `until`, so later non-blocking and timed receives that end before it are answered here. */
enum { REQ_LEASE = 28 };
enum { REP_LEASED = 14 };
enum { LEASE_NONBLOCKING = 0, LEASE_TIMED = 1, LEASE_BLOCKING = 2 };

/*
 * One slot per fd. `live` is published with release after the slot is initialised, so a hook that
 * sees it set (acquire) sees the initial state. Addresses, `armed` and `dead` change only under
 * `lock`; the options (nonblock, timeouts, epoll registration) are plain stores by whichever call
 * sets them: a thread reading them unlocked sees the old or the new value, exactly the race the
 * program made by configuring a socket in one thread while using it in another.
 */
typedef struct sim_sock {
    atomic_int live;          /* this fd is a simulated socket (the fast check of every fd hook) */
    atomic_int lock;          /* futex word: 0 free, 1 held, 2 held with waiters */
    int nonblock;             /* O_NONBLOCK / SOCK_NONBLOCK / FIONBIO, kept by the shim */
    int armed;                /* a blocking Recv is outstanding; its Deliver is the next frame */
    int dead;                 /* an exchange failed: the stream is out of step, every call is EIO */
    int bound, connected;
    uint32_t lip, pip;        /* local / peer IPv4, host order */
    uint16_t lport, pport;
    uint64_t rcvtimeo_ns;     /* SO_RCVTIMEO in virtual ns (0 = none) */
    uint64_t sndtimeo_ns;     /* stored for getsockopt only: sends never wait */
    int opt_reuseaddr, opt_reuseport, opt_broadcast, opt_rcvbuf, opt_sndbuf;
    int ep_fd;                /* the epoll instance the socket was last added to (-1 = none) */
    uint32_t ep_events;
    uint64_t lease_until;     /* windowed: no datagram reaches this socket before this virtual time ... */
    uint64_t lease_epoch;     /* ... while the process has made exactly this many requests (n_requests) */
} sim_sock;

static sim_sock socks[MAX_SIM_FD];
atomic_int weft_net_open;
static _Atomic uint64_t n_simulated, n_passed_tcp, n_passed_udp, n_passed_other, n_requests, n_leased;
static _Atomic uint32_t port_counter;      /* auto-bind: 50000 + k, wrapping as a u16 */
static int aux_fd = -1;                    /* per-process connection for sends on armed sockets */
static atomic_int aux_lock;
static atomic_int atfork_registered;
static atomic_int sim_fd_limit;            /* 1 + the highest fd ever simulated (bounds scans) */

typedef int (*socket_fn)(int, int, int);
typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);
typedef ssize_t (*sendto_fn)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);
typedef ssize_t (*sendmsg_fn)(int, const struct msghdr *, int);
typedef ssize_t (*recvfrom_fn)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef ssize_t (*recvmsg_fn)(int, struct msghdr *, int);
typedef int (*name_fn)(int, struct sockaddr *, socklen_t *);
typedef int (*setsockopt_fn)(int, int, int, const void *, socklen_t);
typedef int (*getsockopt_fn)(int, int, int, void *, socklen_t *);
typedef int (*shutdown_fn)(int, int);
typedef int (*epoll_ctl_fn)(int, int, int, struct epoll_event *);
typedef int (*ioctl_fn)(int, unsigned long, ...);
typedef ssize_t (*writev_fn)(int, const struct iovec *, int);

REAL_FN(socket_fn, socket)
REAL_FN(bind_fn, bind)
REAL_FN(bind_fn, connect)
REAL_FN(sendto_fn, sendto)
REAL_FN(send_fn, send)
REAL_FN(sendmsg_fn, sendmsg)
REAL_FN(recvfrom_fn, recvfrom)
REAL_FN(recv_fn, recv)
REAL_FN(recvmsg_fn, recvmsg)
REAL_FN(name_fn, getsockname)
REAL_FN(name_fn, getpeername)
REAL_FN(setsockopt_fn, setsockopt)
REAL_FN(getsockopt_fn, getsockopt)
REAL_FN(shutdown_fn, shutdown)
REAL_FN(epoll_ctl_fn, epoll_ctl)
REAL_FN(ioctl_fn, ioctl)
REAL_FN(writev_fn, writev)

static inline uint32_t own_ip(void) { return 0x7F000001u + weft_cfg.node_id; }

static sim_sock *sim_of(int fd) {
    if (fd < 0 || fd >= MAX_SIM_FD) return NULL;
    return atomic_load_explicit(&socks[fd].live, memory_order_acquire) ? &socks[fd] : NULL;
}

int weft_net_is_fd(int fd) {
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0) return 0;
    return sim_of(fd) != NULL || weft_tcp_is_fd(fd);
}

uint64_t weft_net_real_budget(uint64_t virtual_ns) {
    uint64_t k = weft_cfg.net_speedup ? weft_cfg.net_speedup : 10;
    return virtual_ns / k;
}

static int set_errno(int e) { errno = e; return -1; }

/* Request bytes written on fd that the broker has not read yet. On a Unix stream SIOCOUTQ counts
 * exactly those (the kernel charges queued bytes to the writer until the reader consumes them); on
 * TCP it counts bytes the broker's kernel has not acknowledged, a weaker but still useful sign. */
static int unread_by_broker(int fd) {
    int q = 0;
    int saved = errno;
    long r = weft_real_syscall(SYS_ioctl, fd, SIOCOUTQ, &q, 0, 0, 0);
    errno = saved;
    return r == 0 && q > 0;
}

/*
 * The pacing rule's real-time budget is the time the broker gets to answer. Under CPU load the
 * broker's thread may not even have read a request (say the blocking Recv of a socket that a
 * sibling thread's datagram is about to satisfy) when the budget runs out; timing out then would
 * make the program's behaviour a function of the machine's load instead of the run. So waits
 * restart their budget while this returns 1. Reads only kernel counters: safe without the slot
 * locks, from any thread, and costs one ioctl per simulated socket (only when a budget ran out).
 */
int weft_net_broker_behind(void) {
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0) return 0;
    int lim = atomic_load(&sim_fd_limit);
    for (int fd = 0; fd < lim; fd++)
        if (sim_of(fd) && unread_by_broker(fd)) return 1;
    int aux = aux_fd; /* a racing reconnect only makes this answer about the old or the new stream */
    if (aux >= 0 && unread_by_broker(aux)) return 1;
    for (int fd = 0; fd < 8192; fd++)   /* the TCP sockets' streams (hook_tcp.c) */
        if (weft_tcp_is_fd(fd) && unread_by_broker(fd)) return 1;
    return 0;
}

/* An I/O call on a simulated socket from a signal handler that interrupted the shim itself
 * (weft_engaged() == 0 only because weft_depth > 0): passing it through would put bytes into the
 * middle of a frame, so it fails as an interrupted call instead. */
ssize_t weft_net_reentered(void) { return set_errno(EINTR); }

/* ------------------------------------------------------------------ locks */

/*
 * A futex lock (Drepper's three-state mutex) on raw system calls. Held across one exchange with
 * the broker (a write and the reply's read: bounded by the broker's service time), never across a
 * wait for a datagram. weft_depth is raised while it is held so that a signal handler interrupting
 * the holder and calling a socket function passes through instead of deadlocking here.
 */
static void flock_acquire(atomic_int *l) {
    weft_depth++;
    int c = 0;
    if (atomic_compare_exchange_strong(l, &c, 1)) return;
    if (c != 2) c = atomic_exchange(l, 2);
    while (c != 0) {
        weft_real_syscall(SYS_futex, l, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        c = atomic_exchange(l, 2);
    }
}

static void flock_release(atomic_int *l) {
    if (atomic_exchange(l, 0) == 2) weft_real_syscall(SYS_futex, l, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    weft_depth--;
}

/* ------------------------------------------------------------------ raw stream I/O */

static void put_addr(unsigned char *p, uint32_t ip, uint16_t port) { put32(p, ip); put16(p + 4, port); }

/* Writes all of iov[0..n) (modified in place). MSG_NOSIGNAL: a vanished broker is EPIPE, not a
 * SIGPIPE the program never asked for. Returns 0, or -1 with errno. */
static int write_all(int fd, struct iovec *iov, int n) {
    atomic_fetch_add_explicit(&n_requests, 1, memory_order_relaxed);
    while (n > 0) {
        struct msghdr m = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        long w = weft_real_syscall(SYS_sendmsg, fd, &m, MSG_NOSIGNAL, 0, 0, 0);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        size_t left = (size_t)w;
        while (n > 0 && left >= iov->iov_len) { left -= iov->iov_len; iov++; n--; }
        if (n > 0) { iov->iov_base = (char *)iov->iov_base + left; iov->iov_len -= left; }
    }
    return 0;
}

/* Reads exactly n bytes; EOF or an error is -1 (errno EIO for EOF). */
static int read_exact(int fd, void *buf, size_t n) {
    char *p = buf;
    while (n > 0) {
        long r = weft_real_syscall(SYS_read, fd, p, n, 0, 0, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { if (r == 0) errno = EIO; return -1; }
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

static uint64_t real_now(void) {
    struct timespec ts;
    weft_real_syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts, 0, 0, 0, 0);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Spin-then-sleep (opt-in). A broker on the same machine answers a request within microseconds,
 * less than what sending this thread to sleep and waking it again costs on an idle machine (on an
 * idle VM core a wake-up alone takes 20 µs and more). With WEFT_NET_SPIN_NS set, a thread that is
 * alone in its process first polls for up to that much real time before it sleeps in the kernel.
 * Off by default: on a loaded machine the spinner takes the CPU the broker needs (docs/broker.md
 * "Benchmark" has the figures). Only a lone thread spins: with others in the process, the CPU it
 * would burn may be theirs to use. Spinning is adaptive: after 4 spins in a row that came back
 * empty only every 64th wait spins (to notice when spinning pays again). Spinning changes no state
 * and no schedule decision, only how soon a reply that is already coming is noticed.
 */
static atomic_uint spin_misses;  /* spins in a row that ended without a reply */
static atomic_uint spin_skipped; /* waits that did not spin since the last probe */

static int may_spin(void) {
    if (!weft_cfg.net_spin_ns || atomic_load_explicit(&weft_multithreaded, memory_order_relaxed)) return 0;
    if (atomic_load_explicit(&spin_misses, memory_order_relaxed) < 4) return 1;
    return (atomic_fetch_add_explicit(&spin_skipped, 1, memory_order_relaxed) & 63) == 63;
}

static void spin_ended(int found) {
    if (found) atomic_store_explicit(&spin_misses, 0, memory_order_relaxed);
    else atomic_fetch_add_explicit(&spin_misses, 1, memory_order_relaxed);
}

/* Polls fd until it is readable (1) or the spin budget is spent (0). */
static int spin_readable(int fd) {
    if (!may_spin()) return 0;
    uint64_t start = real_now();
    for (unsigned i = 1;; i++) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (weft_real_syscall(SYS_poll, &p, 1, 0, 0, 0, 0) > 0) { spin_ended(1); return 1; }
        if ((i & 15) == 0 && real_now() - start >= weft_cfg.net_spin_ns) { spin_ended(0); return 0; }
    }
}

/* Reads between min and max bytes (one frame never holds fewer than min). The first read spins
 * with MSG_DONTWAIT while that is allowed (see may_spin): the reply to a request is about to come. */
static long read_some(int fd, unsigned char *buf, size_t min, size_t max) {
    size_t got = 0;
    if (may_spin()) {
        uint64_t start = real_now();
        for (unsigned i = 1; got < min; i++) {
            long r = weft_real_syscall(SYS_recvfrom, fd, buf + got, max - got, MSG_DONTWAIT, 0, 0);
            if (r > 0) { got += (size_t)r; continue; }
            if (r == 0) { errno = EIO; return -1; }
            if (errno != EAGAIN && errno != EINTR) return -1;
            if ((i & 15) == 0 && real_now() - start >= weft_cfg.net_spin_ns) break;
        }
        spin_ended(got >= min);
    }
    while (got < min) {
        long r = weft_real_syscall(SYS_read, fd, buf + got, max - got, 0, 0, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { if (r == 0) errno = EIO; return -1; }
        got += (size_t)r;
    }
    return (long)got;
}

static int skip_bytes(int fd, uint64_t n) {
    char scratch[1024];
    while (n > 0) {
        size_t k = n < sizeof scratch ? (size_t)n : sizeof scratch;
        if (read_exact(fd, scratch, k)) return -1;
        n -= k;
    }
    return 0;
}

/* The part of a reply frame already read into a stack buffer, consumed before the stream. */
typedef struct pending {
    const unsigned char *p;
    size_t n;
} pending;

/* Moves n bytes of the frame to dst (NULL: discards them): first the buffered ones, then the stream. */
static int take(int fd, pending *b, void *dst, uint64_t n) {
    size_t k = b->n < n ? b->n : (size_t)n;
    if (k) {
        if (dst) memcpy(dst, b->p, k);
        b->p += k;
        b->n -= k;
        n -= k;
        if (dst) dst = (char *)dst + k;
    }
    if (!n) return 0;
    return dst ? read_exact(fd, dst, (size_t)n) : skip_bytes(fd, n);
}

typedef struct reply {
    int tag;
    uint32_t sip, dip;
    uint16_t sport, dport;
    uint32_t plen;            /* payload length as sent */
    size_t copied;            /* bytes copied into the caller's buffers */
    uint64_t vt;
    uint64_t until;           /* Leased: the lease */
} reply;

/*
 * Reads one reply frame. The stream holds nothing but this frame (one request is outstanding per
 * connection at a time), so one read of up to REPLY_READ bytes can never take bytes of anything
 * else: a small Deliver — header, payload and vt — usually arrives in that single system call, and
 * its payload is copied from the stack into the caller's buffers (up to their capacity; the rest is
 * discarded as UDP truncates). Larger frames continue straight from the stream.
 */
#define REPLY_READ 320
static int read_reply(int fd, const struct iovec *iov, int iovcnt, reply *r) {
    unsigned char h[REPLY_READ];
    long got = read_some(fd, h, 5, sizeof h);
    if (got < 0) return -1;
    uint32_t len = get32(h);
    if (len == 0 || len > FRAME_MAX || (uint64_t)got > 4 + (uint64_t)len) return set_errno(EIO);
    uint64_t end = 4 + (uint64_t)len;
    r->tag = h[4];
    r->copied = 0;
    if (r->tag == REP_ACK || r->tag == REP_EMPTY) {
        if (end < 13) return set_errno(EIO);
        if (got < 13 && read_exact(fd, h + got, (size_t)(13 - got))) return -1;
        if (got < 13) got = 13;
        r->vt = get64(h + 5);
        return skip_bytes(fd, end - (uint64_t)got);
    }
    if (r->tag == REP_LEASED) {
        if (end < 21) return set_errno(EIO);
        if (got < 21 && read_exact(fd, h + got, (size_t)(21 - got))) return -1;
        if (got < 21) got = 21;
        r->until = get64(h + 5);
        r->vt = get64(h + 13);
        return skip_bytes(fd, end - (uint64_t)got);
    }
    if (r->tag != REP_DELIVER || end < 29) return set_errno(EIO);
    if (got < 21 && read_exact(fd, h + got, (size_t)(21 - got))) return -1;
    if (got < 21) got = 21;
    r->sip = get32(h + 5);
    r->sport = get16(h + 9);
    r->dip = get32(h + 11);
    r->dport = get16(h + 15);
    r->plen = get32(h + 17);
    if (21 + (uint64_t)r->plen + 8 > end) return set_errno(EIO);
    pending rest = {h + 21, (size_t)got - 21};
    uint64_t left = r->plen;
    for (int i = 0; i < iovcnt && left > 0; i++) {
        size_t k = iov[i].iov_len < left ? iov[i].iov_len : (size_t)left;
        if (k && take(fd, &rest, iov[i].iov_base, k)) return -1;
        r->copied += k;
        left -= k;
    }
    unsigned char vt[8];
    if (take(fd, &rest, NULL, left) || take(fd, &rest, vt, 8)) return -1;
    r->vt = get64(vt);
    return take(fd, &rest, NULL, end - (21 + (uint64_t)r->plen + 8));
}

/* Waits until fd is readable: 1 ready, 0 budget spent, -1 (errno) interrupted or failed.
 * budget_ns == UINT64_MAX waits without limit. */
static int wait_readable(int fd, uint64_t budget_ns) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    struct timespec ts = {(time_t)(budget_ns / 1000000000ULL), (long)(budget_ns % 1000000000ULL)};
    long r = weft_real_syscall(SYS_ppoll, &p, 1, budget_ns == UINT64_MAX ? NULL : &ts, NULL, 8, 0);
    if (r < 0) return -1;
    return r > 0;
}

/* ------------------------------------------------------------------ requests */

static int send_hello(int fd) {
    unsigned char f[13];
    put32(f, 9);
    f[4] = REQ_HELLO;
    put32(f + 5, weft_cfg.node_id);
    put32(f + 9, weft_cfg.host_id);
    struct iovec iov = {f, sizeof f};
    reply r;
    if (write_all(fd, &iov, 1) || read_reply(fd, NULL, 0, &r)) return -1;
    return r.tag == REP_ACK ? 0 : set_errno(EIO);
}

static int send_bind(int fd, uint32_t ip, uint16_t port) {
    unsigned char f[11];
    put32(f, 7);
    f[4] = REQ_BIND;
    put_addr(f + 5, ip, port);
    struct iovec iov = {f, sizeof f};
    reply r;
    if (write_all(fd, &iov, 1) || read_reply(fd, NULL, 0, &r)) return -1;
    return r.tag == REP_ACK ? 0 : set_errno(EIO);
}

static void put_recv(unsigned char f[20], uint32_t ip, uint16_t port, int blocking, uint64_t vt) {
    put32(f, 16);
    f[4] = REQ_RECV;
    put_addr(f + 5, ip, port);
    f[11] = blocking ? 1 : 0;
    put64(f + 12, vt);
}

/* Frontier{local_vt} (windowed): "this node sends nothing before local_vt"; needs an Ack. */
static int send_frontier(int fd, uint64_t vt) {
    unsigned char f[13];
    put32(f, 9);
    f[4] = REQ_FRONTIER;
    put64(f + 5, vt);
    struct iovec iov = {f, sizeof f};
    reply r;
    if (write_all(fd, &iov, 1) || read_reply(fd, NULL, 0, &r)) return -1;
    return r.tag == REP_ACK ? 0 : set_errno(EIO);
}

/* Goodbye (windowed): a clean farewell before the connection ends; the broker does not reply. */
static void send_goodbye(int fd) {
    unsigned char f[5];
    put32(f, 1);
    f[4] = REQ_GOODBYE;
    struct iovec iov = {f, sizeof f};
    write_all(fd, &iov, 1);
}

/* After a close's Goodbye (windowed): the Goodbye has no reply, so without this the broker could read it after the
 * node's next request on another socket (a reconnect) and record the disconnect at a place that depends on real
 * timing. Half-closing and reading until the broker ends the connection (it does once it has read the Goodbye and
 * then the EOF) puts the Goodbye before anything this node does next. A relay that ends both directions at once
 * only makes this return early. */
static void await_goodbye_read(int fd) {
    char sink[64];
    if (weft_real_syscall(SYS_shutdown, fd, SHUT_WR, 0, 0, 0, 0) < 0) return;
    for (;;) {
        long r = weft_real_syscall(SYS_read, fd, sink, sizeof sink, 0, 0, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return;
    }
}

/* Send{src, dst, payload, local_vt}: the payload comes from the caller's iovecs (at most 8 are
 * sent in the same sendmsg; more are rare and go out piecewise, the stream does not care). */
static int send_datagram(int fd, uint32_t sip, uint16_t sport, uint32_t dip, uint16_t dport,
                         const struct iovec *data, int ndata, size_t total, uint64_t vt) {
    unsigned char head[21], tail[8];
    put32(head, (uint32_t)(1 + 6 + 6 + 4 + total + 8));
    head[4] = REQ_SEND;
    put_addr(head + 5, sip, sport);
    put_addr(head + 11, dip, dport);
    put32(head + 17, (uint32_t)total);
    put64(tail, vt);
    struct iovec iov[10];
    int n = 0;
    iov[n++] = (struct iovec){head, sizeof head};
    if (ndata <= 8) {
        for (int i = 0; i < ndata; i++) if (data[i].iov_len) iov[n++] = data[i];
        iov[n++] = (struct iovec){tail, sizeof tail};
        if (write_all(fd, iov, n)) return -1;
    } else {
        if (write_all(fd, iov, 1)) return -1;
        for (int i = 0; i < ndata; i++) {
            struct iovec one = data[i];
            if (one.iov_len && write_all(fd, &one, 1)) return -1;
        }
        struct iovec t = {tail, sizeof tail};
        if (write_all(fd, &t, 1)) return -1;
    }
    reply r;
    if (read_reply(fd, NULL, 0, &r)) return -1;
    return r.tag == REP_ACK ? 0 : set_errno(EIO);
}

/* ------------------------------------------------------------------ broker connections */

/* A stream socket of the domain connected to a. Raw system calls only, never the hooked socket,
 * connect or close (safety rule 4). On failure: -1, errno from the failing call, no fd left open. */
static int stream_connect(int domain, int cloexec, const void *a, socklen_t len) {
    int fd = (int)weft_real_syscall(SYS_socket, domain, SOCK_STREAM | cloexec, 0, 0, 0, 0);
    if (fd < 0) return -1;
    if (weft_real_syscall(SYS_connect, fd, a, len, 0, 0, 0) < 0) {
        int e = errno;
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        return set_errno(e);
    }
    return fd;
}

/* Connects to WEFT_BROKER: TCP host:port iff it does not start with '/' or '.' and has a ':'
 * (spec §1); the host must be numeric IPv4 or "localhost" (resolving names would allocate). */
static int broker_connect(int cloexec) {
    const char *b = weft_cfg.broker;
    int tcp = b[0] != '/' && b[0] != '.' && strchr(b, ':') != NULL;
    if (!tcp) {
        struct sockaddr_un a;
        memset(&a, 0, sizeof a);
        a.sun_family = AF_UNIX;
        size_t n = strlen(b);
        if (n >= sizeof a.sun_path) return set_errno(ENAMETOOLONG);
        memcpy(a.sun_path, b, n);
        return stream_connect(AF_UNIX, cloexec, &a, sizeof a);
    }
    const char *colon = strrchr(b, ':');
    char host[64];
    size_t hl = (size_t)(colon - b);
    if (hl >= sizeof host) return set_errno(EINVAL);
    memcpy(host, b, hl);
    host[hl] = 0;
    unsigned long port = 0;
    for (const char *p = colon + 1; *p; p++) {
        if (*p < '0' || *p > '9' || (port = port * 10 + (unsigned long)(*p - '0')) > 65535) return set_errno(EINVAL);
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (!strcmp(host, "localhost")) a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    else if (inet_pton(AF_INET, host, &a.sin_addr) != 1) return set_errno(EINVAL);
    int fd = stream_connect(AF_INET, cloexec, &a, sizeof a);
    if (fd < 0) return -1;
    int one = 1;
    weft_real_syscall(SYS_setsockopt, fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one, 0);
    return fd;
}

/* The stream primitives, for the TCP sockets' wire client (tcp_wire.c, hook_tcp.c). */
int weft_net_write_all(int fd, struct iovec *iov, int n) { return write_all(fd, iov, n); }
int weft_net_read_exact(int fd, void *buf, size_t n) { return read_exact(fd, buf, n); }
int weft_net_broker_connect(int cloexec) { return broker_connect(cloexec); }
int weft_net_hello(int fd) { return send_hello(fd); }

/* A fork child shares its parent's streams: the auxiliary connection must not be used by both,
 * so the child drops its copy and connects its own when it first needs one. Only the forking
 * thread exists in the child: a socket lock another thread held at the fork would never be
 * released, so every lock starts free. */
static void after_fork_child(void) {
    if (aux_fd >= 0) weft_real_syscall(SYS_close, aux_fd, 0, 0, 0, 0, 0);
    aux_fd = -1;
    atomic_store(&aux_lock, 0);
    for (int fd = 0; fd < MAX_SIM_FD; fd++) atomic_store(&socks[fd].lock, 0);
}

/* Send on the auxiliary connection (called with the socket's lock held; lock order: socket, aux). */
static int aux_send(uint32_t sip, uint16_t sport, uint32_t dip, uint16_t dport,
                    const struct iovec *data, int ndata, size_t total, uint64_t vt) {
    flock_acquire(&aux_lock);
    int rc = -1;
    if (aux_fd < 0) {
        int fd = broker_connect(SOCK_CLOEXEC);
        if (fd >= 0 && send_hello(fd) == 0) aux_fd = fd;
        else if (fd >= 0) weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    }
    if (aux_fd >= 0) {
        rc = send_datagram(aux_fd, sip, sport, dip, dport, data, ndata, total, vt);
        if (rc) { /* out of step: drop it; the next send reconnects */
            int e = errno;
            weft_real_syscall(SYS_close, aux_fd, 0, 0, 0, 0, 0);
            aux_fd = -1;
            errno = e;
        }
    } else {
        errno = EIO;
    }
    flock_release(&aux_lock);
    return rc;
}

/* ------------------------------------------------------------------ socket slots */

static void slot_init(sim_sock *s, int nonblock) {
    s->nonblock = nonblock;
    s->armed = s->dead = s->bound = s->connected = 0;
    s->lip = s->pip = 0;
    s->lport = s->pport = 0;
    s->rcvtimeo_ns = s->sndtimeo_ns = 0;
    s->opt_reuseaddr = s->opt_reuseport = s->opt_broadcast = 0;
    s->opt_rcvbuf = s->opt_sndbuf = 212992;
    s->ep_fd = -1;
    s->ep_events = 0;
    s->lease_until = s->lease_epoch = 0;
}

/* An exchange failed: the stream may hold half a frame, so nothing more can be said on it. */
static int mark_dead(sim_sock *s) {
    s->dead = 1;
    s->armed = 0;
    errno = EIO;
    return -1;
}

static uint16_t next_auto_port(void) {
    return (uint16_t)(AUTO_PORT_BASE + atomic_fetch_add(&port_counter, 1));
}

/* Binds an unbound socket to (own ip, next auto port). Called with the slot locked. */
static int auto_bind(int fd, sim_sock *s) {
    if (s->bound) return 0;
    uint16_t port = next_auto_port();
    if (send_bind(fd, own_ip(), port)) return mark_dead(s);
    s->bound = 1;
    s->lip = own_ip();
    s->lport = port;
    return 0;
}

/* Arms the socket: one blocking Recv whose reply arrives when a datagram does. Slot locked.
 * vt is the calling receive's own clock observation (spec §4: one per call), or the unobserved
 * clock when a poll arms it (polls do not observe; a single-host broker ignores it anyway).
 * `forever`: the whole node waits in this receive with no deadline (a blocking receive without
 * SO_RCVTIMEO in a single-threaded process that is its node's only one); the Recv then carries one
 * more byte, 1, which the broker's deadlock verdict reads (docs/broker.md; a broker that does not
 * know it ignores trailing bytes, wire-and-abi §2). */
static int arm(int fd, sim_sock *s, uint64_t vt, int forever) {
    if (s->armed || s->dead || !s->bound) return 0;
    unsigned char f[21];
    put_recv(f, s->lip, s->lport, 1, vt);
    if (forever) {
        put32(f, 17);
        f[20] = 1;
    }
    struct iovec iov = {f, forever ? 21 : 20};
    if (write_all(fd, &iov, 1)) return mark_dead(s);
    s->armed = 1;
    return 0;
}

static int reply_ready(int fd) { return wait_readable(fd, 0) == 1; }

/* MSG_PEEK on an armed socket whose Deliver has arrived: copy the payload without consuming the
 * frame (one recvmsg(MSG_PEEK) of header + the caller's first 8 buffers). Slot locked. */
static int peek_deliver(int fd, const struct iovec *iov, int iovcnt, reply *r) {
    unsigned char h[21];
    struct iovec v[9];
    int n = 0;
    size_t cap = 0;
    v[n++] = (struct iovec){h, sizeof h};
    for (int i = 0; i < iovcnt && n < 9; i++) { v[n++] = iov[i]; cap += iov[i].iov_len; }
    struct msghdr m = {.msg_iov = v, .msg_iovlen = (size_t)n};
    long got = weft_real_syscall(SYS_recvmsg, fd, &m, MSG_PEEK | MSG_DONTWAIT, 0, 0, 0);
    if (got < (long)sizeof h) return set_errno(EIO);
    r->tag = h[4];
    if (r->tag != REP_DELIVER) return set_errno(EIO);
    r->sip = get32(h + 5);
    r->sport = get16(h + 9);
    r->dip = get32(h + 11);
    r->dport = get16(h + 15);
    r->plen = get32(h + 17);
    size_t have = (size_t)got - sizeof h;
    r->copied = r->plen < have ? r->plen : have;
    if (r->copied > cap) r->copied = cap;
    return 0;
}

/* A sockaddr_in from the program: 0 and (ip, port), or -1 with errno. */
static int parse_sockaddr(const struct sockaddr *a, socklen_t len, uint32_t *ip, uint16_t *port) {
    if (!a || len < (socklen_t)sizeof(struct sockaddr_in)) return set_errno(EINVAL);
    if (a->sa_family != AF_INET) return set_errno(EINVAL); /* spec §4: a bad sockaddr is EINVAL */
    const struct sockaddr_in *in = (const struct sockaddr_in *)a;
    *ip = ntohl(in->sin_addr.s_addr);
    *port = ntohs(in->sin_port);
    return 0;
}

/* ------------------------------------------------------------------ socket, bind, connect, close */

static int net_engaged(void) { return weft_engaged() && weft_cfg.net; }

static void count_passed(int domain, int base) {
    if (!weft_engaged()) return;
    if (domain == AF_INET || domain == AF_INET6) {
        if (base == SOCK_STREAM) atomic_fetch_add(&n_passed_tcp, 1);
        else if (base == SOCK_DGRAM) atomic_fetch_add(&n_passed_udp, 1);
        else atomic_fetch_add(&n_passed_other, 1);
    } else {
        atomic_fetch_add(&n_passed_other, 1);
    }
}

WEFT_EXPORT int socket(int domain, int type, int proto) {
    int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (domain == AF_INET && base == SOCK_STREAM && (proto == 0 || proto == IPPROTO_TCP) && net_engaged()) {
        int fd = weft_tcp_socket(type);   /* hook_tcp.c */
        if (fd != -2) return fd;
        weft_errline("[weft] WARNING: cannot reach the broker at %s; this TCP socket is a real one", weft_cfg.broker);
        count_passed(domain, base);
        return get_real_socket()(domain, type, proto);
    }
    if (domain != AF_INET || base != SOCK_DGRAM || (proto != 0 && proto != IPPROTO_UDP) || !net_engaged()) {
        count_passed(domain, base);
        return get_real_socket()(domain, type, proto);
    }
    weft_depth++; /* connecting and greeting call nothing hooked, but a signal handler must not nest */
    int fd = broker_connect(type & SOCK_CLOEXEC);
    if (fd >= 0 && (fd >= MAX_SIM_FD || send_hello(fd) != 0)) {
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        fd = -1;
    }
    weft_depth--;
    if (fd < 0) { /* spec §4: any failure gives the program a real kernel socket instead */
        weft_errline("[weft] WARNING: cannot reach the broker at %s; this UDP socket is a real one",
                     weft_cfg.broker);
        count_passed(domain, base);
        return get_real_socket()(domain, type, proto);
    }
    if (!atomic_exchange(&atfork_registered, 1)) pthread_atfork(NULL, NULL, after_fork_child);
    sim_sock *s = &socks[fd];
    slot_init(s, (type & SOCK_NONBLOCK) != 0);
    atomic_store(&s->lock, 0);
    atomic_store_explicit(&s->live, 1, memory_order_release);
    atomic_fetch_add(&weft_net_open, 1);
    for (int lim = atomic_load(&sim_fd_limit); lim < fd + 1 && !atomic_compare_exchange_weak(&sim_fd_limit, &lim, fd + 1);) {
    }
    atomic_fetch_add(&n_simulated, 1);
    WEFT_TRACE("socket", "AF_INET, SOCK_DGRAM -> simulated %d", fd);
    return fd;
}

WEFT_EXPORT int bind(int fd, const struct sockaddr *a, socklen_t len) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_bind(fd, WEFT_OPAQUE(a), len);
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_bind()(fd, a, len);
    uint32_t ip;
    uint16_t port;
    if (parse_sockaddr(WEFT_OPAQUE(a), len, &ip, &port)) return -1;
    /* a node has one interface: the wildcard address is its own; port 0 picks one, as a kernel does */
    if (ip == INADDR_ANY) ip = own_ip();
    if (port == 0) port = next_auto_port();
    flock_acquire(&s->lock);
    int rc;
    if (s->dead) rc = set_errno(EIO);
    else if (s->bound) rc = set_errno(EINVAL);
    else if (send_bind(fd, ip, port)) rc = mark_dead(s);
    else { s->bound = 1; s->lip = ip; s->lport = port; rc = 0; }
    flock_release(&s->lock);
    WEFT_TRACE("bind", "%d %x:%u -> %d", fd, ip, port, rc);
    return rc;
}

WEFT_EXPORT int connect(int fd, const struct sockaddr *a, socklen_t len) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_connect(fd, WEFT_OPAQUE(a), len);
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_connect()(fd, a, len);
    a = WEFT_OPAQUE(a);
    if (a && len >= (socklen_t)sizeof(sa_family_t) && a->sa_family == AF_UNSPEC) {
        s->connected = 0; /* dissolves the association, as for a kernel UDP socket */
        return 0;
    }
    uint32_t ip;
    uint16_t port;
    if (parse_sockaddr(a, len, &ip, &port)) return -1;
    if (port == 0) return set_errno(EINVAL);
    flock_acquire(&s->lock);
    int rc = s->dead ? set_errno(EIO) : auto_bind(fd, s);
    if (rc == 0) { s->connected = 1; s->pip = ip; s->pport = port; }
    flock_release(&s->lock);
    WEFT_TRACE("connect", "%d %x:%u -> %d", fd, ip, port, rc);
    return rc;
}

static void net_forget(int fd, int closing) {
    if (weft_tcp_is_fd(fd)) { weft_tcp_forget(fd); return; }
    sim_sock *s = sim_of(fd);
    if (!s) return;
    flock_acquire(&s->lock);
    /* exchange, not store: two threads closing the same fd must count it closed once */
    int was_live = atomic_exchange_explicit(&s->live, 0, memory_order_acq_rel);
    if (was_live && weft_cfg.window_ns && !s->dead) {                   /* windowed: farewell first */
        send_goodbye(fd);
        if (closing) await_goodbye_read(fd);
    }
    s->armed = 0;
    flock_release(&s->lock);
    if (!was_live) return;
    atomic_fetch_sub(&weft_net_open, 1);
    WEFT_TRACE("close", "simulated %d", fd);
}

/* The socket at fd is gone (dup2/dup3 replaced it: fd already names another file). */
void weft_net_forget(int fd) { net_forget(fd, 0); }

/* close(fd), before the real close: fd is still the broker connection, so the close can wait for the broker to have
 * read its Goodbye (windowed). */
void weft_net_close(int fd) { net_forget(fd, 1); }

/* ------------------------------------------------------------------ sending */

static ssize_t net_send(int fd, sim_sock *s, const struct iovec *iov, int iovcnt, int flags,
                        const struct sockaddr *dest, socklen_t dlen) {
    (void)flags;
    size_t total = 0;
    for (int i = 0; i < iovcnt; i++) {
        if (!iov[i].iov_base && iov[i].iov_len) return set_errno(EFAULT);
        total += iov[i].iov_len;
    }
    if (total > UDP_MAX_PAYLOAD) return set_errno(EMSGSIZE);
    uint32_t dip;
    uint16_t dport;
    if (dest) {
        if (parse_sockaddr(dest, dlen, &dip, &dport)) return -1;
    } else if (s->connected) {
        dip = s->pip;
        dport = s->pport;
    } else {
        return set_errno(EDESTADDRREQ);
    }
    flock_acquire(&s->lock);
    int rc = s->dead ? set_errno(EIO) : auto_bind(fd, s);
    if (rc == 0) {
        uint64_t vt = weft_mono_observe();
        if (s->armed) rc = aux_send(s->lip, s->lport, dip, dport, iov, iovcnt, total, vt);
        else if (send_datagram(fd, s->lip, s->lport, dip, dport, iov, iovcnt, total, vt)) rc = mark_dead(s);
        if (rc && errno != EIO) errno = EIO; /* spec §2: a failed exchange is EIO */
    }
    flock_release(&s->lock);
    WEFT_TRACE("sendto", "%d %zu bytes to %x:%u -> %d", fd, total, dip, dport, rc);
    if (rc) return -1;
    if (weft_sched_active()) weft_sched_net_send(); /* the spec's net_send yield point */
    return (ssize_t)total;
}

WEFT_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a, socklen_t al) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        struct iovec v = {(void *)buf, n}; /* a connected stream ignores the address */
        return WEFT_OPAQUE(buf) || !n ? weft_tcp_send(fd, &v, 1, flags) : set_errno(EFAULT);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return get_real_sendto()(fd, buf, n, flags, a, al);
    if (!weft_engaged()) return weft_net_reentered();
    if (!WEFT_OPAQUE(buf)) return set_errno(EFAULT);
    struct iovec iov = {(void *)buf, n};
    return net_send(fd, s, &iov, 1, flags, WEFT_OPAQUE(a), al);
}

WEFT_EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        struct iovec v = {(void *)buf, n};
        return WEFT_OPAQUE(buf) || !n ? weft_tcp_send(fd, &v, 1, flags) : set_errno(EFAULT);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return get_real_send()(fd, buf, n, flags);
    if (!weft_engaged()) return weft_net_reentered();
    if (!WEFT_OPAQUE(buf)) return set_errno(EFAULT);
    struct iovec iov = {(void *)buf, n};
    return net_send(fd, s, &iov, 1, flags, NULL, 0);
}

WEFT_EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        m = WEFT_OPAQUE(m);
        if (!m || (!m->msg_iov && m->msg_iovlen)) return set_errno(EFAULT);
        return m->msg_iovlen > 1024 ? set_errno(EMSGSIZE) : weft_tcp_send(fd, m->msg_iov, (int)m->msg_iovlen, flags);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return get_real_sendmsg()(fd, m, flags);
    if (!weft_engaged()) return weft_net_reentered();
    m = WEFT_OPAQUE(m);
    if (!m || (!m->msg_iov && m->msg_iovlen)) return set_errno(EFAULT);
    if (m->msg_iovlen > 1024) return set_errno(EMSGSIZE);
    return net_send(fd, s, m->msg_iov, (int)m->msg_iovlen, flags, m->msg_name, m->msg_namelen);
}

ssize_t weft_net_write(int fd, const void *buf, size_t n) {
    if (weft_tcp_is_fd(fd)) {
        struct iovec v = {(void *)buf, n};
        return WEFT_OPAQUE(buf) || !n ? weft_tcp_send(fd, &v, 1, 0) : set_errno(EFAULT);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return set_errno(EBADF);
    if (!WEFT_OPAQUE(buf) && n) return set_errno(EFAULT);
    struct iovec iov = {(void *)buf, n};
    return net_send(fd, s, &iov, 1, 0, NULL, 0);
}

WEFT_EXPORT ssize_t writev(int fd, const struct iovec *iov, int n) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        return weft_tcp_send(fd, WEFT_OPAQUE(iov), n, 0);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return weft_ft_wrote(fd, get_real_writev()(fd, iov, n)); /* a file: file_times.c */
    if (!weft_engaged()) return weft_net_reentered();
    if (n < 0 || n > 1024) return set_errno(EINVAL);
    return net_send(fd, s, iov, n, 0, NULL, 0);
}

/* ------------------------------------------------------------------ receiving */

/*
 * Windowed receive (WEFT_WINDOW_NS > 0, spec §4): the broker never holds a Recv, so a socket is
 * never armed. One clock observation T per call; each attempt is Recv{blocking, local_vt}:
 *   - Deliver: the clock advances to at least its vt (the datagram's delivery time), then as usual;
 *   - Empty{h}: the broker has sealed every window before h. A non-blocking call with h >= T says
 *     EAGAIN; a call with SO_RCVTIMEO asks for datagrams before T + timeout (non-blocking Recv
 *     with that local_vt) and times out once h >= T + timeout, the clock jumping there. Otherwise
 *     the node reports its frontier once (Frontier{T}: it will send nothing earlier, so windows can
 *     seal) and retries with the same T after a pause: 50 µs of real time (a managed thread parks
 *     as a net waiter first; the scheduler wakes it when idle, without a draw).
 */
static ssize_t net_recv_windowed(int fd, sim_sock *s, const struct iovec *iov, int iovcnt, int flags,
                                 struct sockaddr *src, socklen_t *srclen, int *msg_flags, uint64_t until) {
    int nonblock = (flags & MSG_DONTWAIT) || s->nonblock;
    uint64_t t = weft_mono_observe();
    uint64_t timeout = nonblock ? 0 : until ? (until > t ? until - t : 1) : s->rcvtimeo_ns;
    uint64_t want = timeout ? t + timeout : t;
    /* A blocking receive is held at the broker only when nothing else of the node can need to run meanwhile
     * (the same condition as a plain run's `forever`): one thread, the node's only process. */
    int mode = nonblock ? LEASE_NONBLOCKING : timeout ? LEASE_TIMED
               : (weft_pt_alone() && !atomic_load_explicit(&weft_multithreaded, memory_order_relaxed))
                   ? LEASE_BLOCKING : -1;
    while (mode >= 0) {
        flock_acquire(&s->lock);
        if (!atomic_load(&s->live)) { flock_release(&s->lock); return set_errno(EBADF); }
        if (s->dead) { flock_release(&s->lock); return set_errno(EIO); }
        if (!s->bound) { flock_release(&s->lock); return set_errno(EINVAL); }
        /* A lease holds while the node asks the broker nothing else (any request, a send above all, may start
         * a chain of datagrams back to us), so only in a process that is its node's only one. */
        if (mode != LEASE_BLOCKING && want < s->lease_until && weft_pt_alone() &&
            atomic_load(&n_requests) == s->lease_epoch) {
            /* nothing can arrive by `want`: the broker's answer would be this one */
            flock_release(&s->lock);
            atomic_fetch_add_explicit(&n_leased, 1, memory_order_relaxed);
            if (timeout) weft_mono_at_least(want);
            return set_errno(EAGAIN);
        }
        unsigned char f[20];
        put_recv(f, s->lip, s->lport, 0, want);
        f[4] = REQ_LEASE;
        f[11] = (unsigned char)mode;
        struct iovec q = {f, sizeof f};
        reply r;
        uint64_t epoch = atomic_load(&n_requests) + 1; /* our Lease is the next request, if no thread races us */
        if (write_all(fd, &q, 1) || read_reply(fd, iov, iovcnt, &r) ||
            (r.tag != REP_DELIVER && r.tag != REP_LEASED)) {
            mark_dead(s);
            flock_release(&s->lock);
            return -1;
        }
        if (r.tag == REP_LEASED && atomic_load(&n_requests) == epoch) {
            s->lease_until = r.until;  /* (another thread's request in between: it may postdate the lease) */
            s->lease_epoch = epoch;
        }
        flock_release(&s->lock);
        if (r.tag == REP_DELIVER) {
            weft_mono_at_least(r.vt);
            if (s->connected && (r.sip != s->pip || r.sport != s->pport)) continue;
            weft_fill_sockaddr(src, srclen, r.sip, r.sport);
            if (msg_flags) *msg_flags = r.copied < r.plen ? MSG_TRUNC : 0;
            return (ssize_t)((flags & MSG_TRUNC) ? r.plen : r.copied);
        }
        if (mode == LEASE_BLOCKING) break;   /* not held (the run is ending): ask the ordinary way */
        if (timeout) weft_mono_at_least(want);
        return set_errno(EAGAIN);
    }
    int frontier_sent = 0;
    for (;;) {
        flock_acquire(&s->lock);
        if (!atomic_load(&s->live)) { flock_release(&s->lock); return set_errno(EBADF); }
        if (s->dead) { flock_release(&s->lock); return set_errno(EIO); }
        if (!s->bound) { flock_release(&s->lock); return set_errno(EINVAL); }
        unsigned char f[20];
        put_recv(f, s->lip, s->lport, !nonblock && !timeout, want);
        struct iovec q = {f, sizeof f};
        reply r;
        if (write_all(fd, &q, 1) || read_reply(fd, iov, iovcnt, &r) ||
            (r.tag != REP_DELIVER && r.tag != REP_EMPTY)) {
            mark_dead(s);
            flock_release(&s->lock);
            return -1;
        }
        if (r.tag == REP_DELIVER) {
            flock_release(&s->lock);
            weft_mono_at_least(r.vt);
            if (s->connected && (r.sip != s->pip || r.sport != s->pport)) continue;
            weft_fill_sockaddr(src, srclen, r.sip, r.sport);
            if (msg_flags) *msg_flags = r.copied < r.plen ? MSG_TRUNC : 0;
            return (ssize_t)((flags & MSG_TRUNC) ? r.plen : r.copied);
        }
        if (nonblock && r.vt >= t) { flock_release(&s->lock); return set_errno(EAGAIN); }
        if (timeout && r.vt >= want) {
            flock_release(&s->lock);
            weft_mono_at_least(want);
            return set_errno(EAGAIN);
        }
        if (!frontier_sent) {
            if (send_frontier(fd, t)) { mark_dead(s); flock_release(&s->lock); return -1; }
            frontier_sent = 1;
        }
        flock_release(&s->lock);
        if (weft_sched_active()) {
            weft_io_wait w = {.kind = WEFT_IO_NET, .net = 1, .fd = -1}; /* fd -1: always "ready" */
            weft_sched_net_block(&w, 0);
            if (w.result < 0) return set_errno(w.err);
        }
        struct timespec pause = {0, 50000};
        weft_real_syscall(SYS_nanosleep, &pause, NULL, 0, 0, 0, 0);
    }
}

/* At exit, a windowed node says Goodbye on every simulated socket still open (spec §4). */
static void goodbye_all(void) {
    if (!weft_cfg.window_ns || atomic_load(&weft_net_open) == 0) return;
    int lim = atomic_load(&sim_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        sim_sock *s = sim_of(fd);
        if (!s) continue;
        flock_acquire(&s->lock);
        if (!s->dead) send_goodbye(fd);
        s->dead = 1; /* nothing more may be said on it */
        flock_release(&s->lock);
    }
}

/*
 * The one receive path (recvfrom, recv, recvmsg, read, readv). Blocking receives arm the socket
 * and wait for the Deliver: a managed thread as a net waiter in the scheduler (spec §8: it always
 * parks first, at site net_block), an unmanaged one in ppoll on its stream. Non-blocking receives
 * ask the broker once (Recv{blocking=false}: Deliver or Empty, spec §3) unless the socket is
 * armed, in which case the answer is whether the armed Deliver has arrived.
 */
static ssize_t net_recv_until(int fd, sim_sock *s, const struct iovec *iov, int iovcnt, int flags,
                              struct sockaddr *src, socklen_t *srclen, int *msg_flags, uint64_t until) {
    if (weft_cfg.window_ns) return net_recv_windowed(fd, s, iov, iovcnt, flags, src, srclen, msg_flags, until);
    int nonblock = (flags & MSG_DONTWAIT) || s->nonblock;
    int peek = (flags & MSG_PEEK) != 0;   /* only an armed socket can peek: a pop cannot be undone */
    uint64_t t0 = weft_mono_observe();           /* the call's clock observation (spec §4) */
    uint64_t timeout = until ? (until > t0 ? until - t0 : 1) : s->rcvtimeo_ns;
    int managed = weft_sched_active();
    int parked = 0;
    int known_ready = 0;   /* a solo process's wait saw the stream readable: nobody else can drain it */
    for (;;) {
        flock_acquire(&s->lock);
        if (!atomic_load(&s->live)) { flock_release(&s->lock); return set_errno(EBADF); }
        if (s->dead) { flock_release(&s->lock); return set_errno(EIO); }
        if (!s->bound) { flock_release(&s->lock); return set_errno(EINVAL); }
        reply r;
        if (!s->armed && nonblock && !peek) {
            unsigned char f[20];
            put_recv(f, s->lip, s->lport, 0, t0);
            struct iovec q = {f, sizeof f};
            if (write_all(fd, &q, 1) || read_reply(fd, iov, iovcnt, &r) ||
                (r.tag != REP_DELIVER && r.tag != REP_EMPTY)) {
                mark_dead(s);
                flock_release(&s->lock);
                return -1;
            }
            flock_release(&s->lock);
            if (r.tag == REP_EMPTY) return set_errno(EAGAIN);
        } else {
            int forever = !nonblock && !peek && !timeout && weft_pt_alone() &&
                          !atomic_load_explicit(&weft_multithreaded, memory_order_relaxed);
            if (arm(fd, s, t0, forever)) { flock_release(&s->lock); return -1; }
            /* In a process without threads nobody else can consume the Deliver, so an unmanaged
             * blocking receive skips the zero-timeout checks: its wait returns at once if the
             * reply is there, and once the wait saw it readable it is still there. */
            int solo = !managed && !nonblock && !atomic_load_explicit(&weft_multithreaded, memory_order_relaxed);
            int ready = known_ready || (!solo && (nonblock || !managed || parked) && reply_ready(fd));
            if (!ready) {
                flock_release(&s->lock);
                if (nonblock) return set_errno(EAGAIN);
                spin_readable(fd); /* the park or wait below then finds the Deliver at once */
                if (managed) {
                    /* parks even when the Deliver is already there: whether it is depends on real
                     * time, and the schedule must not (spec §8 net_block) */
                    weft_io_wait w = {.kind = WEFT_IO_NET, .net = 1, .fd = fd};
                    uint64_t deadline = timeout ? t0 + timeout : 0;  /* from the call, across re-parks */
                    WEFT_TRACE("recvfrom", "%d parks (timeout %lu ns)", fd, (unsigned long)timeout);
                    int ok = weft_sched_net_block(&w, deadline);
                    parked = 1;
                    if (!ok) return set_errno(EAGAIN);                /* virtual timeout */
                    if (w.result < 0) return set_errno(w.err);       /* cancelled */
                } else {
                    int rc = wait_readable(fd, timeout ? weft_net_real_budget(timeout) : UINT64_MAX);
                    if (rc < 0) return -1;                           /* EINTR */
                    if (rc == 0 && weft_net_broker_behind()) continue; /* the broker had no chance yet */
                    if (rc == 0) {                                   /* virtual timeout */
                        weft_mono_at_least(t0 + timeout);
                        return set_errno(EAGAIN);
                    }
                    known_ready = solo;
                }
                continue;
            }
            known_ready = 0;
            if (peek) {
                int rc = peek_deliver(fd, iov, iovcnt, &r);
                if (rc) mark_dead(s);
                flock_release(&s->lock);
                if (rc) return -1;
                weft_fill_sockaddr(src, srclen, r.sip, r.sport);
                if (msg_flags) *msg_flags = r.copied < r.plen ? MSG_TRUNC : 0;
                return (ssize_t)((flags & MSG_TRUNC) ? r.plen : r.copied);
            }
            s->armed = 0;
            if (read_reply(fd, iov, iovcnt, &r) || (r.tag != REP_DELIVER && r.tag != REP_EMPTY)) {
                mark_dead(s);
                flock_release(&s->lock);
                return -1;
            }
            flock_release(&s->lock);
            if (r.tag == REP_EMPTY) return set_errno(ECONNRESET);   /* a blocking Recv answered Empty */
        }
        /* a connected UDP socket only hears its peer (the datagram is consumed, as the kernel does) */
        if (s->connected && (r.sip != s->pip || r.sport != s->pport)) {
            if (nonblock) return set_errno(EAGAIN);
            continue;
        }
        weft_fill_sockaddr(src, srclen, r.sip, r.sport);
        if (msg_flags) *msg_flags = r.copied < r.plen ? MSG_TRUNC : 0;
        WEFT_TRACE("recvfrom", "%d %u bytes from %x:%u", fd, r.plen, r.sip, r.sport);
        return (ssize_t)((flags & MSG_TRUNC) ? r.plen : r.copied);
    }
}

/*
 * A blocking receive while a signal timer of the process is armed (issue 29): the expiry bounds the
 * wait like an SO_RCVTIMEO deadline (until = that instant: a timed Recv, paced in plain runs, a
 * timed lease in windowed ones, a deadline in the thread model), and there the timer fires. A
 * handler ends the call with EINTR unless it has SA_RESTART and the socket no SO_RCVTIMEO (socket(7):
 * such a receive is never restarted); otherwise the receive goes on to the socket's own deadline.
 */
static ssize_t net_recv(int fd, sim_sock *s, const struct iovec *iov, int iovcnt, int flags,
                        struct sockaddr *src, socklen_t *srclen, int *msg_flags) {
    int nonblock = (flags & MSG_DONTWAIT) || s->nonblock;
    uint64_t end = s->rcvtimeo_ns ? weft_mono_peek() + s->rcvtimeo_ns : 0;
    uint64_t cut = nonblock ? 0 : weft_timer_net_cut(end);
    if (!cut) return net_recv_until(fd, s, iov, iovcnt, flags, src, srclen, msg_flags, 0);
    for (;;) {
        if (cut > weft_mono_peek()) {
            ssize_t r = net_recv_until(fd, s, iov, iovcnt, flags, src, srclen, msg_flags, cut);
            if (r >= 0 || errno != EAGAIN || weft_mono_peek() < cut) return r;
        }
        WEFT_TRACE("recvfrom", "%d cut by a timer at %lu", fd, (unsigned long)cut);
        if (weft_timer_net_fired(cut, !end)) return set_errno(EINTR);
        cut = weft_timer_net_cut(end);
        if (!cut) return net_recv_until(fd, s, iov, iovcnt, flags, src, srclen, msg_flags, end);
    }
}

WEFT_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a, socklen_t *al) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        struct iovec v = {buf, n};
        if (!WEFT_OPAQUE(buf) && n) return set_errno(EFAULT);
        ssize_t r = weft_tcp_recv(fd, &v, 1, flags);
        if (r >= 0 && a && WEFT_OPAQUE(al)) *al = 0; /* a stream names no sender (as Linux) */
        return r;
    }
    sim_sock *s = sim_of(fd);
    if (!s) {
        if (!(flags & MSG_DONTWAIT)) weft_io_before_read(fd);
        return get_real_recvfrom()(fd, buf, n, flags, a, al);
    }
    if (!weft_engaged()) return weft_net_reentered();
    if (!WEFT_OPAQUE(buf)) return set_errno(EFAULT);
    struct iovec iov = {buf, n};
    return net_recv(fd, s, &iov, 1, flags, a, al, NULL);
}

WEFT_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        struct iovec v = {buf, n};
        return WEFT_OPAQUE(buf) || !n ? weft_tcp_recv(fd, &v, 1, flags) : set_errno(EFAULT);
    }
    sim_sock *s = sim_of(fd);
    if (!s) {
        if (!(flags & MSG_DONTWAIT)) weft_io_before_read(fd);
        return get_real_recv()(fd, buf, n, flags);
    }
    if (!weft_engaged()) return weft_net_reentered();
    if (!WEFT_OPAQUE(buf)) return set_errno(EFAULT);
    struct iovec iov = {buf, n};
    return net_recv(fd, s, &iov, 1, flags, NULL, NULL, NULL);
}

WEFT_EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags) {
    if (weft_tcp_is_fd(fd)) {
        if (!weft_engaged()) return weft_net_reentered();
        m = WEFT_OPAQUE(m);
        if (!m || (!m->msg_iov && m->msg_iovlen)) return set_errno(EFAULT);
        if (m->msg_iovlen > 1024) return set_errno(EMSGSIZE);
        ssize_t r = weft_tcp_recv(fd, m->msg_iov, (int)m->msg_iovlen, flags);
        if (r >= 0) { m->msg_flags = 0; m->msg_controllen = 0; m->msg_namelen = 0; }
        return r;
    }
    sim_sock *s = sim_of(fd);
    if (!s) {
        if (!(flags & MSG_DONTWAIT)) weft_io_before_read(fd);
        return get_real_recvmsg()(fd, m, flags);
    }
    if (!weft_engaged()) return weft_net_reentered();
    m = WEFT_OPAQUE(m);
    if (!m || (!m->msg_iov && m->msg_iovlen)) return set_errno(EFAULT);
    if (m->msg_iovlen > 1024) return set_errno(EMSGSIZE);
    int mf = 0;
    ssize_t r = net_recv(fd, s, m->msg_iov, (int)m->msg_iovlen, flags, m->msg_name,
                         m->msg_name ? &m->msg_namelen : NULL, &mf);
    if (r >= 0) { m->msg_flags = mf; m->msg_controllen = 0; }
    return r;
}

ssize_t weft_net_read(int fd, void *buf, size_t n) {
    if (weft_tcp_is_fd(fd)) {
        struct iovec v = {buf, n};
        return WEFT_OPAQUE(buf) || !n ? weft_tcp_recv(fd, &v, 1, 0) : set_errno(EFAULT);
    }
    sim_sock *s = sim_of(fd);
    if (!s) return set_errno(EBADF);
    if (!WEFT_OPAQUE(buf) && n) return set_errno(EFAULT);
    struct iovec iov = {buf, n};
    return net_recv(fd, s, &iov, 1, 0, NULL, NULL, NULL);
}

/* readv on a simulated socket (hook_io.c passes the others on) */
ssize_t weft_net_readv(int fd, const struct iovec *iov, int n) {
    if (weft_tcp_is_fd(fd)) return weft_tcp_recv(fd, iov, n, 0);
    sim_sock *s = sim_of(fd);
    if (!s) return set_errno(EBADF);
    if (n < 0 || n > 1024) return set_errno(EINVAL);
    return net_recv(fd, s, iov, n, 0, NULL, NULL, NULL);
}

/* ------------------------------------------------------------------ names and options */

WEFT_EXPORT int getsockname(int fd, struct sockaddr *a, socklen_t *al) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_getsockname(fd, WEFT_OPAQUE(a), WEFT_OPAQUE(al));
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_getsockname()(fd, a, al);
    if (!WEFT_OPAQUE(a) || !WEFT_OPAQUE(al)) return set_errno(EFAULT);
    weft_fill_sockaddr(a, al, s->bound ? s->lip : 0, s->bound ? s->lport : 0);
    return 0;
}

WEFT_EXPORT int getpeername(int fd, struct sockaddr *a, socklen_t *al) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_getpeername(fd, WEFT_OPAQUE(a), WEFT_OPAQUE(al));
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_getpeername()(fd, a, al);
    if (!s->connected) return set_errno(ENOTCONN);
    if (!WEFT_OPAQUE(a) || !WEFT_OPAQUE(al)) return set_errno(EFAULT);
    weft_fill_sockaddr(a, al, s->pip, s->pport);
    return 0;
}

/*
 * Options of a simulated socket live in its slot: passing them to the broker stream would change
 * the shim's own I/O (SO_RCVTIMEO on the stream would cut a reply in half). Options a UDP program
 * commonly sets are accepted; an unknown one is ENOPROTOOPT, as for an option the kernel lacks.
 */
WEFT_EXPORT int setsockopt(int fd, int level, int name, const void *v, socklen_t len) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_setsockopt(fd, level, name, WEFT_OPAQUE(v), len);
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_setsockopt()(fd, level, name, v, len);
    if (!WEFT_OPAQUE(v)) return set_errno(EFAULT);
    if (level == SOL_SOCKET && (name == SO_RCVTIMEO || name == SO_SNDTIMEO)) {
        uint64_t *ns = name == SO_RCVTIMEO ? &s->rcvtimeo_ns : &s->sndtimeo_ns;
        if (weft_timeout_opt_in(v, len, ns)) return -1;
        WEFT_TRACE("setsockopt", "%d SO_%s %lu ns", fd, name == SO_RCVTIMEO ? "RCVTIMEO" : "SNDTIMEO",
                   (unsigned long)*ns);
        return 0;
    }
    if (len < (socklen_t)sizeof(int)) return set_errno(EINVAL);
    int iv = *(const int *)v;
    if (level == SOL_SOCKET) {
        switch (name) {
        case SO_REUSEADDR: s->opt_reuseaddr = iv != 0; return 0;
        case SO_REUSEPORT: s->opt_reuseport = iv != 0; return 0;
        case SO_BROADCAST: s->opt_broadcast = iv != 0; return 0;
        case SO_RCVBUF: s->opt_rcvbuf = weft_sockbuf_rcv(iv); return 0;
        case SO_SNDBUF: s->opt_sndbuf = weft_sockbuf_snd(iv); return 0;
        case SO_PRIORITY: case SO_KEEPALIVE: case SO_TIMESTAMP: case SO_TIMESTAMPNS: case SO_DONTROUTE:
        case SO_NO_CHECK: return 0;
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_IP) {
        switch (name) {
        case IP_TOS: case IP_TTL: case IP_PKTINFO: case IP_RECVERR: case IP_MTU_DISCOVER:
        case IP_MULTICAST_TTL: case IP_MULTICAST_LOOP: case IP_RECVTOS: case IP_RECVTTL: return 0;
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_UDP) return 0;
    return set_errno(ENOPROTOOPT);
}

WEFT_EXPORT int getsockopt(int fd, int level, int name, void *v, socklen_t *len) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_getsockopt(fd, level, name, WEFT_OPAQUE(v), WEFT_OPAQUE(len));
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_getsockopt()(fd, level, name, v, len);
    if (!WEFT_OPAQUE(v) || !WEFT_OPAQUE(len)) return set_errno(EFAULT);
    if (level == SOL_SOCKET) {
        switch (name) {
        case SO_TYPE: return weft_int_opt_out(v, len, SOCK_DGRAM);
        case SO_DOMAIN: return weft_int_opt_out(v, len, AF_INET);
        case SO_PROTOCOL: return weft_int_opt_out(v, len, IPPROTO_UDP);
        case SO_ERROR: return weft_int_opt_out(v, len, 0);
        case SO_ACCEPTCONN: return weft_int_opt_out(v, len, 0);
        case SO_REUSEADDR: return weft_int_opt_out(v, len, s->opt_reuseaddr);
        case SO_REUSEPORT: return weft_int_opt_out(v, len, s->opt_reuseport);
        case SO_BROADCAST: return weft_int_opt_out(v, len, s->opt_broadcast);
        case SO_RCVBUF: return weft_int_opt_out(v, len, s->opt_rcvbuf);
        case SO_SNDBUF: return weft_int_opt_out(v, len, s->opt_sndbuf);
        case SO_RCVTIMEO: return weft_timeout_opt_out(v, len, s->rcvtimeo_ns);
        case SO_SNDTIMEO: return weft_timeout_opt_out(v, len, s->sndtimeo_ns);
        default: return set_errno(ENOPROTOOPT);
        }
    }
    if (level == IPPROTO_IP && name == IP_TTL) return weft_int_opt_out(v, len, 64);
    if (level == IPPROTO_IP && name == IP_TOS) return weft_int_opt_out(v, len, 0);
    return set_errno(ENOPROTOOPT);
}

WEFT_EXPORT int shutdown(int fd, int how) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_shutdown(fd, how);
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged()) return get_real_shutdown()(fd, how);
    if (how < SHUT_RD || how > SHUT_RDWR) return set_errno(EINVAL);
    return s->connected ? 0 : set_errno(ENOTCONN);
}

int weft_net_fcntl(int fd, int cmd, long arg) {
    if (weft_tcp_is_fd(fd)) return weft_tcp_fcntl(fd, cmd, arg);
    sim_sock *s = sim_of(fd);
    if (cmd == F_GETFL) {
        long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
        if (fl < 0) return -1;
        return (int)((fl & ~O_NONBLOCK) | (s && s->nonblock ? O_NONBLOCK : 0));
    }
    /* F_SETFL: the stream stays blocking; O_NONBLOCK is the program's view only */
    if (s) s->nonblock = (arg & O_NONBLOCK) != 0;
    return (int)weft_real_syscall(SYS_fcntl, fd, F_SETFL, arg & ~O_NONBLOCK, 0, 0, 0);
}

WEFT_EXPORT int ioctl(int fd, unsigned long req, ...) {
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    int trc;
    if (weft_tcp_is_fd(fd) && weft_engaged() && weft_tcp_ioctl(fd, req, WEFT_OPAQUE(arg), &trc)) return trc;
    sim_sock *s = sim_of(fd);
    if (!s || !weft_engaged() || (req != FIONBIO && req != FIONREAD)) return get_real_ioctl()(fd, req, arg);
    if (!WEFT_OPAQUE(arg)) return set_errno(EFAULT);
    if (req == FIONBIO) { s->nonblock = *(int *)arg != 0; return 0; }
    /* FIONREAD: the length of the armed Deliver if it has arrived (peeked, not consumed), else 0 */
    int n = 0;
    flock_acquire(&s->lock);
    if (s->armed && reply_ready(fd)) {
        unsigned char h[21];
        long r = weft_real_syscall(SYS_recvfrom, fd, h, sizeof h, MSG_PEEK | MSG_DONTWAIT, NULL, NULL);
        if (r == (long)sizeof h && h[4] == REP_DELIVER) n = (int)get32(h + 17);
    }
    flock_release(&s->lock);
    *(int *)arg = n;
    return 0;
}

/* ------------------------------------------------------------------ readiness (poll/select/epoll) */

static void arm_for_wait(int fd, int forever) {
    sim_sock *s = sim_of(fd);
    if (!s || weft_cfg.window_ns) return; /* a windowed broker never holds a Recv */
    flock_acquire(&s->lock);
    arm(fd, s, weft_mono_peek(), forever); /* a failure marks the socket dead: its stream then reads as EOF */
    flock_release(&s->lock);
}

/* The deadlock verdict's view of a wait (docs/broker.md): a poll or select with no timeout whose only fd is one
 * simulated UDP socket waiting for input, in a single-threaded process that is its node's only one, waits there
 * forever exactly as a blocking recvfrom does; its armed Recv says so. Only one fd: the Deliver that ends the wait
 * is then the one that wakes the broker's record of it (with two, the other socket would stay armed "forever"
 * while the node runs again). */
static int forever_wait(int timeout_none, int fds_total, int sim_in) {
    return timeout_none && fds_total == 1 && sim_in == 1 && weft_pt_alone() &&
           !atomic_load_explicit(&weft_multithreaded, memory_order_relaxed) &&
           !weft_timer_next();   /* a signal timer ends the wait (timer_wait.c): not forever */
}



int weft_net_prepare_poll(void *fdsv, unsigned long n) {
    return weft_net_prepare_poll_for(fdsv, n, 0);
}

int weft_net_prepare_poll_for(void *fdsv, unsigned long n, int no_timeout) {
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0 || !fdsv) return 0;
    struct pollfd *fds = fdsv;
    int forever = n == 1 && sim_of(fds[0].fd) && (fds[0].events & (POLLIN | POLLRDNORM)) &&
                  forever_wait(no_timeout, 1, 1);
    int k = 0;
    for (unsigned long i = 0; i < n; i++) {
        if (!sim_of(fds[i].fd)) continue;
        k++;
        if (fds[i].events & (POLLIN | POLLRDNORM)) arm_for_wait(fds[i].fd, forever);
    }
    return k;
}

int weft_net_prepare_select(int nfds, void *rdv) {
    return weft_net_prepare_select_for(nfds, rdv, NULL, NULL, 0);
}

int weft_net_prepare_select_for(int nfds, void *rdv, void *wrv, void *exv, int no_timeout) {
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0) return 0;
    fd_set *rd = rdv, *wr = wrv, *ex = exv;
    int total = 0, sim_in = 0;
    for (int fd = 0; no_timeout && fd < nfds && fd < FD_SETSIZE; fd++) {
        int asked = (rd && FD_ISSET(fd, rd)) || (wr && FD_ISSET(fd, wr)) || (ex && FD_ISSET(fd, ex));
        total += asked;
        if (rd && FD_ISSET(fd, rd) && sim_of(fd)) sim_in++;
    }
    int forever = forever_wait(no_timeout, total, sim_in);
    int k = 0;
    for (int fd = 0; fd < nfds && fd < MAX_SIM_FD; fd++) {
        if (!sim_of(fd)) continue;
        k++;
        if (rd && FD_ISSET(fd, rd)) arm_for_wait(fd, forever);
    }
    return k;
}

int weft_net_prepare_epoll(int epfd) {
    if (atomic_load_explicit(&weft_net_open, memory_order_relaxed) == 0) return 0;
    int k = 0, lim = atomic_load(&sim_fd_limit);
    for (int fd = 0; fd < lim; fd++) {
        sim_sock *s = sim_of(fd);
        if (!s || s->ep_fd != epfd) continue;
        k++;
        if (s->ep_events & EPOLLIN) arm_for_wait(fd, 0);
    }
    return k;
}

void weft_net_epoll_ctl(int epfd, int op, int fd, const void *ev) {
    sim_sock *s = sim_of(fd);
    if (!s) return;
    if (op == EPOLL_CTL_DEL) { if (s->ep_fd == epfd) s->ep_fd = -1; return; }
    if (!ev) return;
    s->ep_fd = epfd;
    s->ep_events = ((const struct epoll_event *)ev)->events;
}

WEFT_EXPORT int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev) {
    if (weft_tcp_is_fd(fd) && weft_engaged()) return weft_tcp_epoll_ctl(epfd, op, fd, WEFT_OPAQUE(ev), get_real_epoll_ctl());
    int rc = get_real_epoll_ctl()(epfd, op, fd, ev);
    if (rc == 0 && weft_net_is_fd(fd)) weft_net_epoll_ctl(epfd, op, fd, ev);
    return rc;
}

/* ------------------------------------------------------------------ statistics */

static void net_stats(void);

void weft_net_at_exit(void) {
    goodbye_all();
    net_stats();
    weft_tcp_at_exit(atomic_load(&n_passed_tcp));
}

static void net_stats(void) {
    if (!weft_cfg.stats) return;
    uint64_t sim = atomic_load(&n_simulated), tcp = atomic_load(&n_passed_tcp);
    uint64_t udp = atomic_load(&n_passed_udp), other = atomic_load(&n_passed_other);
    if (!weft_cfg.net && sim + tcp + udp + other == 0) return;
    weft_errline("[weft] network: %lu simulated UDP socket(s), %lu broker request(s); passed through: "
                 "%lu TCP, %lu UDP without a broker, %lu other", (unsigned long)sim,
                 (unsigned long)atomic_load(&n_requests), (unsigned long)tcp, (unsigned long)udp,
                 (unsigned long)other);
    uint64_t leased = atomic_load(&n_leased);
    if (leased) weft_errline("[weft] network: %lu receive(s) answered from a lease (no broker request)",
                             (unsigned long)leased);
}
