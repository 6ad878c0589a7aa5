/*
 * hook_io.c - waits a real runtime makes outside pthreads, turned into scheduler states:
 *   - syscall(SYS_futex, ...) called directly (the JVM's safepoint barrier, hand-written locks):
 *     FUTEX_WAIT/WAKE between managed threads are modelled, with virtual-time timeouts;
 *   - poll, ppoll, select, pselect, epoll_wait, epoll_pwait: a managed thread whose fds are not
 *     ready waits in the model (probed at every decision) with its timeout as a virtual deadline;
 *   - blocking reads and accepts (read, readv, recv, recvfrom, recvmsg, accept, accept4) on fds
 *     that are not ready: the same wait on POLLIN, then the real call (the recv family's hooks are
 *     in hook_net.c, which answers simulated sockets itself);
 *   - waits that involve simulated sockets (hook_net.c arms them first, so the kernel sees a
 *     datagram as a readable stream) are net waits: managed, they are examined only when no thread
 *     can run (spec §8); unmanaged, their virtual timeout is paced in real time
 *     (weft_net_real_budget) and then jumps the clock;
 *   - blocking waits for children (waitpid, wait, wait4, waitid): the same, probed with
 *     waitid(WNOHANG | WNOWAIT);
 *   - syscall(SYS_getrandom, ...) is served from the getrandom stream.
 * A thread therefore never holds the token while blocked in the kernel on something another
 * managed thread must provide. Unmanaged callers (single-threaded programs, --no-sched) pass
 * through; a poll/select/epoll timeout with nothing to watch just advances virtual time.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/epoll.h>
#include <sys/random.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/time.h>
#include <sys/wait.h>

typedef long (*syscall_fn)(long, ...);
typedef int (*poll_fn)(struct pollfd *, nfds_t, int);
typedef int (*ppoll_fn)(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
typedef int (*select_fn)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
typedef int (*pselect_fn)(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *);
typedef int (*epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*epoll_pwait_fn)(int, struct epoll_event *, int, int, const sigset_t *);
typedef ssize_t (*readv_fn)(int, const struct iovec *, int);
typedef int (*accept_fn)(int, struct sockaddr *, socklen_t *);
typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);

REAL_FN(syscall_fn, syscall)
REAL_FN(poll_fn, poll)
REAL_FN(ppoll_fn, ppoll)
REAL_FN(select_fn, select)
REAL_FN(pselect_fn, pselect)
REAL_FN(epoll_wait_fn, epoll_wait)
REAL_FN(epoll_pwait_fn, epoll_pwait)
REAL_FN(readv_fn, readv)
REAL_FN(accept_fn, accept)
REAL_FN(accept4_fn, accept4)
typedef pid_t (*waitpid_fn)(pid_t, int *, int);
typedef pid_t (*wait_fn)(int *);
typedef pid_t (*wait4_fn)(pid_t, int *, int, struct rusage *);
typedef int (*waitid_fn)(idtype_t, id_t, siginfo_t *, int);
REAL_FN(waitpid_fn, waitpid)
REAL_FN(wait_fn, wait)
REAL_FN(wait4_fn, wait4)
typedef pid_t (*wait3_fn)(int *, int, struct rusage *);
REAL_FN(wait3_fn, wait3)
REAL_FN(waitid_fn, waitid)
typedef int (*sem_try_fn)(sem_t *);
REAL_FN(sem_try_fn, sem_trywait)

#define MS 1000000ULL


/* ------------------------------------------------------------------ readiness probes */

