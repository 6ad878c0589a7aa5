/*
 * hook_stat.c - file times in the run's virtual timeline (issue 18, item 3).
 *
 * The kernel stamps files with real time, so `gzip`, `tar`, `ls -l` and `make` saw today's date
 * in a run whose clock says 2000. The stat family reports every file time (atime, mtime, ctime,
 * statx's btime) through one mapping, in this order:
 *   1. at or after the run's start (the root's real time, weft_run_start_real_ns): the file was
 *      touched during the run by the kernel => the caller's virtual now (realtime, read without
 *      advancing the clock), so a fresh file looks just made;
 *   2. within the virtual window [2000-01-01, 2000-01-01 + 2 years): a time the run itself wrote
 *      (utimensat/futimens "now" below, or an earlier run's) => unchanged;
 *   3. anything else (files older than the run) => 1999-12-31 23:59:59, one instant "before the
 *      run": older files stay older than anything the run makes, without their real dates (which
 *      differ from host to host) reaching the program.
 * Nothing is written to the file system: reporting only, so the host's files keep their times.
 * utimensat/futimens/utimes/utime with "now" (NULL or UTIME_NOW) write the virtual now instead.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <utime.h>

extern uint64_t weft_run_start_real_ns;

#define NS 1000000000ULL
#define VIRTUAL_EPOCH 946684800LL                 /* 2000-01-01T00:00:00Z */
#define VIRTUAL_SPAN (2LL * 366 * 86400)          /* the window of times the run writes */

typedef int (*stat_fn)(const char *, struct stat *);
typedef int (*stat64_fn)(const char *, struct stat64 *);
typedef int (*fstat64_fn)(int, struct stat64 *);
typedef int (*fstatat64_fn)(int, const char *, struct stat64 *, int);
typedef int (*fstat_fn)(int, struct stat *);
typedef int (*fstatat_fn)(int, const char *, struct stat *, int);
typedef int (*xstat_fn)(int, const char *, struct stat *);
typedef int (*fxstat_fn)(int, int, struct stat *);
typedef int (*fxstatat_fn)(int, int, const char *, struct stat *, int);
typedef int (*statx_fn)(int, const char *, int, unsigned, struct statx *);
typedef int (*utimensat_fn)(int, const char *, const struct timespec[2], int);
typedef int (*futimens_fn)(int, const struct timespec[2]);
typedef int (*utimes_fn)(const char *, const struct timeval[2]);
typedef int (*utime_fn)(const char *, const struct utimbuf *);

REAL_FN(stat_fn, stat)
REAL_FN(stat64_fn, stat64)
REAL_FN(stat_fn, lstat)
REAL_FN(stat64_fn, lstat64)
REAL_FN(fstat_fn, fstat)
REAL_FN(fstat64_fn, fstat64)
REAL_FN(fstatat_fn, fstatat)
REAL_FN(fstatat64_fn, fstatat64)
REAL_FN(xstat_fn, __xstat)
REAL_FN(xstat_fn, __xstat64)
REAL_FN(xstat_fn, __lxstat)
REAL_FN(xstat_fn, __lxstat64)
REAL_FN(fxstat_fn, __fxstat)
REAL_FN(fxstat_fn, __fxstat64)
REAL_FN(fxstatat_fn, __fxstatat)
REAL_FN(fxstatat_fn, __fxstatat64)
REAL_FN(statx_fn, statx)
REAL_FN(utimensat_fn, utimensat)
REAL_FN(futimens_fn, futimens)
REAL_FN(utimes_fn, utimes)
REAL_FN(utime_fn, utime)

/* The mapping above on one (seconds, nanoseconds) pair. */
static void map_time(int64_t *sec, int64_t *nsec) {
    uint64_t t = *sec < 0 ? 0 : (uint64_t)*sec * NS + (uint64_t)*nsec;
    if (weft_run_start_real_ns && t >= weft_run_start_real_ns) {
        uint64_t now = weft_cfg.real_base_ns + weft_mono_peek();
        *sec = (int64_t)(now / NS);
        *nsec = (int64_t)(now % NS);
    } else if (*sec >= VIRTUAL_EPOCH && *sec < VIRTUAL_EPOCH + VIRTUAL_SPAN) {
        /* written by the run (or an earlier one): already virtual */
    } else {
        *sec = VIRTUAL_EPOCH - 1;
        *nsec = 0;
    }
}

static void map_ts(struct timespec *ts) {
    int64_t s = ts->tv_sec, n = ts->tv_nsec;
    map_time(&s, &n);
    ts->tv_sec = (time_t)s;
    ts->tv_nsec = (long)n;
}

/* Applied after a successful real call; rc passes through. */
static int fix_stat(int rc, struct stat *st) {
    if (rc == 0 && st) {
        map_ts(&st->st_atim);
        map_ts(&st->st_mtim);
        map_ts(&st->st_ctim);
    }
    return rc;
}

static void map_stx(struct statx_timestamp *t) {
    int64_t s = t->tv_sec, n = t->tv_nsec;
    map_time(&s, &n);
    t->tv_sec = s;
    t->tv_nsec = (uint32_t)n;
}

static int fix_statx(int rc, struct statx *sx) {
    if (rc == 0 && sx) {
        if (sx->stx_mask & STATX_ATIME) map_stx(&sx->stx_atime);
        if (sx->stx_mask & STATX_MTIME) map_stx(&sx->stx_mtime);
        if (sx->stx_mask & STATX_CTIME) map_stx(&sx->stx_ctime);
        if (sx->stx_mask & STATX_BTIME) map_stx(&sx->stx_btime);
    }
    return rc;
}

