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
 *   - blocking waits for children (waitpid, wait, wait3, wait4, waitid): the same, probed with
 *     waitid(WNOHANG | WNOWAIT) - in hook_wait.c;
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
#include <stdlib.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <wchar.h>
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

/* A process of a cluster node (WEFT_BROKER, no process scheduling there): every timed wait is paced,
 * even one that watches no simulated socket (an asyncio client between connect retries waits on its
 * self-pipe only): its timeout elapses in virtual time once the real budget is spent, instead of the
 * clock standing still while real time passes. */
static int net_node(void) { return weft_cfg.net && weft_engaged(); }

/* An unmanaged windowed wait with armed TCP sockets: no real-time budget, the broker ends it at its
 * virtual deadline (a Ready with nothing: tcp_settled) so the wait's end is a function of the seed. */
static int windowed_tcp(int tcp) { return tcp && weft_cfg.window_ns && !weft_sched_active(); }

/* Such a wait goes in slices of 1 ms of real time; between them the node's idle wait is declared
 * again if every process of the node waits and none holds it (hook_tcp.c, weft_tcp_redeclare_idle). */
static const struct timespec WINDOWED_SLICE = {0, 1000000};

static int windowed_ppoll(struct pollfd *fds, nfds_t n, const sigset_t *mask) {
    for (;;) {
        int rc = get_real_ppoll()(fds, n, &WINDOWED_SLICE, mask);
        if (rc != 0) return rc;
        weft_tcp_redeclare_idle();
    }
}

static int windowed_pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const sigset_t *mask) {
    fd_set r0, w0, x0;
    if (rd) r0 = *rd;
    if (wr) w0 = *wr;
    if (ex) x0 = *ex;
    for (;;) {
        int rc = get_real_pselect()(nfds, rd, wr, ex, &WINDOWED_SLICE, mask);
        if (rc != 0) return rc;
        weft_tcp_redeclare_idle();
        if (rd) *rd = r0;
        if (wr) *wr = w0;
        if (ex) *ex = x0;
    }
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
        if (!weft_pt_block_bounded(pwait_ready, &pw, t0 + timeout_ns) && w->result == NO_RESULT && weft_pt_active()) {
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

/* A wait with a virtual timer of this process armed (timer_wait.c): cut at each expiry, where a
 * handler ends it with EINTR (poll, select and epoll are never restarted) and a timerfd may make it
 * ready. 1: the call's answer is known (*rc, errno); 0: no timer expires within it, the usual wait
 * goes on for what is left (*timeout_ns). Net waits keep their own paths (hook_net.c, hook_tcp.c). */
static int timer_cut(weft_io_wait *w, uint64_t *timeout_ns, int infinite, const sigset_t *mask, int *rc) {
    if (!weft_timer_next_fd() || w->net || !weft_engaged() || (!infinite && *timeout_ns == 0)) return 0;
    uint64_t deadline = infinite ? 0 : weft_mono_peek() + *timeout_ns;
    w->result = NO_RESULT;
    struct pwait pw = {w, mask};
    int g = weft_timer_wait(pwait_ready, &pw, deadline, 0);
    if (!infinite) {
        uint64_t now = weft_mono_peek();
        *timeout_ns = deadline > now ? deadline - now : 0;
    }
    if (g == WEFT_TW_EINTR) { errno = EINTR; *rc = -1; return 1; }
    if (g == WEFT_TW_READY && w->result != NO_RESULT) {
        if (w->result < 0) errno = w->err;
        *rc = w->result;
        return 1;
    }
    return 0;
}

static int ms_of(uint64_t ns) { uint64_t ms = (ns + MS - 1) / MS; return ms > 0x7fffffff ? 0x7fffffff : (int)ms; }

/*
 * A poll of a cluster node (simulated sockets, paced waits) with a signal timer expiring within it
 * (issue 29): the piece before the expiry is one paced wait, then the timer fires; a handler ends the
 * call with EINTR (poll is never restarted), otherwise the wait goes on. 1: the call's answer is *rc;
 * 0: no timer is left within the wait, whose timeout (*timeout_ms) is then what is left.
 */
static int net_poll_timer_cut(struct pollfd *fds, nfds_t n, int *timeout_ms, int *rc) {
    uint64_t end = *timeout_ms > 0 ? weft_mono_peek() + (uint64_t)*timeout_ms * MS : 0;
    uint64_t cut = weft_timer_net_cut(end);
    if (!cut) return 0;
    for (; cut; cut = weft_timer_net_cut(end)) {
        uint64_t now = weft_mono_peek();
        if (cut > now) {
            struct timespec b = budget_ts(cut - now);
            *rc = paced_result(get_real_ppoll()(fds, n, &b, NULL), now, cut - now);
            if (*rc != 0) return 1;
        }
        if (weft_timer_net_fired(cut, 0)) { errno = EINTR; *rc = -1; return 1; }
    }
    if (end) {
        uint64_t now = weft_mono_peek();
        if (now >= end) { *rc = 0; return 1; }
        *timeout_ms = ms_of(end - now);
    }
    return 0;
}

static int poll_body(struct pollfd *fds, nfds_t n, int timeout_ms, int tcp) {
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = fds, .nfds = n};
    w.net = (weft_net_open && weft_engaged() && weft_net_prepare_poll_for(fds, n, timeout_ms < 0) > 0) || tcp;
    if (windowed_tcp(tcp) && timeout_ms != 0) return windowed_ppoll(fds, n, NULL);
    int cut_rc;
    if (w.net && !tcp && !weft_sched_active() && timeout_ms != 0 &&
        net_poll_timer_cut(fds, n, &timeout_ms, &cut_rc))
        return cut_rc;
    if ((w.net || net_node()) && !weft_sched_active() && timeout_ms > 0) {
        uint64_t t0 = weft_mono_peek(), t = (uint64_t)timeout_ms * MS;
        struct timespec b = budget_ts(t);
        return paced_result(get_real_ppoll()(fds, n, &b, NULL), t0, t);
    }
    uint64_t t_ns = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    int rc;
    if (timer_cut(&w, &t_ns, timeout_ms < 0, NULL, &rc)) return rc;
    if (timeout_ms > 0) timeout_ms = ms_of(t_ns);
    if (weft_sched_active()) {
        WEFT_TRACE("poll", "%lu fds, %d ms", (unsigned long)n, timeout_ms);
        return model_wait(&w, t_ns, timeout_ms < 0);
    }
    if (pure_sleep(n == 0, t_ns, timeout_ms < 0)) return 0;
    if (process_wait(&w, t_ns, timeout_ms < 0, NULL)) return w.result;
    return get_real_poll()(fds, n, timeout_ms);
}

static uint64_t ts_ns(const struct timespec *t) {
    if (t->tv_sec < 0) return 0;
    return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

static int ppoll_body(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *mask, int tcp) {
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = fds, .nfds = n};
    w.net = (weft_net_open && weft_engaged() && weft_net_prepare_poll_for(fds, n, t == NULL) > 0) || tcp;
    if (windowed_tcp(tcp) && !(t && ts_ns(t) == 0)) return windowed_ppoll(fds, n, mask);
    if ((w.net || net_node()) && !weft_sched_active() && t && ts_ns(t) > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ts_ns(t));
        return paced_result(get_real_ppoll()(fds, n, &b, mask), t0, ts_ns(t));
    }
    uint64_t t_ns = t ? ts_ns(t) : 0, t_ns0 = t_ns;
    int rc;
    if (timer_cut(&w, &t_ns, t == NULL, mask, &rc)) return rc;
    struct timespec left = {(time_t)(t_ns / 1000000000ULL), (long)(t_ns % 1000000000ULL)};
    if (t && t_ns != t_ns0) t = &left; /* timers fired: what is left (else the caller's own, as given) */
    if (weft_sched_active()) { /* the signal mask is not applied while waiting in the model */
        WEFT_TRACE("ppoll", "%lu fds", (unsigned long)n);
        return model_wait(&w, t_ns, t == NULL);
    }
    if (pure_sleep(n == 0, t_ns, t == NULL)) return 0;
    if (process_wait(&w, t_ns, t == NULL, mask)) return w.result;
    return get_real_ppoll()(fds, n, t, mask);
}