int weft_io_probe(weft_io_wait *w) {
    int rc = 0;
    if (w->kind == WEFT_IO_POLL) {
        rc = get_real_poll()(w->fds, (nfds_t)w->nfds, 0);
    } else if (w->kind == WEFT_IO_SELECT) {
        /* probe on copies: a not-ready select must leave the caller's sets as they were */
        fd_set r, wr, x;
        struct timeval zero = {0, 0};
        if (w->rd) r = *(fd_set *)w->rd;
        if (w->wr) wr = *(fd_set *)w->wr;
        if (w->ex) x = *(fd_set *)w->ex;
        rc = get_real_select()(w->nsel, w->rd ? &r : NULL, w->wr ? &wr : NULL, w->ex ? &x : NULL, &zero);
        if (rc > 0) {
            if (w->rd) *(fd_set *)w->rd = r;
            if (w->wr) *(fd_set *)w->wr = wr;
            if (w->ex) *(fd_set *)w->ex = x;
        }
    } else if (w->kind == WEFT_IO_EPOLL) {
        rc = get_real_epoll_wait()(w->epfd, w->events, w->maxevents, 0);
    } else if (w->kind == WEFT_IO_NET) {
        /* fd -1: a windowed receive, which only a request can answer: always worth a retry */
        struct pollfd p = {.fd = w->fd, .events = POLLIN};
        rc = w->fd < 0 ? 1 : get_real_poll()(&p, 1, 0);
    } else if (w->kind == WEFT_IO_SEM) {
        /* a successful probe has taken the semaphore: the waiter returns 0 without another call */
        rc = get_real_sem_trywait()((sem_t *)w->fds) == 0;
    } else if (w->kind == WEFT_IO_CHILD) {
        /* WNOWAIT: look without reaping; the caller's real wait then returns at once */
        siginfo_t si;
        memset(&si, 0, sizeof si);
        rc = (int)weft_real_syscall(SYS_waitid, w->idtype, w->id, &si, w->wflags | WNOHANG | WNOWAIT, NULL, 0);
        if (rc == 0) rc = si.si_pid != 0;
    }
    if (rc == 0) return 0;
    w->result = rc;
    w->err = rc < 0 ? errno : 0;
    return 1;
}

/* Runs the wait in the model: returns the call's result (0 on virtual timeout). A net wait with a
 * timeout parks without probing first: whether a datagram is already there depends on real time,
 * and the schedule must not (spec §8 net_block). */
static int model_wait(weft_io_wait *w, uint64_t timeout_ns, int infinite) {
    uint64_t deadline = infinite ? 0 : weft_mono_peek() + timeout_ns;
    if (!infinite && deadline == 0) deadline = 1;
    int zero = !infinite && timeout_ns == 0;
    if (zero || !w->net) {
        if (weft_io_probe(w)) {
            if (w->result < 0) errno = w->err;
            return w->result;
        }
        if (zero) return 0;
    }
    if (!weft_sched_io_wait(w, deadline)) return 0;
    if (w->result < 0) errno = w->err;
    return w->result;
}

/* When not managed: nothing to watch and a finite timeout is a pure sleep in virtual time. */
static int pure_sleep(int nothing_to_watch, uint64_t timeout_ns, int infinite) {
    if (!nothing_to_watch || infinite || !weft_engaged()) return 0;
    weft_mono_advance(timeout_ns);
    return 1;
}

/* An unmanaged wait that involves simulated sockets: the virtual timeout is paced in real time
 * (docs/shim.md "Network"): wait at most weft_net_real_budget(timeout) for real, then jump the
 * clock by the whole timeout. These give the real budget and apply the jump. */
static struct timespec budget_ts(uint64_t timeout_ns) {
    uint64_t b = weft_net_real_budget(timeout_ns);
    return (struct timespec){(time_t)(b / 1000000000ULL), (long)(b % 1000000000ULL)};
}

static int budget_ms(uint64_t timeout_ns) {
    uint64_t b = weft_net_real_budget(timeout_ns);
    uint64_t ms = (b + 999999) / 1000000;   /* epoll_wait counts whole milliseconds */
    return ms > 0x7fffffff ? 0x7fffffff : (int)ms;
}

static int paced_result(int rc, uint64_t t0, uint64_t timeout_ns) {
    if (rc == 0) weft_mono_at_least(t0 + timeout_ns);
    return rc;
}