/* For syscall(SYS_newfstatat | SYS_stat | SYS_lstat | SYS_fstat | SYS_statx, ...) (hook_io.c). */
void weft_stat_fix_syscall(long n, long rc, long a, long b, long c, long d, long e) {
    (void)a; (void)d;
    if (rc != 0 || !weft_engaged()) return;
    if (n == SYS_newfstatat) fix_stat(0, (struct stat *)c);
    else if (n == SYS_stat || n == SYS_lstat || n == SYS_fstat) fix_stat(0, (struct stat *)b);
    else if (n == SYS_statx) fix_statx(0, (struct statx *)e);
}

/* struct stat64 is struct stat on x86-64 (same layout); the 64 names only differ in C type */
#define PATH_STAT_HOOK(name, T)                                                   \
    WEFT_EXPORT int name(const char *p, T *st) {                                  \
        int rc = get_real_##name()(p, st);                                        \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
PATH_STAT_HOOK(stat, struct stat)
PATH_STAT_HOOK(stat64, struct stat64)
PATH_STAT_HOOK(lstat, struct stat)
PATH_STAT_HOOK(lstat64, struct stat64)

#define FD_STAT_HOOK(name, T)                                                     \
    WEFT_EXPORT int name(int fd, T *st) {                                         \
        int rc = get_real_##name()(fd, st);                                       \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
FD_STAT_HOOK(fstat, struct stat)
FD_STAT_HOOK(fstat64, struct stat64)

#define AT_STAT_HOOK(name, T)                                                     \
    WEFT_EXPORT int name(int dfd, const char *p, T *st, int fl) {                 \
        int rc = get_real_##name()(dfd, p, st, fl);                               \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
AT_STAT_HOOK(fstatat, struct stat)
AT_STAT_HOOK(fstatat64, struct stat64)

_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "x86-64: one layout");

/* the pre-2.33 entry points older binaries still call */
#define XSTAT_HOOK(name)                                                          \
    WEFT_EXPORT int name(int ver, const char *p, struct stat *st) {               \
        int rc = get_real_##name()(ver, p, st);                                   \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
XSTAT_HOOK(__xstat)
XSTAT_HOOK(__xstat64)
XSTAT_HOOK(__lxstat)
XSTAT_HOOK(__lxstat64)

#define FXSTAT_HOOK(name)                                                         \
    WEFT_EXPORT int name(int ver, int fd, struct stat *st) {                      \
        int rc = get_real_##name()(ver, fd, st);                                  \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
FXSTAT_HOOK(__fxstat)
FXSTAT_HOOK(__fxstat64)

#define FXSTATAT_HOOK(name)                                                       \
    WEFT_EXPORT int name(int ver, int dfd, const char *p, struct stat *st, int fl) { \
        int rc = get_real_##name()(ver, dfd, p, st, fl);                          \
        if (!weft_engaged()) return rc;                                           \
        return fix_stat(rc, (struct stat *)WEFT_OPAQUE(st));                                     \
    }
FXSTATAT_HOOK(__fxstatat)
FXSTATAT_HOOK(__fxstatat64)

WEFT_EXPORT int statx(int dfd, const char *p, int fl, unsigned mask, struct statx *sx) {
    int rc = get_real_statx()(dfd, p, fl, mask, sx);
    if (!weft_engaged()) return rc;
    return fix_statx(rc, WEFT_OPAQUE(sx));
}

/* ---------------------------------------------------------------- setting times */

/* times[] with NULL / UTIME_NOW replaced by the virtual now (one clock observation). */
static const struct timespec *virtual_now_times(const struct timespec *in, struct timespec out[2]) {
    in = WEFT_OPAQUE(in);
    if (in && in[0].tv_nsec != UTIME_NOW && in[1].tv_nsec != UTIME_NOW) return in;
    uint64_t now = weft_real_observe();
    for (int i = 0; i < 2; i++) {
        if (in && in[i].tv_nsec != UTIME_NOW) { out[i] = in[i]; continue; }
        out[i].tv_sec = (time_t)(now / NS);
        out[i].tv_nsec = (long)(now % NS);
    }
    return out;
}

WEFT_EXPORT int utimensat(int dfd, const char *p, const struct timespec t[2], int fl) {
    if (!weft_engaged()) return get_real_utimensat()(dfd, p, t, fl);
    struct timespec v[2];
    return get_real_utimensat()(dfd, p, virtual_now_times(t, v), fl);
}

WEFT_EXPORT int futimens(int fd, const struct timespec t[2]) {
    if (!weft_engaged()) return get_real_futimens()(fd, t);
    struct timespec v[2];
    return get_real_futimens()(fd, virtual_now_times(t, v));
}

WEFT_EXPORT int utimes(const char *p, const struct timeval t[2]) {
    if (!weft_engaged() || WEFT_OPAQUE(t)) return get_real_utimes()(p, t);
    struct timespec v[2];
    return get_real_utimensat()(AT_FDCWD, p, virtual_now_times(NULL, v), 0);
}

WEFT_EXPORT int utime(const char *p, const struct utimbuf *t) {
    if (!weft_engaged() || WEFT_OPAQUE(t)) return get_real_utime()(p, t);
    struct timespec v[2];
    return get_real_utimensat()(AT_FDCWD, p, virtual_now_times(NULL, v), 0);
}