static int select_body(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv, int tcp) {
    uint64_t ns = tv ? (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000 : 0;
    weft_io_wait w = {.kind = WEFT_IO_SELECT, .nsel = nfds, .rd = rd, .wr = wr, .ex = ex};
    w.net = (weft_net_open && weft_engaged() && weft_net_prepare_select_for(nfds, rd, wr, ex, tv == NULL) > 0) || tcp;
    if (windowed_tcp(tcp) && !(tv && ns == 0)) return windowed_pselect(nfds, rd, wr, ex, NULL);
    if ((w.net || net_node()) && !weft_sched_active() && tv && ns > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ns);
        int rc = paced_result(get_real_pselect()(nfds, rd, wr, ex, &b, NULL), t0, ns);
        if (rc == 0) { tv->tv_sec = 0; tv->tv_usec = 0; }
        return rc;
    }
    int rc0;
    uint64_t ns0 = ns;
    if (timer_cut(&w, &ns, tv == NULL, NULL, &rc0)) return rc0;
    if (tv && ns != ns0) { tv->tv_sec = (time_t)(ns / 1000000000ULL); tv->tv_usec = (suseconds_t)(ns % 1000000000ULL / 1000); }
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

static int pselect_body(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *t, const sigset_t *mask,
                        int tcp) {
    weft_io_wait w = {.kind = WEFT_IO_SELECT, .nsel = nfds, .rd = rd, .wr = wr, .ex = ex};
    w.net = (weft_net_open && weft_engaged() && weft_net_prepare_select_for(nfds, rd, wr, ex, t == NULL) > 0) || tcp;
    if (windowed_tcp(tcp) && !(t && ts_ns(t) == 0)) return windowed_pselect(nfds, rd, wr, ex, mask);
    if ((w.net || net_node()) && !weft_sched_active() && t && ts_ns(t) > 0) {
        uint64_t t0 = weft_mono_peek();
        struct timespec b = budget_ts(ts_ns(t));
        return paced_result(get_real_pselect()(nfds, rd, wr, ex, &b, mask), t0, ts_ns(t));
    }
    uint64_t t_ns = t ? ts_ns(t) : 0, t_ns0 = t_ns;
    int rc0;
    if (timer_cut(&w, &t_ns, t == NULL, mask, &rc0)) return rc0;
    struct timespec left = {(time_t)(t_ns / 1000000000ULL), (long)(t_ns % 1000000000ULL)};
    if (t && t_ns != t_ns0) t = &left;
    if (weft_sched_active()) {
        int rc = model_wait(&w, t_ns, t == NULL);
        if (rc == 0) {
            if (rd) FD_ZERO(rd);
            if (wr) FD_ZERO(wr);
            if (ex) FD_ZERO(ex);
        }
        return rc;
    }
    if (pure_sleep(nfds == 0, t_ns, t == NULL)) return 0;
    if (process_wait(&w, t_ns, t == NULL, mask)) return w.result;
    return get_real_pselect()(nfds, rd, wr, ex, t, mask);
}

/* epoll_wait is epoll_pwait without a mask: one body for both, only the real call differs. */
static int real_epoll(int epfd, struct epoll_event *ev, int max, int ms, const sigset_t *mask, int masked) {
    return masked ? get_real_epoll_pwait()(epfd, ev, max, ms, mask) : get_real_epoll_wait()(epfd, ev, max, ms);
}

static int epoll_body(const char *name, int epfd, struct epoll_event *ev, int max, int timeout_ms,
                      const sigset_t *mask, int masked, int tcp) {
    int net = (weft_net_open && weft_engaged() && weft_net_prepare_epoll(epfd) > 0) || tcp;
    uint64_t t = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    while (windowed_tcp(tcp) && timeout_ms != 0) {
        int rc = real_epoll(epfd, ev, max, 1, mask, masked);
        if (rc != 0) return rc;
        weft_tcp_redeclare_idle();
    }
    if ((net || net_node()) && !weft_sched_active() && timeout_ms > 0) {
        uint64_t t0 = weft_mono_peek();
        return paced_result(real_epoll(epfd, ev, max, budget_ms(t), mask, masked), t0, t);
    }
    weft_io_wait w = {.kind = WEFT_IO_EPOLL, .net = net, .epfd = epfd, .events = ev, .maxevents = max};
    int rc;
    if (timer_cut(&w, &t, timeout_ms < 0, masked ? mask : NULL, &rc)) return rc;
    if (timeout_ms > 0) timeout_ms = ms_of(t);
    if (weft_sched_active()) {
        WEFT_TRACE(name, "%d, %d ms", epfd, timeout_ms);
        return model_wait(&w, t, timeout_ms < 0);
    }
    if (process_wait(&w, t, timeout_ms < 0, mask)) return w.result;
    return real_epoll(epfd, ev, max, timeout_ms, mask, masked);
}

/*
 * Simulated TCP sockets in a wait (hook_tcp.c): before it, each is armed (a TcpWait whose Ready
 * makes its broker stream readable) and the kernel is asked to watch the stream for POLLIN; after
 * it, the Ready's revents replace the stream's. A zero timeout asks the broker at once instead.
 * When only TCP sockets woke the wait and none had what was asked, a wait without a timeout goes
 * on; a finite one has reached its virtual deadline. Waits on more fds than TCP_WAIT_MAX leave TCP
 * sockets to the kernel's view of their streams.
 */
#define TCP_WAIT_MAX 1024

static int tcp_watching(void) { return atomic_load_explicit(&weft_tcp_open, memory_order_relaxed) > 0 && weft_engaged(); }

static uint64_t wait_deadline(uint64_t t0, uint64_t timeout_ns, int infinite) {
    return infinite ? 0 : (t0 + timeout_ns ? t0 + timeout_ns : 1);
}

/* The TCP part of a wait's result: rc after the fix, or NO_RESULT to wait again. */
static int tcp_settled(int rc_kernel, int rc, uint64_t t0, uint64_t timeout_ns, int infinite) {
    if (rc != 0 || rc_kernel <= 0) return rc;
    if (infinite) return NO_RESULT;
    /* windowed: a Ready with nothing before the deadline (another thread's deadline folded into the
     * node's idle wait, hook_tcp.c arm) only woke the process: wait again */
    if (weft_cfg.window_ns && weft_mono_peek() < t0 + timeout_ns) return NO_RESULT;
    weft_mono_at_least(t0 + timeout_ns);  /* woken by a Ready at the deadline */
    return 0;
}

/*
 * Windowed runs: a TcpWait the broker holds says "this node is blocked at its clock", so the broker
 * may seal windows past that clock. An ordinary fd of the same wait that is ready already ends the
 * wait at once, and the TcpWait would be taken back (TcpUnwait) at a clock the broker has sealed: a
 * late op that discards the run (nc polls its socket with stdin at EOF). Such a wait asks its
 * simulated sockets at once instead, as a zero timeout does. "Ordinary": neither a simulated TCP
 * nor UDP socket. One zero-timeout system call on the ordinary fds only; nothing is allocated.
 */
static int simulated_fd(int fd) { return weft_tcp_is_fd(fd) || weft_net_is_fd(fd); }

static int others_ready_poll(struct pollfd *fds, nfds_t n) {
    if (!weft_cfg.window_ns) return 0;
    unsigned char hidden[TCP_WAIT_MAX / 8] = {0};  /* entries set aside (fd made negative) for the probe */
    for (nfds_t i = 0; i < n; i++)
        if (fds[i].fd >= 0 && simulated_fd(fds[i].fd)) {
            hidden[i / 8] |= (unsigned char)(1u << (i % 8));
            fds[i].fd = -fds[i].fd - 1;
        }
    long rc = weft_real_syscall(SYS_poll, fds, n, 0, 0, 0, 0);
    for (nfds_t i = 0; i < n; i++)
        if (hidden[i / 8] & (1u << (i % 8))) fds[i].fd = -fds[i].fd - 1;
    return rc > 0;
}

static int others_ready_select(int nfds, const fd_set *rd, const fd_set *wr, const fd_set *ex) {
    if (!weft_cfg.window_ns) return 0;
    fd_set r, w, e;
    FD_ZERO(&r); FD_ZERO(&w); FD_ZERO(&e);
    int any = 0;
    for (int fd = 0; fd < nfds; fd++) {
        if (!(rd && FD_ISSET(fd, rd)) && !(wr && FD_ISSET(fd, wr)) && !(ex && FD_ISSET(fd, ex))) continue;
        if (simulated_fd(fd)) continue;
        if (rd && FD_ISSET(fd, rd)) FD_SET(fd, &r);
        if (wr && FD_ISSET(fd, wr)) FD_SET(fd, &w);
        if (ex && FD_ISSET(fd, ex)) FD_SET(fd, &e);
        any = 1;
    }
    struct timespec zero = {0, 0};
    return any && weft_real_syscall(SYS_pselect6, nfds, &r, &w, &e, &zero, 0) > 0;
}

/* An epoll set: its fd is readable when a member is ready (the simulated sockets' streams are not:
 * in windowed runs no TcpWait is outstanding between waits). */
static int others_ready_epoll(int epfd) {
    if (!weft_cfg.window_ns) return 0;
    struct pollfd p = {.fd = epfd, .events = POLLIN};
    return weft_real_syscall(SYS_poll, &p, 1, 0, 0, 0, 0) > 0;
}

static int poll_any(struct pollfd *fds, nfds_t n, int timeout_ms) {
    if (!tcp_watching() || n > TCP_WAIT_MAX || !WEFT_OPAQUE(fds)) return poll_body(fds, n, timeout_ms, 0);
    uint32_t saved[TCP_WAIT_MAX];
    uint64_t t0 = weft_mono_peek(), t = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    for (;;) {
        int now = timeout_ms == 0 || others_ready_poll(fds, n);
        int tcp = weft_tcp_poll_begin(fds, n, saved, wait_deadline(t0, t, timeout_ms < 0), now);
        if (!tcp) return poll_body(fds, n, timeout_ms, 0);
        int k = poll_body(fds, n, now ? 0 : timeout_ms, 1);
        int r = weft_tcp_poll_end(fds, n, saved, k);
        if (now && timeout_ms != 0 && r == 0) continue;  /* the ready fd was taken meanwhile: wait */
        int rc = tcp_settled(k, r, t0, t, timeout_ms < 0);
        if (rc != NO_RESULT) return rc;
    }
}

static int ppoll_any(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask) {
    if (!tcp_watching() || n > TCP_WAIT_MAX || !WEFT_OPAQUE(fds)) return ppoll_body(fds, n, ts, mask, 0);
    uint32_t saved[TCP_WAIT_MAX];
    uint64_t t0 = weft_mono_peek(), t = ts ? ts_ns(ts) : 0;
    const struct timespec zero = {0, 0};
    for (;;) {
        int at_once = ts && t == 0, now = at_once || others_ready_poll(fds, n);
        int tcp = weft_tcp_poll_begin(fds, n, saved, wait_deadline(t0, t, ts == NULL), now);
        if (!tcp) return ppoll_body(fds, n, ts, mask, 0);
        int k = ppoll_body(fds, n, now ? &zero : ts, mask, 1);
        int r = weft_tcp_poll_end(fds, n, saved, k);
        if (now && !at_once && r == 0) continue;  /* the ready fd was taken meanwhile: wait */
        int rc = tcp_settled(k, r, t0, t, ts == NULL);
        if (rc != NO_RESULT) return rc;
    }
}

/* select's sets are rewritten for the wait; a wait for writing only still needs a read set to
 * watch the streams in (a local one), and copies to start again from when it goes on. */
static int select_any(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, uint64_t t, int infinite,
                      struct timeval *tv, const struct timespec *ts, const sigset_t *mask, int is_pselect) {
    uint32_t saved[TCP_WAIT_MAX];
    fd_set local_rd, rd0, wr0, ex0;
    if (!rd) { FD_ZERO(&local_rd); rd = &local_rd; }
    rd0 = *rd;
    if (wr) wr0 = *wr;
    if (ex) ex0 = *ex;
    uint64_t t0 = weft_mono_peek();
    struct timeval zero_tv = {0, 0};
    const struct timespec zero_ts = {0, 0};
    for (;;) {
        int at_once = !infinite && t == 0, now = at_once || others_ready_select(nfds, rd, wr, ex);
        int tcp = weft_tcp_select_begin(nfds, rd, wr, ex, saved, wait_deadline(t0, t, infinite), now);
        int k = is_pselect ? pselect_body(nfds, rd, wr, ex, now && tcp ? &zero_ts : ts, mask, tcp > 0)
                           : select_body(nfds, rd, wr, ex, now && tcp ? &zero_tv : tv, tcp > 0);
        if (!tcp) return k;
        int r = weft_tcp_select_end(nfds, rd, wr, ex, saved, k);
        int rc = now && !at_once && r == 0 ? NO_RESULT  /* the ready fd was taken meanwhile: wait */
                                           : tcp_settled(k, r, t0, t, infinite);
        if (rc != NO_RESULT) return rc;
        *rd = rd0;
        if (wr) *wr = wr0;
        if (ex) *ex = ex0;
    }
}

static int select_entry(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv) {
    if (!tcp_watching() || nfds > TCP_WAIT_MAX) return select_body(nfds, rd, wr, ex, tv, 0);
    uint64_t ns = tv ? (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000 : 0;
    return select_any(nfds, rd, wr, ex, ns, tv == NULL, tv, NULL, NULL, 0);
}

static int pselect_entry(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *t, const sigset_t *mask) {
    if (!tcp_watching() || nfds > TCP_WAIT_MAX) return pselect_body(nfds, rd, wr, ex, t, mask, 0);
    return select_any(nfds, rd, wr, ex, t ? ts_ns(t) : 0, t == NULL, NULL, t, mask, 1);
}

static int epoll_any(const char *name, int epfd, struct epoll_event *ev, int max, int timeout_ms,
                     const sigset_t *mask, int masked) {
    if (!tcp_watching() || !WEFT_OPAQUE(ev) || max <= 0) return epoll_body(name, epfd, ev, max, timeout_ms, mask, masked, 0);
    uint64_t t0 = weft_mono_peek(), t = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    for (;;) {
        int now = timeout_ms == 0 || others_ready_epoll(epfd);
        int tcp = weft_tcp_epoll_begin(epfd, wait_deadline(t0, t, timeout_ms < 0), now);
        if (!tcp) return epoll_body(name, epfd, ev, max, timeout_ms, mask, masked, 0);
        int k = epoll_body(name, epfd, ev, max, now ? 0 : timeout_ms, mask, masked, 1);
        int r = weft_tcp_epoll_end(epfd, ev, max, k, now);
        if (now && timeout_ms != 0 && r == 0) continue;  /* the ready fd was taken meanwhile: wait */
        int rc = tcp_settled(k, r, t0, t, timeout_ms < 0);
        if (rc != NO_RESULT) return rc;
    }
}

/*
 * A cluster node's wait with a signal timer armed (issue 29): poll, ppoll, select, pselect,
 * epoll_wait and epoll_pwait, whatever they watch (simulated UDP or TCP sockets, ordinary fds). The
 * wait goes in pieces that end at each expiry: a piece is the same call with a shorter virtual
 * timeout, so the pacing (plain runs), the broker (windowed runs: a timed lease or TcpWait deadline)
 * or the thread model ends it at the expiry exactly as it ends any timed wait on simulated sockets.
 * There the timer fires; a handler that ran makes the call fail with EINTR (Linux never restarts
 * these calls, signal(7)), otherwise the next piece waits on. ppoll, pselect and epoll_pwait hold
 * their signal mask for the whole call, as the kernel does: a signal it blocks stays pending and its
 * handler runs as the call returns (when the mask is put back). Nothing is allocated; the pieces go
 * through the same hooks below, so the call is as reentrant as they are.
 */
struct net_call {
    int kind;                       /* WEFT_IO_POLL, WEFT_IO_SELECT, WEFT_IO_EPOLL */
    const char *name;
    struct pollfd *fds; nfds_t n;                     /* poll, ppoll */
    int nfds; fd_set *rd, *wr, *ex; fd_set rd0, wr0, ex0;   /* select, pselect: the sets as given */
    int epfd; struct epoll_event *ev; int max; int masked;  /* epoll_wait, epoll_pwait */
    const sigset_t *mask;
};

static int timers_cut_net_wait(int infinite, uint64_t timeout_ns) {
    return net_node() && (infinite || timeout_ns > 0) && weft_timer_next() != 0;
}

/* One piece: the call with this virtual timeout (NULL: none). */
static int net_piece(struct net_call *c, const uint64_t *ns) {
    struct timespec ts;
    if (ns) ts = (struct timespec){(time_t)(*ns / 1000000000ULL), (long)(*ns % 1000000000ULL)};
    if (c->kind == WEFT_IO_POLL) return ppoll_any(c->fds, c->n, ns ? &ts : NULL, c->mask);
    if (c->kind == WEFT_IO_SELECT) {
        if (c->rd) *c->rd = c->rd0;
        if (c->wr) *c->wr = c->wr0;
        if (c->ex) *c->ex = c->ex0;
        return pselect_entry(c->nfds, c->rd, c->wr, c->ex, ns ? &ts : NULL, c->mask);
    }
    /* epoll counts whole milliseconds: a piece ends at most 1 ms short of its expiry, where the clock
     * is then moved (weft_timer_net_fired) */
    uint64_t ms = ns ? *ns / MS : 0;
    return epoll_any(c->name, c->epfd, c->ev, c->max, ns ? (ms > 0x7fffffff ? 0x7fffffff : (int)ms) : -1, c->mask,
                     c->masked);
}

/* The call in pieces (see above); *left: the virtual time left of a finite timeout at the return. */
static int net_wait_in_pieces(struct net_call *c, int infinite, uint64_t timeout_ns, uint64_t *left) {
    uint64_t t0 = weft_mono_peek(), end = infinite ? 0 : t0 + timeout_ns;
    uint64_t held = 0;
    if (c->mask) weft_real_syscall(SYS_rt_sigprocmask, SIG_SETMASK, c->mask, &held, 8, 0, 0);
    int rc;
    for (;;) {
        uint64_t now = weft_mono_peek(), cut = weft_timer_net_cut(end);
        if (!cut) {
            uint64_t rest = end > now ? end - now : 0;
            rc = net_piece(c, infinite ? NULL : &rest);
            break;
        }
        if (cut > now) {
            uint64_t piece = cut - now;
            rc = net_piece(c, &piece);
            if (rc != 0) break;
        }
        WEFT_TRACE(c->name, "cut by a timer at %lu", (unsigned long)cut);
        if (weft_timer_net_fired(cut, 0)) {
            if (c->kind == WEFT_IO_SELECT) {   /* Linux leaves the sets as given when it fails */
                if (c->rd) *c->rd = c->rd0;
                if (c->wr) *c->wr = c->wr0;
                if (c->ex) *c->ex = c->ex0;
            }
            errno = EINTR;
            rc = -1;
            break;
        }
    }
    int e = errno;
    if (c->mask) weft_real_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &held, NULL, 8, 0, 0);
    errno = e;
    if (left) {
        uint64_t now = weft_mono_peek();
        *left = end > now ? end - now : 0;
    }
    return rc;
}

static void select_sets(struct net_call *c, int nfds, fd_set *rd, fd_set *wr, fd_set *ex) {
    c->nfds = nfds; c->rd = rd; c->wr = wr; c->ex = ex;
    if (rd) c->rd0 = *rd;
    if (wr) c->wr0 = *wr;
    if (ex) c->ex0 = *ex;
}

WEFT_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    uint64_t ns = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    if (!timers_cut_net_wait(timeout_ms < 0, ns)) return poll_any(fds, n, timeout_ms);
    struct net_call c = {.kind = WEFT_IO_POLL, .name = "poll", .fds = fds, .n = n};
    return net_wait_in_pieces(&c, timeout_ms < 0, ns, NULL);
}