/* Every fd a net wait watches, as pollfd entries (for the scheduler's real wait when idle). */
int weft_io_wait_fds(const weft_io_wait *w, void *out, int cap) {
    struct pollfd *pf = out;
    int k = 0;
    if (w->kind == WEFT_IO_NET) {
        if (k < cap) pf[k++] = (struct pollfd){.fd = w->fd, .events = POLLIN};
    } else if (w->kind == WEFT_IO_POLL) {
        const struct pollfd *fds = w->fds;
        for (unsigned long i = 0; i < w->nfds && k < cap; i++)
            if (fds[i].fd >= 0) pf[k++] = (struct pollfd){.fd = fds[i].fd, .events = fds[i].events};
    } else if (w->kind == WEFT_IO_SELECT) {
        for (int fd = 0; fd < w->nsel && k < cap; fd++) {
            short ev = 0;
            if (w->rd && FD_ISSET(fd, (fd_set *)w->rd)) ev |= POLLIN;
            if (w->wr && FD_ISSET(fd, (fd_set *)w->wr)) ev |= POLLOUT;
            if (w->ex && FD_ISSET(fd, (fd_set *)w->ex)) ev |= POLLPRI;
            if (ev) pf[k++] = (struct pollfd){.fd = fd, .events = ev};
        }
    } else if (w->kind == WEFT_IO_EPOLL) {
        if (k < cap) pf[k++] = (struct pollfd){.fd = w->epfd, .events = POLLIN};
    }
    return k;
}

/* ------------------------------------------------------------------ poll / select / epoll */

static int probe_ready(void *w);

/* An unmanaged wait under process scheduling: a process wait (the rest of the tree runs until it is
 * ready), then the real call returns at once. With a finite timeout the wait is bounded: when the
 * tree is idle (a whole round of waiters without progress, weft_pt_block_bounded) the timeout
 * elapses in virtual time - the clock moves by it and the call reports a timeout - instead of
 * blocking for real while holding the run token. A zero timeout is a plain probe (the real call). */
#define NO_RESULT (-0x7fffffff)
static int signal_ready(void *mask);

/* What a process wait on w waits for: readiness, or (ppoll, pselect, epoll_pwait) a pending signal
 * the call's mask lets through - make's jobserver waits in pselect for SIGCHLD that way. */
struct pwait { weft_io_wait *w; const sigset_t *mask; };
static int pwait_ready(void *p) {
    struct pwait *pw = p;
    if (probe_ready(pw->w)) return 1;
    if (pw->mask && signal_ready((void *)pw->mask)) { pw->w->result = NO_RESULT; return 1; }
    return 0;
}

static int process_wait(weft_io_wait *w, uint64_t timeout_ns, int infinite, const sigset_t *mask) {
    if ((!infinite && timeout_ns == 0) || w->net || !weft_engaged() || !weft_pt_active()) return 0;
    /* the probe's own answer is the call's: a probe may consume edge-triggered epoll events */
    w->result = NO_RESULT;
    struct pwait pw = {w, mask};
    if (infinite) {
        weft_pt_block(pwait_ready, &pw);
    } else {
        uint64_t t0 = weft_mono_peek();
        if (!weft_pt_block_bounded(pwait_ready, &pw) && w->result == NO_RESULT && weft_pt_active()) {
            /* the tree is idle: the timeout elapses (select's sets are cleared, as Linux does) */
            weft_mono_at_least(t0 + timeout_ns);
            if (w->kind == WEFT_IO_SELECT) {
                if (w->rd) FD_ZERO((fd_set *)w->rd);
                if (w->wr) FD_ZERO((fd_set *)w->wr);
                if (w->ex) FD_ZERO((fd_set *)w->ex);
            }
            w->result = 0;
            return 1;
        }
    }
    /* no answer: a signal is due (the real call delivers it and fails with EINTR at once), or
     * process scheduling was given up meanwhile */
    if (w->result == NO_RESULT) return 0;
    if (w->result < 0) errno = w->err;
    return 1;
}

