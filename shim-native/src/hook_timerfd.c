/*
 * hook_timerfd.c - timerfd_create / timerfd_settime / timerfd_gettime on the virtual clock (issue 29).
 *
 * The fd handed out is a real kernel timerfd, so it is an fd like any other to close, dup, fcntl,
 * poll, select and epoll. The kernel never times it, though: the timer lives in the shim's table
 * (hook_timer.c) as a virtual instant; at its expiry the kernel timerfd is made readable (armed to an
 * instant already past) and the expirations are counted there. A read answers that count (a u64)
 * and makes the kernel timerfd unreadable again; a blocking read with nothing counted waits for
 * the expiry like any wait bounded by a timer (timer_wait.c). A wait over the fd and others ends at
 * the expiry instant: it is bounded by weft_timer_next_fd (hook_io.c).
 * CLOCK_REALTIME's absolute instants are taken on the virtual realtime clock; CLOCK_BOOTTIME is the
 * monotonic clock (nothing suspends). Clocks the shim does not stand for stay the kernel's.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>

#define NS 1000000000L

typedef int (*timerfd_create_fn)(clockid_t, int);
typedef int (*timerfd_settime_fn)(int, int, const struct itimerspec *, struct itimerspec *);
typedef int (*timerfd_gettime_fn)(int, struct itimerspec *);
REAL_FN(timerfd_create_fn, timerfd_create)
REAL_FN(timerfd_settime_fn, timerfd_settime)
REAL_FN(timerfd_gettime_fn, timerfd_gettime)

static int virtual_clock(clockid_t c) {
    return c == CLOCK_REALTIME || c == CLOCK_MONOTONIC || c == CLOCK_BOOTTIME || c == CLOCK_REALTIME_ALARM ||
           c == CLOCK_BOOTTIME_ALARM;
}

WEFT_EXPORT int timerfd_create(clockid_t c, int flags) {
    int fd = get_real_timerfd_create()(c, flags);
    if (fd < 0 || !weft_engaged() || !virtual_clock(c)) return fd;
    if (weft_vtimer_fd_new(fd, c) < 0) {
        /* the table is full: the kernel would still give an fd, but one timed in real time would
         * break determinism silently; refuse as the kernel does when out of resources */
        weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
        errno = EMFILE;
        return -1;
    }
    WEFT_TRACE("timerfd_create", "clock %d -> fd %d", (int)c, fd);
    return fd;
}

static int valid(const struct itimerspec *v) {
    return v->it_value.tv_sec >= 0 && v->it_value.tv_nsec >= 0 && v->it_value.tv_nsec < NS &&
           v->it_interval.tv_sec >= 0 && v->it_interval.tv_nsec >= 0 && v->it_interval.tv_nsec < NS;
}

WEFT_EXPORT int timerfd_settime(int fd, int flags, const struct itimerspec *nv, struct itimerspec *ov) {
    int i = weft_engaged() ? weft_vtimer_of_fd(fd) : -1;
    if (i < 0) return get_real_timerfd_settime()(fd, flags, nv, ov);
    nv = WEFT_OPAQUE(nv);
    if (!nv) { errno = EFAULT; return -1; }
    if (!valid(nv) || (flags & ~(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))) { errno = EINVAL; return -1; }
    WEFT_TRACE("timerfd_settime", "fd %d %s %ld.%09ld every %ld.%09ld", fd, (flags & TFD_TIMER_ABSTIME) ? "at" : "in",
               (long)nv->it_value.tv_sec, nv->it_value.tv_nsec, (long)nv->it_interval.tv_sec, nv->it_interval.tv_nsec);
    weft_vtimer_fd_set(i, flags & TFD_TIMER_ABSTIME, nv, WEFT_OPAQUE(ov));
    return 0;
}

WEFT_EXPORT int timerfd_gettime(int fd, struct itimerspec *cv) {
    int i = weft_engaged() ? weft_vtimer_of_fd(fd) : -1;
    if (i < 0) return get_real_timerfd_gettime()(fd, cv);
    cv = WEFT_OPAQUE(cv);
    if (!cv) { errno = EFAULT; return -1; }
    weft_vtimer_fd_get(i, cv);
    return 0;
}

/* readable: the kernel timerfd, made readable at an expiry */
static int fd_readable(void *p) {
    struct pollfd pf = {.fd = *(int *)p, .events = POLLIN};
    return weft_real_syscall(SYS_poll, &pf, 1, 0, 0, 0, 0) > 0;
}

ssize_t weft_timerfd_read(int fd, void *buf, size_t n) {
    int i = weft_vtimer_of_fd(fd);
    if (n < sizeof(uint64_t)) { errno = EINVAL; return -1; }
    for (;;) {
        weft_timer_poll(); /* what is due by now */
        uint64_t ticks = weft_vtimer_fd_take(i);
        if (ticks) {
            memcpy(buf, &ticks, sizeof ticks);
            WEFT_TRACE("read", "timerfd %d -> %lu expirations", fd, (unsigned long)ticks);
            return sizeof ticks;
        }
        long fl = weft_real_syscall(SYS_fcntl, fd, F_GETFL, 0, 0, 0, 0);
        if (fl >= 0 && (fl & O_NONBLOCK)) { errno = EAGAIN; return -1; }
        /* the kernel restarts a timerfd read after a handler with SA_RESTART */
        int g = weft_timer_wait(fd_readable, &fd, 0, 1);
        if (g == WEFT_TW_EINTR) { errno = EINTR; return -1; }
        /* no timer left to wait for (this one disarmed): the kernel's read blocks, as on a machine */
        if (g == WEFT_TW_PASS && !fd_readable(&fd)) return (ssize_t)weft_real_syscall(SYS_read, fd, buf, n, 0, 0, 0);
    }
}