WEFT_EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *ts, const sigset_t *mask) {
    uint64_t ns = ts ? ts_ns(ts) : 0;
    if (!timers_cut_net_wait(ts == NULL, ns)) return ppoll_any(fds, n, ts, mask);
    struct net_call c = {.kind = WEFT_IO_POLL, .name = "ppoll", .fds = fds, .n = n, .mask = mask};
    return net_wait_in_pieces(&c, ts == NULL, ns, NULL);
}

WEFT_EXPORT int select(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, struct timeval *tv) {
    uint64_t ns = tv ? (uint64_t)tv->tv_sec * 1000000000ULL + (uint64_t)tv->tv_usec * 1000 : 0;
    if (!timers_cut_net_wait(tv == NULL, ns) || nfds < 0 || nfds > FD_SETSIZE) return select_entry(nfds, rd, wr, ex, tv);
    struct net_call c = {.kind = WEFT_IO_SELECT, .name = "select"};
    select_sets(&c, nfds, rd, wr, ex);
    uint64_t left = 0;
    int rc = net_wait_in_pieces(&c, tv == NULL, ns, &left);
    /* Linux's select answers the time left */
    if (tv) { tv->tv_sec = (time_t)(left / 1000000000ULL); tv->tv_usec = (suseconds_t)(left % 1000000000ULL / 1000); }
    return rc;
}