WEFT_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = fds, .nfds = n};
    w.net = weft_net_open && weft_engaged() && weft_net_prepare_poll(fds, n) > 0;
    if (w.net && !weft_sched_active() && timeout_ms > 0) {
        uint64_t t0 = weft_mono_peek(), t = (uint64_t)timeout_ms * MS;
        struct timespec b = budget_ts(t);
        return paced_result(get_real_ppoll()(fds, n, &b, NULL), t0, t);
    }
    if (weft_sched_active()) {
        WEFT_TRACE("poll", "%lu fds, %d ms", (unsigned long)n, timeout_ms);
        return model_wait(&w, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0);
    }
    if (pure_sleep(n == 0, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0)) return 0;
    if (process_wait(&w, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0, NULL)) return w.result;
    return get_real_poll()(fds, n, timeout_ms);
}

static uint64_t ts_ns(const struct timespec *t) {
    if (t->tv_sec < 0) return 0;
    return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

WEFT_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask) {
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = fds, .nfds = n};
    w.net = weft_net_open && weft_engaged() && weft_net_prepare_poll(fds, n) > 0;
    if (w.net && !weft_sched_active() && t && ts_ns(t) > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ts_ns(t));
        return paced_result(get_real_ppoll()(fds, n, &b, mask), t0, ts_ns(t));
    }
    if (weft_sched_active()) { /* the signal mask is not applied while waiting in the model */
        WEFT_TRACE("ppoll", "%lu fds", (unsigned long)n);
        return model_wait(&w, t ? ts_ns(t) : 0, t == NULL);
    }
    if (pure_sleep(n == 0, t ? ts_ns(t) : 0, t == NULL)) return 0;
    if (process_wait(&w, t ? ts_ns(t) : 0, t == NULL, mask)) return w.result;
    return get_real_ppoll()(fds, n, t, mask);
}

WEFT_EXPORT int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv) {
    uint64_t ns = tv ? (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000 : 0;
    weft_io_wait w = {.kind = WEFT_IO_SELECT, .nsel = nfds, .rd = rd, .wr = wr, .ex = ex};
    w.net = weft_net_open && weft_engaged() && weft_net_prepare_select(nfds, rd) > 0;
    if (w.net && !weft_sched_active() && tv && ns > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ns);
        int rc = paced_result(get_real_pselect()(nfds, rd, wr, ex, &b, NULL), t0, ns);
        if (rc == 0) { tv->tv_sec = 0; tv->tv_usec = 0; }
        return rc;
    }
    if (weft_sched_active()) {
        WEFT_TRACE("select", "%d", nfds);
        int rc = model_wait(&w, ns, tv == NULL);
        if (rc == 0) { /* Linux clears the sets and the remaining time on a timeout */
            if (rd) FD_ZERO(rd);
            if (wr) FD_ZERO(wr);
            if (ex) FD_ZERO(ex);
            if (tv) { tv->tv_sec = 0; tv->tv_usec = 0; }
        }
        return rc;
    }
    if (pure_sleep(nfds == 0, ns, tv == NULL)) {
        if (tv) { tv->tv_sec = 0; tv->tv_usec = 0; }
        return 0;
    }
    if (process_wait(&w, ns, tv == NULL, NULL)) {
        if (w.result == 0 && tv) { tv->tv_sec = 0; tv->tv_usec = 0; } /* Linux: no time left */
        return w.result;
    }
    return get_real_select()(nfds, rd, wr, ex, tv);
}

WEFT_EXPORT int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *t, const sigset_t *mask) {
    weft_io_wait w = {.kind = WEFT_IO_SELECT, .nsel = nfds, .rd = rd, .wr = wr, .ex = ex};
    w.net = weft_net_open && weft_engaged() && weft_net_prepare_select(nfds, rd) > 0;
    if (w.net && !weft_sched_active() && t && ts_ns(t) > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ts_ns(t));
        return paced_result(get_real_pselect()(nfds, rd, wr, ex, &b, mask), t0, ts_ns(t));
    }
    if (weft_sched_active()) {
        int rc = model_wait(&w, t ? ts_ns(t) : 0, t == NULL);
        if (rc == 0) {
            if (rd) FD_ZERO(rd);
            if (wr) FD_ZERO(wr);
            if (ex) FD_ZERO(ex);
        }
        return rc;
    }
    if (pure_sleep(nfds == 0, t ? ts_ns(t) : 0, t == NULL)) return 0;
    if (process_wait(&w, t ? ts_ns(t) : 0, t == NULL, mask)) return w.result;
    return get_real_pselect()(nfds, rd, wr, ex, t, mask);
}

WEFT_EXPORT int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout_ms) {
    int net = weft_net_open && weft_engaged() && weft_net_prepare_epoll(epfd) > 0;
    if (net && !weft_sched_active() && timeout_ms > 0) {
        uint64_t t0 = weft_mono_peek(), t = (uint64_t)timeout_ms * MS;
        return paced_result(get_real_epoll_wait()(epfd, ev, max, budget_ms(t)), t0, t);
    }
    if (weft_sched_active()) {
        weft_io_wait w = {.kind = WEFT_IO_EPOLL, .net = net, .epfd = epfd, .events = ev, .maxevents = max};
        WEFT_TRACE("epoll_wait", "%d, %d ms", epfd, timeout_ms);
        return model_wait(&w, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0);
    }
    weft_io_wait pw = {.kind = WEFT_IO_EPOLL, .net = net, .epfd = epfd, .events = ev, .maxevents = max};
    if (process_wait(&pw, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0, NULL)) return pw.result;
    return get_real_epoll_wait()(epfd, ev, max, timeout_ms);
}

WEFT_EXPORT int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout_ms, const sigset_t *mask) {
    int net = weft_net_open && weft_engaged() && weft_net_prepare_epoll(epfd) > 0;
    if (net && !weft_sched_active() && timeout_ms > 0) {
        uint64_t t0 = weft_mono_peek(), t = (uint64_t)timeout_ms * MS;
        return paced_result(get_real_epoll_pwait()(epfd, ev, max, budget_ms(t), mask), t0, t);
    }
    if (weft_sched_active()) {
        weft_io_wait w = {.kind = WEFT_IO_EPOLL, .net = net, .epfd = epfd, .events = ev, .maxevents = max};
        WEFT_TRACE("epoll_pwait", "%d, %d ms", epfd, timeout_ms);
        return model_wait(&w, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0);
    }
    weft_io_wait pw = {.kind = WEFT_IO_EPOLL, .net = net, .epfd = epfd, .events = ev, .maxevents = max};
    if (process_wait(&pw, (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS, timeout_ms < 0, mask)) return pw.result;
    return get_real_epoll_pwait()(epfd, ev, max, timeout_ms, mask);
}

/* ------------------------------------------------------------------ blocking reads */

/* Before a blocking read-like call by a managed thread: wait in the model until the fd is
 * readable, so the real call returns at once instead of wedging the token. */
static int probe_ready(void *w) { return weft_io_probe(w); }

void weft_io_before_read(int fd) {
    int managed = weft_sched_active();
    if (!managed && !(weft_engaged() && weft_pt_active())) return;
    long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
    if (fl < 0 || (fl & O_NONBLOCK)) return;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = &p, .nfds = 1};
    if (weft_io_probe(&w)) return;
    WEFT_TRACE("io_wait", "fd %d", fd);
    if (managed) weft_sched_io_wait(&w, 0);
    else weft_pt_block(probe_ready, &w); /* process scheduling: others run until it is readable */
}