WEFT_EXPORT int pselect(int nfds, fd_set *rd, fd_set *wr, fd_set *ex, const struct timespec *t, const sigset_t *mask) {
    uint64_t ns = t ? ts_ns(t) : 0;
    if (!timers_cut_net_wait(t == NULL, ns) || nfds < 0 || nfds > FD_SETSIZE) return pselect_entry(nfds, rd, wr, ex, t, mask);
    struct net_call c = {.kind = WEFT_IO_SELECT, .name = "pselect", .mask = mask};
    select_sets(&c, nfds, rd, wr, ex);
    return net_wait_in_pieces(&c, t == NULL, ns, NULL);
}

static int epoll_entry(const char *name, int epfd, struct epoll_event *ev, int max, int timeout_ms,
                       const sigset_t *mask, int masked) {
    uint64_t ns = (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * MS;
    if (!timers_cut_net_wait(timeout_ms < 0, ns) || max <= 0) return epoll_any(name, epfd, ev, max, timeout_ms, mask, masked);
    struct net_call c = {.kind = WEFT_IO_EPOLL, .name = name, .epfd = epfd, .ev = ev, .max = max,
                         .masked = masked, .mask = masked ? mask : NULL};
    return net_wait_in_pieces(&c, timeout_ms < 0, ns, NULL);
}

WEFT_EXPORT int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout_ms) {
    return epoll_entry("epoll_wait", epfd, ev, max, timeout_ms, NULL, 0);
}

WEFT_EXPORT int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout_ms, const sigset_t *mask) {
    return epoll_entry("epoll_pwait", epfd, ev, max, timeout_ms, mask, 1);
}

/* ------------------------------------------------------------------ blocking reads */

/* Before a blocking read-like call by a managed thread: wait in the model until the fd is
 * readable, so the real call returns at once instead of wedging the token. */
static int probe_ready(void *w) { return weft_io_probe(w); }

/* A timer of this process ends the wait at its expiry when its handler lacks SA_RESTART (-1: the
 * read fails with EINTR, as the kernel's); with SA_RESTART the read goes on waiting. */
int weft_io_before_read(int fd) {
    int managed = weft_sched_active();
    int timed = weft_timer_next_fd() && weft_engaged();
    if (!managed && !timed && !(weft_engaged() && weft_pt_active())) return 0;
    long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
    if (fl < 0 || (fl & O_NONBLOCK)) return 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = &p, .nfds = 1};
    if (weft_io_probe(&w)) return 0;
    WEFT_TRACE("io_wait", "fd %d", fd);
    if (timed) {
        int g = weft_timer_wait(probe_ready, &w, 0, 1);
        if (g == WEFT_TW_EINTR) { errno = EINTR; return -1; }
        if (g == WEFT_TW_READY) return 0;
    }
    if (managed) weft_sched_io_wait(&w, 0);
    else if (weft_engaged() && weft_pt_active()) weft_pt_block(probe_ready, &w); /* others run until it is readable */
    return 0;
}

WEFT_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n) {
    if (weft_net_is_fd(fd)) return weft_engaged() ? weft_net_readv(fd, iov, n) : weft_net_reentered();
    if (weft_io_before_read(fd) < 0) return -1;
    return get_real_readv()(fd, iov, n);
}
WEFT_EXPORT int accept(int fd, struct sockaddr *a, socklen_t *al) {
    if (weft_tcp_is_fd(fd)) return weft_engaged() ? weft_tcp_accept(fd, WEFT_OPAQUE(a), WEFT_OPAQUE(al), 0) : weft_net_reentered();
    weft_io_before_read(fd);
    return get_real_accept()(fd, a, al);
}
WEFT_EXPORT int accept4(int fd, struct sockaddr *a, socklen_t *al, int flags) {
    if (weft_tcp_is_fd(fd)) return weft_engaged() ? weft_tcp_accept(fd, WEFT_OPAQUE(a), WEFT_OPAQUE(al), flags) : weft_net_reentered();
    weft_io_before_read(fd);
    return get_real_accept4()(fd, a, al, flags);
}

/* ------------------------------------------------------------------ stdio reads (process scheduling) */

/*
 * stdio refills its buffer with glibc's internal read, past the read hook. Under process scheduling
 * a process that blocked there would hold the run token while the writer of its pipe waits for it,
 * so the entry points that may refill first wait as a process until the whole call can complete
 * without blocking:
 *   - one byte (the getc family's slow path __uflow/__underflow, which the getc_unlocked macros
 *     call, fgetc, getc): the fd is readable when the buffer is empty;
 *   - a line (fgets, getline, getdelim): the delimiter is in the buffer, or in what the kernel holds
 *     for a pipe (peeked with tee(2) into a private pipe, nothing consumed), or the pipe is nearly
 *     full (its writer may be waiting for room), or the writer is gone (end of file). Stdio writers
 *     flush 4 KiB blocks that end mid-line, so "readable" is not enough: the second refill blocked.
 *   - fread of more than is buffered from a pipe or socket: in pieces of what is buffered plus what
 *     the kernel holds (FIONREAD), each after waiting for a byte: a piece cannot block (fread keeps
 *     reading until its count is met, sort asks for 64 KiB).
 * A look at the FILE's public glibc fields only; without process scheduling the hooks pass through.
 */
static size_t buffered(FILE *fp) {
    return fp->_IO_read_ptr && fp->_IO_read_ptr < fp->_IO_read_end ? (size_t)(fp->_IO_read_end - fp->_IO_read_ptr) : 0;
}

static int stdio_fd(FILE *fp) {
    fp = WEFT_OPAQUE(fp);
    return fp && fp->_fileno >= 0 && weft_engaged() && weft_pt_active() ? fp->_fileno : -1;
}

static void stdio_before_read(FILE *fp) {
    int fd = stdio_fd(fp);
    if (fd >= 0 && !buffered(fp)) weft_io_before_read(fd);
}

/* bytes the kernel holds for reading (pipes, FIFOs, sockets), -1 when it cannot say */
static long kernel_bytes(int fd) {
    int n = 0;
    return weft_real_syscall(SYS_ioctl, fd, FIONREAD, &n, 0, 0, 0) == 0 ? n : -1;
}

/* A private pipe to peek through: tee(2) copies a pipe's content without consuming it. Made once
 * per image (raw pipe2, moved to fd 900 or above like the run segment's, close-on-exec); used only
 * by the token holder and always drained. -1 when it cannot be made. */
static int peek_pipe[2] = {-1, -1};

static int peek_ready(void) {
    if (peek_pipe[0] >= 0) return 1;
    int p[2];
    if (weft_real_syscall(SYS_pipe2, p, O_CLOEXEC | O_NONBLOCK, 0, 0, 0, 0) != 0) return 0;
    for (int i = 0; i < 2; i++) {
        long high = weft_real_syscall(SYS_fcntl, p[i], F_DUPFD_CLOEXEC, 900, 0, 0, 0);
        weft_real_syscall(SYS_close, p[i], 0, 0, 0, 0, 0);
        peek_pipe[i] = (int)high;
    }
    return peek_pipe[0] >= 0 && peek_pipe[1] >= 0;
}

/* Does the pipe `fd` hold `delim` within its first `limit` bytes? (-1: not a pipe, cannot tell) */
static int pipe_holds(int fd, int delim, size_t limit) {
    if (!peek_ready()) return -1;
    long n = weft_real_syscall(SYS_tee, fd, peek_pipe[1], limit, SPLICE_F_NONBLOCK, 0, 0);
    if (n < 0) return -1;
    int found = 0;
    char chunk[512];
    for (long left = n; left > 0;) {
        long r = weft_real_syscall(SYS_read, peek_pipe[0], chunk, left < (long)sizeof chunk ? left : (long)sizeof chunk, 0, 0, 0);
        if (r <= 0) break;
        if (!found && memchr(chunk, delim, (size_t)r)) found = 1;
        left -= r;
    }
    return found;
}

struct line_wait { FILE *fp; int fd; int delim; size_t limit; };

static int line_ready(void *arg) {
    struct line_wait *lw = arg;
    struct pollfd p = {.fd = lw->fd, .events = POLLIN};
    if (weft_real_syscall(SYS_poll, &p, 1, 0, 0, 0, 0) <= 0) return 0;
    long avail = kernel_bytes(lw->fd);
    if (avail <= 0) return 1; /* end of file, an error, or not measurable: the call will not wait long */
    if (buffered(lw->fp) + (size_t)avail >= lw->limit) return 1;
    /* its writer waits for room: the line is longer than the pipe holds (writes of less than a page
     * each take a page of their own, so a full pipe may hold much less than its size) */
    struct stat st;
    if (weft_real_syscall(SYS_fstat, lw->fd, &st, 0, 0, 0, 0) == 0 && weft_pt_room_awaited(st.st_ino)) return 1;
    return pipe_holds(lw->fd, lw->delim, (size_t)avail) != 0;
}