WEFT_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n) {
    if (weft_net_is_fd(fd)) return weft_engaged() ? weft_net_readv(fd, iov, n) : weft_net_reentered();
    weft_io_before_read(fd);
    return get_real_readv()(fd, iov, n);
}
WEFT_EXPORT int accept(int fd, struct sockaddr *a, socklen_t *al) {
    weft_io_before_read(fd);
    return get_real_accept()(fd, a, al);
}
WEFT_EXPORT int accept4(int fd, struct sockaddr *a, socklen_t *al, int flags) {
    weft_io_before_read(fd);
    return get_real_accept4()(fd, a, al, flags);
}

/* ------------------------------------------------------------------ stdio reads (process scheduling) */

/*
 * stdio refills its buffer with glibc's internal read, past the read hook. Under process scheduling
 * a process that blocked there would hold the run token while the writer of its pipe waits for it,
 * so the entry points that may refill (the getc family's slow path __uflow/__underflow, which the
 * getc_unlocked macros call, and fgetc, getc, fgets, fread, getline, getdelim) first wait as a
 * process when the buffer is empty and the fd is not readable. A look at the FILE's public glibc
 * fields only; nothing else changes, and without process scheduling the hooks only pass through.
 */
static void stdio_before_read(FILE *fp) {
    fp = WEFT_OPAQUE(fp);
    if (!fp || !weft_pt_active() || !weft_engaged()) return;
    if (fp->_IO_read_ptr < fp->_IO_read_end || fp->_fileno < 0) return; /* buffered data, or not an fd */
    weft_io_before_read(fp->_fileno);
}

typedef int (*file_int_fn)(FILE *);
typedef char *(*fgets_fn)(char *, int, FILE *);
typedef size_t (*fread_fn)(void *, size_t, size_t, FILE *);
typedef ssize_t (*getdelim_fn)(char **, size_t *, int, FILE *);
typedef ssize_t (*getline_fn)(char **, size_t *, FILE *);
REAL_FN(file_int_fn, __uflow)
REAL_FN(file_int_fn, __underflow)
REAL_FN(file_int_fn, fgetc)
REAL_FN(file_int_fn, getc)
REAL_FN(file_int_fn, _IO_getc)
REAL_FN(fgets_fn, fgets)
REAL_FN(fread_fn, fread)
REAL_FN(getdelim_fn, getdelim)
REAL_FN(getdelim_fn, __getdelim)
REAL_FN(getline_fn, getline)

WEFT_EXPORT int __uflow(FILE *fp) { stdio_before_read(fp); return get_real___uflow()(fp); }
WEFT_EXPORT int __underflow(FILE *fp) { stdio_before_read(fp); return get_real___underflow()(fp); }
WEFT_EXPORT int fgetc(FILE *fp) { stdio_before_read(fp); return get_real_fgetc()(fp); }
WEFT_EXPORT int getc(FILE *fp) { stdio_before_read(fp); return get_real_getc()(fp); }
WEFT_EXPORT int _IO_getc(FILE *fp) { stdio_before_read(fp); return get_real__IO_getc()(fp); }
WEFT_EXPORT char *fgets(char *s, int n, FILE *fp) { stdio_before_read(fp); return get_real_fgets()(s, n, fp); }
WEFT_EXPORT size_t fread(void *p, size_t sz, size_t n, FILE *fp) {
    stdio_before_read(fp);
    return get_real_fread()(p, sz, n, fp);
}
WEFT_EXPORT ssize_t getdelim(char **l, size_t *n, int d, FILE *fp) {
    stdio_before_read(fp);
    return get_real_getdelim()(l, n, d, fp);
}
WEFT_EXPORT ssize_t __getdelim(char **l, size_t *n, int d, FILE *fp) {
    stdio_before_read(fp);
    return get_real___getdelim()(l, n, d, fp);
}
WEFT_EXPORT ssize_t getline(char **l, size_t *n, FILE *fp) {
    stdio_before_read(fp);
    return get_real_getline()(l, n, fp);
}