/* Before fgets/getline/getdelim: the line's delimiter within `limit` bytes must be available. */
static void stdio_before_line(FILE *fp, int delim, size_t limit) {
    int fd = stdio_fd(fp);
    if (fd < 0) return;
    size_t b = buffered(fp);
    if (b >= limit || (b && memchr(fp->_IO_read_ptr, delim, b))) return;
    long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
    if (fl < 0 || (fl & O_NONBLOCK)) return;
    struct line_wait lw = {fp, fd, delim, limit};
    if (line_ready(&lw)) return;
    WEFT_TRACE("io_wait", "fd %d (a line)", fd);
    weft_pt_block(line_ready, &lw);
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
REAL_FN(file_int_fn, fgetc_unlocked)
REAL_FN(fgets_fn, fgets)
REAL_FN(fgets_fn, fgets_unlocked)
REAL_FN(fread_fn, fread)
REAL_FN(fread_fn, fread_unlocked)
REAL_FN(getdelim_fn, getdelim)
REAL_FN(getdelim_fn, __getdelim)
REAL_FN(getline_fn, getline)

WEFT_EXPORT int __uflow(FILE *fp) { stdio_before_read(fp); return get_real___uflow()(fp); }
WEFT_EXPORT int __underflow(FILE *fp) { stdio_before_read(fp); return get_real___underflow()(fp); }
WEFT_EXPORT int fgetc(FILE *fp) { stdio_before_read(fp); return get_real_fgetc()(fp); }
WEFT_EXPORT int getc(FILE *fp) { stdio_before_read(fp); return get_real_getc()(fp); }
WEFT_EXPORT int _IO_getc(FILE *fp) { stdio_before_read(fp); return get_real__IO_getc()(fp); }
WEFT_EXPORT int fgetc_unlocked(FILE *fp) { stdio_before_read(fp); return get_real_fgetc_unlocked()(fp); }

/*
 * A line longer than its pipe holds cannot be waited for as a whole: its writer waits for room
 * until the reader takes some (tests/proc_pipes.c "long": 3000-byte writes each take a page, so the
 * pipe is full at 48000 bytes). So under process scheduling a line read from a pipe or socket is
 * done here, with glibc's own algorithm on the FILE's public fields: copy from the buffer up to the
 * delimiter, and refill an empty buffer with __underflow after waiting as a process for one byte
 * (as its hook above does), so no refill blocks and the writer runs between refills. Byte-oriented streams
 * only (a wide-oriented one, _mode > 0, keeps glibc's path and the line wait above).
 */
static int line_by_refills(FILE *fp) {
    int fd = stdio_fd(fp);
    struct stat st;
    return fd >= 0 && fp->_mode <= 0 && weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0) == 0 &&
           (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* The next run of buffered bytes, up to `most` and through `delim`: its length; *done when it ends
 * the line. 0 at end of file or on an error (__underflow's EOF; it set the stream's flags). The wait
 * for a byte is made without the stream's lock (`lock`: the caller took it), as glibc's callers
 * would wait before taking it: another thread may use the stream meanwhile. */
static size_t next_run(FILE *fp, int delim, size_t most, int *done, int lock) {
    if (fp->_IO_read_ptr >= fp->_IO_read_end) {
        if (lock) funlockfile(fp);
        stdio_before_read(fp);
        if (lock) flockfile(fp);
        if (fp->_IO_read_ptr >= fp->_IO_read_end && get_real___underflow()(fp) == EOF) return 0;
    }
    size_t len = (size_t)(fp->_IO_read_end - fp->_IO_read_ptr);
    if (len > most) len = most;
    const char *t = memchr(fp->_IO_read_ptr, delim, len);
    *done = t != NULL;
    return t ? (size_t)(t - fp->_IO_read_ptr) + 1 : len;
}

/* getdelim's contract: *lp is malloc'ed (grown with realloc); -1 at end of file with nothing read. */
static ssize_t getdelim_by_refills(char **lp, size_t *np, int delim, FILE *fp, int lock) {
    lp = WEFT_OPAQUE(lp);
    np = WEFT_OPAQUE(np);
    if (!lp || !np) { errno = EINVAL; return -1; }
    if (lock) flockfile(fp);
    ssize_t result = -1;
    size_t cur = 0;
    int done = 0;
    if (!*lp || *np == 0) {
        char *b = realloc(*lp, 120);
        if (!b) goto out;
        *lp = b;
        *np = 120;
    }
    while (!done) {
        size_t len = next_run(fp, delim, SIZE_MAX, &done, lock);
        if (len == 0) break;
        if (cur + len + 1 > *np) {
            size_t want = cur + len + 1 > 2 * *np ? cur + len + 1 : 2 * *np;
            char *b = realloc(*lp, want);
            if (!b) goto out;
            *lp = b;
            *np = want;
        }
        memcpy(*lp + cur, fp->_IO_read_ptr, len);
        fp->_IO_read_ptr += len;
        cur += len;
    }
    (*lp)[cur] = '\0';
    result = cur ? (ssize_t)cur : -1;
out:
    if (lock) funlockfile(fp);
    return result;
}

/* fgets: at most n - 1 bytes, through the newline; NULL when nothing was read or a read failed. */
static char *fgets_by_refills(char *s, int n, FILE *fp, int lock) {
    if (n <= 0) return NULL;
    if (n == 1) { s[0] = '\0'; return s; }
    if (lock) flockfile(fp);
    int old_err = fp->_flags & _IO_ERR_SEEN;
    fp->_flags &= ~_IO_ERR_SEEN;
    size_t cur = 0, cap = (size_t)n - 1;
    int done = 0;
    while (!done && cur < cap) {
        size_t len = next_run(fp, '\n', cap - cur, &done, lock);
        if (len == 0) break;
        memcpy(s + cur, fp->_IO_read_ptr, len);
        fp->_IO_read_ptr += len;
        cur += len;
    }
    char *r = s;
    if (cur == 0 || ((fp->_flags & _IO_ERR_SEEN) && errno != EAGAIN)) r = NULL;
    else s[cur] = '\0';
    fp->_flags |= old_err;
    if (lock) funlockfile(fp);
    return r;
}

static size_t line_limit(int n) { return n > 1 ? (size_t)n - 1 : 1; }
WEFT_EXPORT char *fgets(char *s, int n, FILE *fp) {
    if (line_by_refills(fp)) return fgets_by_refills(s, n, fp, 1);
    stdio_before_line(fp, '\n', line_limit(n));
    return get_real_fgets()(s, n, fp);
}
WEFT_EXPORT char *fgets_unlocked(char *s, int n, FILE *fp) {
    if (line_by_refills(fp)) return fgets_by_refills(s, n, fp, 0);
    stdio_before_line(fp, '\n', line_limit(n));
    return get_real_fgets_unlocked()(s, n, fp);
}
WEFT_EXPORT ssize_t getdelim(char **l, size_t *n, int d, FILE *fp) {
    if (line_by_refills(fp)) return getdelim_by_refills(l, n, d, fp, 1);
    stdio_before_line(fp, d, SIZE_MAX);
    return get_real_getdelim()(l, n, d, fp);
}
WEFT_EXPORT ssize_t __getdelim(char **l, size_t *n, int d, FILE *fp) {
    if (line_by_refills(fp)) return getdelim_by_refills(l, n, d, fp, 1);
    stdio_before_line(fp, d, SIZE_MAX);
    return get_real___getdelim()(l, n, d, fp);
}
WEFT_EXPORT ssize_t getline(char **l, size_t *n, FILE *fp) {
    if (line_by_refills(fp)) return getdelim_by_refills(l, n, '\n', fp, 1);
    stdio_before_line(fp, '\n', SIZE_MAX);
    return get_real_getline()(l, n, fp);
}

static int blocking_stream_fd(int fd);

/* fread in pieces that cannot block (above). Returns whole items read, as fread does. */
static size_t fread_pieces(fread_fn real, void *p, size_t size, size_t n, FILE *fp) {
    int fd = stdio_fd(fp);
    size_t total = size * n;
    if (fd < 0 || size == 0 || total / size != n || total <= buffered(fp) || !blocking_stream_fd(fd))
        return stdio_before_read(fp), real(p, size, n, fp);
    size_t done = 0;
    while (done < total) {
        size_t k = total - done;
        if (!buffered(fp)) weft_io_before_read(fd);
        long avail = kernel_bytes(fd);
        size_t can = buffered(fp) + (avail > 0 ? (size_t)avail : 0);
        if (can > 0 && can < k) k = can; /* nothing at all: end of file, the call returns at once */
        size_t r = real((char *)p + done, 1, k, fp);
        done += r;
        if (r < k) break;
    }
    return done / size;
}
WEFT_EXPORT size_t fread(void *p, size_t sz, size_t n, FILE *fp) { return fread_pieces(get_real_fread(), p, sz, n, fp); }
/* a macro in bits/stdio.h under optimisation, hence the parentheses */
WEFT_EXPORT size_t (fread_unlocked)(void *p, size_t sz, size_t n, FILE *fp) {
    return fread_pieces(get_real_fread_unlocked(), p, sz, n, fp);
}

/* ------------------------------------------------------------------ blocking writes (process scheduling) */

/*
 * A write to a pipe or socket whose buffer is full blocks in the kernel until a reader makes room.
 * Under process scheduling the reader may be another process of the tree, which only runs in the
 * token's turns: a writer blocked there with the token stalled the tree until the 3 s give-up
 * (`seq 100000 | sort`, `yes | head`). So a write that could block is a process wait first: the
 * writer waits (the rest of the tree running) until the fd reports POLLOUT, which for a pipe means
 * a free page slot - a write of up to PIPE_BUF (4096) bytes then cannot block, whether it merges
 * into the last page or takes a new one - and for a Unix or TCP socket at least half the send
 * buffer free. A longer write goes out in PIPE_BUF pieces, each after such a wait (POSIX makes no
 * atomicity promise above PIPE_BUF, and a blocking write returns only when all is written, so the
 * caller sees the same count). Only blocking pipes, FIFOs and sockets are concerned: regular files,
 * terminals and non-blocking fds are written at once. Without process scheduling: the real call.
 */
static int blocking_stream_fd(int fd) {
    struct stat st;
    if (weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0) != 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return 0;
    long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
    return fl >= 0 && !(fl & O_NONBLOCK);
}

static void wait_writable(int fd) {
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    weft_io_wait w = {.kind = WEFT_IO_POLL, .fds = &p, .nfds = 1};
    if (weft_io_probe(&w)) return; /* room, or an error (no reader: the write reports EPIPE itself) */
    WEFT_TRACE("io_wait", "fd %d (full: waits to write)", fd);
    /* a managed thread waits in the thread model (its process's other threads may be the reader;
     * when every thread waits, the model waits as a process); otherwise a process wait. Meanwhile
     * the pipe is named as waited for: a reader waiting for a whole line reads what there is. */
    struct stat st;
    uint64_t ino = weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0) == 0 && S_ISFIFO(st.st_mode) ? st.st_ino : 0;
    weft_pt_room_wait(ino);
    if (weft_sched_active()) weft_sched_io_wait(&w, 0);
    else weft_pt_block(probe_ready, &w);
    weft_pt_room_wait(0);
}

static int pt_engaged(void) { return weft_engaged() && weft_pt_active(); }

ssize_t weft_io_write(int fd, const void *buf, size_t n, ssize_t (*real)(int, const void *, size_t)) {
    if (!pt_engaged() || !blocking_stream_fd(fd)) return real(fd, buf, n);
    size_t done = 0;
    do {
        size_t k = n - done < PIPE_BUF ? n - done : PIPE_BUF;
        wait_writable(fd);
        ssize_t r = real(fd, (const char *)buf + done, k);
        if (r < 0) return done ? (ssize_t)done : r;
        done += (size_t)r;
        if ((size_t)r < k) break; /* cut short by a signal: the part written, as the kernel reports it */
    } while (done < n);
    return (ssize_t)done;
}

/*
 * stdio writes its buffer out with glibc's internal write, past the write hook (printf, puts,
 * fwrite ... never call `write` through the PLT). The entry points that may write out wait as
 * above first, when the stream's fd is a blocking pipe or socket and the call may write: the
 * stream is unbuffered or line-buffered, or its buffer has no room for `len` more bytes (then
 * glibc writes the full buffer, at most one page for a pipe, whose st_blksize is 4096). `len` is
 * exact for fputc/fputs/puts/fwrite; for the printf family, whose output length is unknown before
 * formatting, PRINTF_GUESS (a line longer than that into a nearly full buffer may still block on
 * a full pipe). A look at the FILE's public glibc fields; the buffering bits are glibc's libio
 * flags (_IO_UNBUFFERED, _IO_LINE_BUF: fixed by its ABI). FLUSH: fflush, fclose - write out
 * whatever is pending.
 */
#define WEFT_IO_UNBUFFERED 0x0002
#define WEFT_IO_LINE_BUF 0x0200
#define PRINTF_GUESS 1024
#define FLUSH ((size_t)-1)

static void stdio_before_write(FILE *fp, size_t len) {
    fp = WEFT_OPAQUE(fp);
    if (!fp || !pt_engaged() || fp->_fileno < 0) return;
    if (len == FLUSH) {
        if (fp->_IO_write_ptr <= fp->_IO_write_base) return; /* nothing pending */
    } else if (!(fp->_flags & (WEFT_IO_UNBUFFERED | WEFT_IO_LINE_BUF)) && fp->_IO_write_ptr &&
               (size_t)(fp->_IO_buf_end - fp->_IO_write_ptr) > len) {
        return; /* fully buffered, and it fits: nothing is written now */
    }
    if (blocking_stream_fd(fp->_fileno)) wait_writable(fp->_fileno);
}

typedef int (*fputc_fn)(int, FILE *);
typedef int (*overflow_fn)(FILE *, int);
typedef int (*putchar_fn)(int);
typedef int (*fputs_fn)(const char *, FILE *);
typedef int (*puts_fn)(const char *);
typedef int (*fclose_fn)(FILE *);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);
typedef int (*vfprintf_fn)(FILE *, const char *, va_list);
typedef int (*vprintf_fn)(const char *, va_list);
typedef int (*vfprintf_chk_fn)(FILE *, int, const char *, va_list);
typedef int (*vprintf_chk_fn)(int, const char *, va_list);
typedef int (*vdprintf_fn)(int, const char *, va_list);
typedef int (*vdprintf_chk_fn)(int, int, const char *, va_list);

/* The fixed-arity entry points: wait if the call may block on the stream's fd, then the real one. */
#define STDIO_PUT(type, name, params, args, fp, len)                                     \
    REAL_FN(type##_fn, name)                                                             \
    WEFT_EXPORT int name params {                                                        \
        stdio_before_write(fp, len);                                                     \
        return get_real_##name() args;                                                   \
    }

STDIO_PUT(fputc, fputc, (int c, FILE *f), (c, f), f, 1)
STDIO_PUT(fputc, putc, (int c, FILE *f), (c, f), f, 1)
STDIO_PUT(fputc, _IO_putc, (int c, FILE *f), (c, f), f, 1)
STDIO_PUT(fputc, fputc_unlocked, (int c, FILE *f), (c, f), f, 1)
STDIO_PUT(fputc, putc_unlocked, (int c, FILE *f), (c, f), f, 1)
STDIO_PUT(overflow, __overflow, (FILE *f, int c), (f, c), f, 1) /* the putc_unlocked macros' slow path */
STDIO_PUT(putchar, putchar, (int c), (c), stdout, 1)
STDIO_PUT(putchar, putchar_unlocked, (int c), (c), stdout, 1)
STDIO_PUT(fclose, fclose, (FILE *f), (f), f, FLUSH)

REAL_FN(fclose_fn, fflush)
REAL_FN(fclose_fn, fflush_unlocked)

/* fflush(NULL) writes out every stream: stdout and stderr, the ones a tree's processes share, are
 * checked (the exit path flushes this way, proc_sched.c) */
static void before_flush(FILE *f) {
    if (f) { stdio_before_write(f, FLUSH); return; }
    stdio_before_write(stdout, FLUSH);
    stdio_before_write(stderr, FLUSH);
}
WEFT_EXPORT int fflush(FILE *f) { before_flush(f); return get_real_fflush()(f); }
WEFT_EXPORT int fflush_unlocked(FILE *f) { before_flush(f); return get_real_fflush_unlocked()(f); }

/*
 * fwrite, fputs and puts may carry more than a page: glibc then writes the full buffer out and,
 * for whole blocks of the rest, writes them directly - two or more write(2)s, of which only the
 * first is covered by one POLLOUT wait. So the data goes in pieces, each of which makes at most one
 * write of at most one page: a fully buffered stream's free room (filled, nothing written), or,
 * when the buffer is full, one byte after the wait (glibc writes the full buffer, then buffers the
 * byte); for an unbuffered or line-buffered stream half a page after the wait. When the fd turns
 * out not to be a blocking pipe or socket, the rest goes in one call. Returns the bytes written.
 */
static size_t next_piece(FILE *f, size_t left, int *may_write) {
    int fully = !(f->_flags & (WEFT_IO_UNBUFFERED | WEFT_IO_LINE_BUF));
    size_t room = f->_IO_write_ptr && f->_IO_buf_end > f->_IO_write_ptr ? (size_t)(f->_IO_buf_end - f->_IO_write_ptr) : 0;
    *may_write = !(fully && room > 0);
    size_t most = !*may_write ? room : fully ? 1 : PIPE_BUF / 2;
    return left < most ? left : most;
}

static size_t stdio_write_pieces(fwrite_fn real, const char *p, size_t total, FILE *f) {
    size_t done = 0;
    int stream = -1; /* is the fd a blocking pipe or socket? asked once, when a piece may write */
    while (done < total) {
        int may_write;
        size_t k = next_piece(f, total - done, &may_write);
        if (may_write && stream < 0) stream = blocking_stream_fd(f->_fileno);
        if (may_write && !stream) k = total - done;
        if (may_write && stream) wait_writable(f->_fileno);
        size_t r = real(p + done, 1, k, f);
        done += r;
        if (r < k) break;
    }
    return done;
}

static int stdio_pieces_apply(FILE *f) {
    f = WEFT_OPAQUE(f);
    return f && f->_fileno >= 0 && pt_engaged();
}

REAL_FN(fwrite_fn, fwrite)
REAL_FN(fwrite_fn, fwrite_unlocked)
REAL_FN(fputs_fn, fputs)
REAL_FN(fputs_fn, fputs_unlocked)
REAL_FN(puts_fn, puts)

static size_t fwrite_items(fwrite_fn real, const void *p, size_t size, size_t n, FILE *f) {
    size_t total = size * n;
    if (size == 0 || total / size != n || !stdio_pieces_apply(f)) return real(p, size, n, f);
    return stdio_write_pieces(real, p, total, f) / size;
}
WEFT_EXPORT size_t fwrite(const void *p, size_t size, size_t n, FILE *f) {
    return fwrite_items(get_real_fwrite(), p, size, n, f);
}
/* a macro in bits/stdio.h under optimisation, hence the parentheses */
WEFT_EXPORT size_t (fwrite_unlocked)(const void *p, size_t size, size_t n, FILE *f) {
    return fwrite_items(get_real_fwrite_unlocked(), p, size, n, f);
}

/* fputs is fwrite of strlen(s) bytes; success is a non-negative number (glibc's 1), failure EOF */
WEFT_EXPORT int fputs(const char *s, FILE *f) {
    if (!stdio_pieces_apply(f)) return get_real_fputs()(s, f);
    size_t n = strlen(s);
    return stdio_write_pieces(get_real_fwrite(), s, n, f) == n ? 1 : EOF;
}
WEFT_EXPORT int fputs_unlocked(const char *s, FILE *f) {
    if (!stdio_pieces_apply(f)) return get_real_fputs_unlocked()(s, f);
    size_t n = strlen(s);
    return stdio_write_pieces(get_real_fwrite_unlocked(), s, n, f) == n ? 1 : EOF;
}
/* puts: the string and a newline to stdout; success is min(INT_MAX, length + 1), as glibc's */
WEFT_EXPORT int puts(const char *s) {
    if (!stdio_pieces_apply(stdout)) return get_real_puts()(s);
    size_t n = strlen(s);
    if (stdio_write_pieces(get_real_fwrite(), s, n, stdout) != n ||
        stdio_write_pieces(get_real_fwrite(), "\n", 1, stdout) != 1) return EOF;
    return n + 1 > INT_MAX ? INT_MAX : (int)(n + 1);
}

/* The printf family (with _FORTIFY_SOURCE, the __*_chk names): each forwards to the real
 * va_list form after the wait. dprintf writes to an fd through glibc's internal write as well. */
REAL_FN(vfprintf_fn, vfprintf)
REAL_FN(vprintf_fn, vprintf)
REAL_FN(vfprintf_chk_fn, __vfprintf_chk)
REAL_FN(vprintf_chk_fn, __vprintf_chk)
REAL_FN(vdprintf_fn, vdprintf)
REAL_FN(vdprintf_chk_fn, __vdprintf_chk)

static void fd_before_write(int fd) {
    if (pt_engaged() && blocking_stream_fd(fd)) wait_writable(fd);
}

WEFT_EXPORT int vfprintf(FILE *f, const char *fmt, va_list ap) {
    stdio_before_write(f, PRINTF_GUESS);
    return get_real_vfprintf()(f, fmt, ap);
}
WEFT_EXPORT int vprintf(const char *fmt, va_list ap) {
    stdio_before_write(stdout, PRINTF_GUESS);
    return get_real_vprintf()(fmt, ap);
}
WEFT_EXPORT int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
    stdio_before_write(f, PRINTF_GUESS);
    return get_real___vfprintf_chk()(f, flag, fmt, ap);
}
WEFT_EXPORT int __vprintf_chk(int flag, const char *fmt, va_list ap) {
    stdio_before_write(stdout, PRINTF_GUESS);
    return get_real___vprintf_chk()(flag, fmt, ap);
}
WEFT_EXPORT int vdprintf(int fd, const char *fmt, va_list ap) {
    fd_before_write(fd);
    return get_real_vdprintf()(fd, fmt, ap);
}
WEFT_EXPORT int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap) {
    fd_before_write(fd);
    return get_real___vdprintf_chk()(fd, flag, fmt, ap);
}

/* The variadic forms: the wait is in the va_list form each one calls. */
#define PRINTF_VARIADIC(name, params, last, call)                                  \
    WEFT_EXPORT int name params {                                                        \
        va_list ap;                                                                      \
        va_start(ap, last);                                                              \
        int r = call;                                                                    \
        va_end(ap);                                                                      \
        return r;                                                                        \
    }

PRINTF_VARIADIC(printf, (const char *fmt, ...), fmt, vfprintf(stdout, fmt, ap))
PRINTF_VARIADIC(fprintf, (FILE *f, const char *fmt, ...), fmt, vfprintf(f, fmt, ap))
PRINTF_VARIADIC(__printf_chk, (int flag, const char *fmt, ...), fmt, __vfprintf_chk(stdout, flag, fmt, ap))
PRINTF_VARIADIC(__fprintf_chk, (FILE *f, int flag, const char *fmt, ...), fmt, __vfprintf_chk(f, flag, fmt, ap))
PRINTF_VARIADIC(dprintf, (int fd, const char *fmt, ...), fmt, vdprintf(fd, fmt, ap))
PRINTF_VARIADIC(__dprintf_chk, (int fd, int flag, const char *fmt, ...), fmt, __vdprintf_chk(fd, flag, fmt, ap))

/*
 * Wide-character stdio (util-linux rev reads with fgetws and writes with fputws) converts through
 * a second buffer, glibc's struct _IO_wide_data, whose first eight fields are the same pointers as
 * the FILE's (read ptr/end/base, write base/ptr/end, buffer base/end: its layout is fixed by the
 * libio ABI). A wide read waits as a line read when neither buffer holds a newline. A wide write
 * to a blocking pipe or socket always waits for room first (when the conversion writes out is not
 * worth modelling for calls this rare): one write of up to a page then cannot block.
 */
struct wide_bufs { wchar_t *read_ptr, *read_end, *read_base, *write_base, *write_ptr, *write_end, *buf_base, *buf_end; };

static const struct wide_bufs *wide(FILE *fp) { return (const struct wide_bufs *)(void *)fp->_wide_data; }

static void wide_before_line(FILE *fp) {
    int fd = stdio_fd(fp);
    if (fd < 0 || !fp->_wide_data) return;
    const struct wide_bufs *w = wide(fp);
    for (const wchar_t *c = w->read_ptr; c && c < w->read_end; c++)
        if (*c == L'\n') return;
    stdio_before_line(fp, '\n', SIZE_MAX);
}

static void wide_before_char(FILE *fp) {
    int fd = stdio_fd(fp);
    if (fd < 0 || !fp->_wide_data) return;
    if (wide(fp)->read_ptr < wide(fp)->read_end) return;
    stdio_before_read(fp);
}