/* ------------------------------------------------------------------ waiting for children */

/* A blocking wait for a child by a managed thread: wait in the model until a child matching
 * (idtype, id) has a state change, then the real call returns at once. The child is another
 * process and needs no token, but the parent's other threads may be what it waits for. An
 * unmanaged thread under process scheduling waits the same way for the run token's turns
 * (weft_pt_block), so the children can run meanwhile. */
static void before_child_wait(idtype_t idtype, int id, int wflags) {
    if ((wflags & WNOHANG) || !weft_engaged() || !(weft_sched_active() || weft_pt_active())) return;
    weft_io_wait w = {.kind = WEFT_IO_CHILD, .idtype = (int)idtype, .id = id, .wflags = wflags};
    if (weft_io_probe(&w)) return;
    WEFT_TRACE("wait_child", "idtype %d id %d", (int)idtype, id);
    if (weft_sched_active()) weft_sched_io_wait(&w, 0);
    else weft_pt_block(probe_ready, &w);
}

/* waitpid/wait4 options -> waitid flags (WUNTRACED is WSTOPPED; the __W* flags carry over) */
static int waitid_flags(int options) {
    int f = WEXITED | (options & (WNOHANG | WCONTINUED | __WALL | __WCLONE | __WNOTHREAD));
    if (options & WUNTRACED) f |= WSTOPPED;
    return f;
}

static void before_pid_wait(pid_t pid, int options) {
    if (pid < -1) before_child_wait(P_PGID, -pid, waitid_flags(options));
    else if (pid == -1) before_child_wait(P_ALL, 0, waitid_flags(options));
    else if (pid == 0) before_child_wait(P_PGID, 0, waitid_flags(options)); /* own group (Linux >= 5.4) */
    else before_child_wait(P_PID, pid, waitid_flags(options));
}

/* After a wait that returned pid r with status st: a child that ended was reaped, so the parent's
 * clock learns the child's (proc_sched.c). Stopped/continued children are not reaped. */
static void after_pid_wait(pid_t r, int st) {
    if (r > 0 && (WIFEXITED(st) || WIFSIGNALED(st)) && weft_engaged()) weft_pt_reaped(r);
}