static void wide_before_write(FILE *fp) {
    fp = WEFT_OPAQUE(fp);
    if (fp && pt_engaged() && fp->_fileno >= 0 && blocking_stream_fd(fp->_fileno)) wait_writable(fp->_fileno);
}

typedef wchar_t *(*fgetws_fn)(wchar_t *, int, FILE *);
typedef wint_t (*fgetwc_fn)(FILE *);
typedef int (*fputws_fn)(const wchar_t *, FILE *);
typedef wint_t (*fputwc_fn)(wchar_t, FILE *);
typedef wint_t (*putwchar_fn)(wchar_t);
typedef wint_t (*woverflow_fn)(FILE *, wint_t);
REAL_FN(fgetws_fn, fgetws)
REAL_FN(fgetws_fn, fgetws_unlocked)
REAL_FN(fgetwc_fn, fgetwc)
REAL_FN(fgetwc_fn, getwc)
REAL_FN(fgetwc_fn, fgetwc_unlocked)
REAL_FN(fgetwc_fn, __wuflow)
REAL_FN(fgetwc_fn, __wunderflow)
REAL_FN(fputws_fn, fputws)
REAL_FN(fputws_fn, fputws_unlocked)
REAL_FN(fputwc_fn, fputwc)
REAL_FN(fputwc_fn, putwc)
REAL_FN(fputwc_fn, fputwc_unlocked)
REAL_FN(putwchar_fn, putwchar)
REAL_FN(woverflow_fn, __woverflow)

WEFT_EXPORT wchar_t *fgetws(wchar_t *s, int n, FILE *fp) { wide_before_line(fp); return get_real_fgetws()(s, n, fp); }
WEFT_EXPORT wchar_t *fgetws_unlocked(wchar_t *s, int n, FILE *fp) {
    wide_before_line(fp);
    return get_real_fgetws_unlocked()(s, n, fp);
}
WEFT_EXPORT wint_t fgetwc(FILE *fp) { wide_before_char(fp); return get_real_fgetwc()(fp); }
WEFT_EXPORT wint_t getwc(FILE *fp) { wide_before_char(fp); return get_real_getwc()(fp); }
WEFT_EXPORT wint_t fgetwc_unlocked(FILE *fp) { wide_before_char(fp); return get_real_fgetwc_unlocked()(fp); }
WEFT_EXPORT wint_t __wuflow(FILE *fp) { wide_before_char(fp); return get_real___wuflow()(fp); }
WEFT_EXPORT wint_t __wunderflow(FILE *fp) { wide_before_char(fp); return get_real___wunderflow()(fp); }
WEFT_EXPORT int fputws(const wchar_t *s, FILE *fp) { wide_before_write(fp); return get_real_fputws()(s, fp); }
WEFT_EXPORT int fputws_unlocked(const wchar_t *s, FILE *fp) {
    wide_before_write(fp);
    return get_real_fputws_unlocked()(s, fp);
}
WEFT_EXPORT wint_t fputwc(wchar_t c, FILE *fp) { wide_before_write(fp); return get_real_fputwc()(c, fp); }
WEFT_EXPORT wint_t putwc(wchar_t c, FILE *fp) { wide_before_write(fp); return get_real_putwc()(c, fp); }
WEFT_EXPORT wint_t fputwc_unlocked(wchar_t c, FILE *fp) { wide_before_write(fp); return get_real_fputwc_unlocked()(c, fp); }
WEFT_EXPORT wint_t putwchar(wchar_t c) { wide_before_write(stdout); return get_real_putwchar()(c); }
WEFT_EXPORT wint_t __woverflow(FILE *fp, wint_t c) { wide_before_write(fp); return get_real___woverflow()(fp, c); }

/* splice and sendfile move data between fds inside the kernel, as blocking as a read and a write:
 * GNU grep drains its input pipe with splice once it knows its answer (-q, output to /dev/null),
 * so its writers can finish. A process wait for the input, then for room in the output. */
typedef ssize_t (*splice_fn)(int, loff_t *, int, loff_t *, size_t, unsigned);
typedef ssize_t (*sendfile_fn)(int, int, off_t *, size_t);
REAL_FN(splice_fn, splice)
REAL_FN(sendfile_fn, sendfile)
REAL_FN(sendfile_fn, sendfile64)

/* sendfile and splice with a simulated TCP socket on one side: its other end is the broker, so the
 * kernel cannot move the bytes; they go through a stack buffer and the socket's send or receive. */
#define TCP_MOVE_CHUNK 16384

static ssize_t tcp_sendfile(int out, int in, off_t *off, size_t n) {
    char buf[TCP_MOVE_CHUNK];
    size_t done = 0;
    while (done < n) {
        size_t k = n - done < sizeof buf ? n - done : sizeof buf;
        long r = off ? weft_real_syscall(SYS_pread64, in, buf, k, *off, 0, 0) : weft_real_syscall(SYS_read, in, buf, k, 0, 0, 0);
        if (r <= 0) {
            if (r < 0 && !done) return -1;
            break;
        }
        struct iovec v = {buf, (size_t)r};
        ssize_t w = weft_tcp_send(out, &v, 1, 0);
        long sent = w < 0 ? 0 : (long)w;
        if (off) *off += sent;
        else if (sent < r) weft_real_syscall(SYS_lseek, in, sent - r, SEEK_CUR, 0, 0, 0); /* unsent bytes stay unread */
        done += (size_t)sent;
        if (w < 0 && !done) return -1;
        if (sent < r) break;
    }
    return (ssize_t)done;
}

static ssize_t tcp_splice(int in, int out, size_t n, unsigned flags) {
    char buf[TCP_MOVE_CHUNK];
    size_t k = n < sizeof buf ? n : sizeof buf;
    if (weft_tcp_is_fd(in)) {
        struct iovec v = {buf, k};
        ssize_t r = weft_tcp_recv(in, &v, 1, (flags & SPLICE_F_NONBLOCK) ? MSG_DONTWAIT : 0);
        for (ssize_t w = 0; r > 0 && w < r;) {     /* the pipe takes all of it (a blocking write) */
            long x = weft_real_syscall(SYS_write, out, buf + w, (size_t)(r - w), 0, 0, 0);
            if (x < 0 && errno == EINTR) continue;
            if (x < 0) return w ? w : -1;
            w += x;
        }
        return r;
    }
    long r = weft_real_syscall(SYS_read, in, buf, k, 0, 0, 0);
    if (r <= 0) return r;
    struct iovec v = {buf, (size_t)r};
    return weft_tcp_send(out, &v, 1, (flags & SPLICE_F_NONBLOCK) ? MSG_DONTWAIT : 0);
}

WEFT_EXPORT ssize_t splice(int in, loff_t *in_off, int out, loff_t *out_off, size_t n, unsigned flags) {
    if ((weft_tcp_is_fd(in) || weft_tcp_is_fd(out)) && weft_engaged()) {
        if ((weft_tcp_is_fd(in) && in_off) || (weft_tcp_is_fd(out) && out_off)) { errno = ESPIPE; return -1; }
        return tcp_splice(in, out, n, flags);
    }
    if (!(flags & SPLICE_F_NONBLOCK) && pt_engaged()) {
        weft_io_before_read(in);
        if (blocking_stream_fd(out)) wait_writable(out);
    }
    return get_real_splice()(in, in_off, out, out_off, n, flags);
}

WEFT_EXPORT ssize_t sendfile(int out, int in, off_t *off, size_t n) {
    if (weft_tcp_is_fd(out) && weft_engaged()) return tcp_sendfile(out, in, WEFT_OPAQUE(off), n);
    fd_before_write(out); /* the input is a file (sendfile needs one it can map): it does not wait */
    return get_real_sendfile()(out, in, off, n);
}

WEFT_EXPORT ssize_t sendfile64(int out, int in, off_t *off, size_t n) {
    if (weft_tcp_is_fd(out) && weft_engaged()) return tcp_sendfile(out, in, WEFT_OPAQUE(off), n);
    fd_before_write(out);
    return get_real_sendfile64()(out, in, off, n);
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
    /* a timer of this process (hook_timer.c) bounds the wait: its signal comes at its expiry */
    if (mask && weft_engaged() && weft_timer_next() && weft_timer_suspend(signal_ready, (void *)mask)) {
        errno = EINTR;
        return -1;
    }
    if (mask && weft_engaged() && weft_sched_active()) {
        /* a managed thread: a wait in the thread model (the process's other threads run; without it
         * the real call below would block holding the thread token), then in the tree's when it has one
         * (ps_wait); the handler then runs in the real call, at the turn the schedule chose */
        WEFT_TRACE("sigsuspend", "%s", "as a thread wait");
        weft_sig_suspend_wait(mask);
    } else if (mask && weft_engaged() && weft_pt_active()) {
        WEFT_TRACE("sigsuspend", "%s", "as a process wait");
        uint64_t m;
        memcpy(&m, mask, sizeof m);
        uint64_t prev = weft_sig_wait_begin(~m); /* a signal from outside may end it (proc_sched.c) */
        weft_pt_block(signal_ready, (void *)mask);
        weft_sig_wait_end(prev);
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