WEFT_EXPORT pid_t waitpid(pid_t pid, int *status, int options) {
    before_pid_wait(pid, options);
    int st = 0;
    pid_t r = get_real_waitpid()(pid, &st, options);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT pid_t wait(int *status) {
    before_pid_wait(-1, 0);
    int st = 0;
    pid_t r = get_real_wait()(&st);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    before_pid_wait(pid, options);
    int st = 0;
    pid_t r = get_real_wait4()(pid, &st, options, ru);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
/* wait3: dash reaps its children with it (glibc's calls wait4 internally, past our hook) */
WEFT_EXPORT pid_t wait3(int *status, int options, struct rusage *ru) {
    before_pid_wait(-1, options);
    int st = 0;
    pid_t r = get_real_wait3()(&st, options, ru);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    before_child_wait(idtype, (int)id, options);
    int rc = get_real_waitid()(idtype, id, info, options);
    info = WEFT_OPAQUE(info);
    if (rc == 0 && info && info->si_pid > 0 && !(options & WNOWAIT) &&
        (info->si_code == CLD_EXITED || info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED) && weft_engaged())
        weft_pt_reaped(info->si_pid);
    return rc;
}

/* ------------------------------------------------------------------ waiting for signals */

typedef int (*sigsuspend_fn)(const sigset_t *);
REAL_FN(sigsuspend_fn, sigsuspend)

/* Ready when a signal the suspend mask lets through is pending. Programs block the signal (a
 * child's SIGCHLD) before they call sigsuspend, so it waits in the pending set until then. */
static int signal_ready(void *mask) {
    uint64_t pending = 0, m;
    memcpy(&m, mask, sizeof m);
    if (weft_real_syscall(SYS_rt_sigpending, &pending, 8, 0, 0, 0, 0) != 0) return 1;
    return (pending & ~m) != 0;
}

/* sigsuspend: dash's `wait` and coreutils' timeout wait for SIGCHLD this way. Under process
 * scheduling, a process-level wait (the children run meanwhile), then the real call, which
 * returns at once with the pending signal. */
WEFT_EXPORT int sigsuspend(const sigset_t *mask) {
    mask = WEFT_OPAQUE(mask);
    if (mask && weft_engaged() && weft_pt_active()) {
        WEFT_TRACE("sigsuspend", "%s", "as a process wait");
        weft_pt_block(signal_ready, (void *)mask);
    }
    return get_real_sigsuspend()(mask);
}

/* ------------------------------------------------------------------ syscall(2) */

static uint64_t futex_deadline(int op, const struct timespec *t) {
    if (!t) return 0;
    uint64_t ns = ts_ns(t);
    int cmd = op & FUTEX_CMD_MASK;
    if (cmd == FUTEX_WAIT) return weft_mono_peek() + ns + 1;   /* relative, monotonic */
    if (op & FUTEX_CLOCK_REALTIME) ns = ns > weft_cfg.real_base_ns ? ns - weft_cfg.real_base_ns : 0;
    return ns ? ns : 1;                                        /* absolute (WAIT_BITSET) */
}

WEFT_EXPORT long syscall(long n, ...) {
    va_list ap;
    va_start(ap, n);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    if (n == SYS_getrandom && weft_engaged()) return getrandom((void *)a, (size_t)b, (unsigned)c);
    /* the clock and sleeps through syscall(): answered by our own hooks of the libc functions, whose
     * results and errors (-1 and errno) have the same shape as syscall()'s */
    if (weft_engaged()) {
        switch (n) {
        case SYS_clock_gettime: return clock_gettime((clockid_t)a, (struct timespec *)b);
        case SYS_clock_getres: return clock_getres((clockid_t)a, (struct timespec *)b);
        case SYS_gettimeofday: return gettimeofday((struct timeval *)a, (void *)b);
        case SYS_time: return (long)time((time_t *)a);
        case SYS_getcpu: return getcpu((unsigned *)a, (unsigned *)b); /* CPU 0 (hook_procfs.c) */
        case SYS_times: return (long)times((struct tms *)a);  /* CPU time (hook_proc.c) */
        case SYS_getrusage: return getrusage((int)a, (struct rusage *)b);
        case SYS_nanosleep: return nanosleep((const struct timespec *)a, (struct timespec *)b);
        case SYS_clock_nanosleep: {
            int rc = clock_nanosleep((clockid_t)a, (int)b, (const struct timespec *)c, (struct timespec *)d);
            if (rc) { errno = rc; return -1; }
            return 0;
        }
        default: break;
        }
    }
    if (n == SYS_futex && weft_sched_active()) {
        int cmd = (int)b & FUTEX_CMD_MASK;
        if (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) {
            int rc = weft_sched_futex_wait((const atomic_int *)a, (int)c,
                                           futex_deadline((int)b, (const struct timespec *)d));
            if (rc) { errno = rc; return -1; }
            return 0;
        }
        if (cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET) {
            int want = (int)c;
            int woken = weft_sched_futex_wake((const void *)a, want);
            /* waiters the model does not know (unmanaged threads) get the rest of the wake */
            if (woken < want) {
                long r = get_real_syscall()(n, a, b, (long)(want - woken), d, e, f);
                if (r > 0) woken += (int)r;
            }
            return woken;
        }
    }
    long r = get_real_syscall()(n, a, b, c, d, e, f);
    if (n == SYS_newfstatat || n == SYS_stat || n == SYS_lstat || n == SYS_fstat || n == SYS_statx)
        weft_stat_fix_syscall(n, r, a, b, c, d, e); /* file times are virtual (hook_stat.c) */
    return r;
}
