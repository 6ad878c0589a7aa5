/*
 * hook_stat.c - file times in the run's virtual timeline (issue 18, item 3).
 *
 * The kernel stamps files with real time, so `gzip`, `tar`, `ls -l` and `make` saw today's date
 * in a run whose clock says 2000. The stat family reports every file time (atime, mtime, ctime,
 * statx's btime) of a file the run modified or stamped from the per-file table (file_times.c:
 * the writer's virtual instant, or the times a program set explicitly). Any other file goes
 * through one mapping, in this order:
 *   1. at or after the run's start (the root's real time, weft_run_start_real_ns): the file was
 *      touched during the run by the kernel (and the table had no room for it) => the caller's
 *      virtual now (realtime, read without advancing the clock);
 *   2. within the virtual window [2000-01-01, 2000-01-01 + 2 years): a time a run wrote => unchanged;
 *   3. anything else (files older than the run) => 1999-12-31 23:59:59, one instant "before the
 *      run": older files stay older than anything the run makes, without their real dates (which
 *      differ from host to host) reaching the program.
 * utimensat/futimens/utimes/utime/futimes/lutimes with "now" (NULL or UTIME_NOW) write the virtual
 * now; every successful call records the times it set in the table. ftruncate/truncate record a
 * modification. The host's files keep the times the kernel gives them, except those set here.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <utime.h>

#define NS 1000000000ULL

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
typedef int (*futimes_fn)(int, const struct timeval[2]);
typedef int (*ftruncate_fn)(int, off_t);
typedef int (*truncate_fn)(const char *, off_t);

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
REAL_FN(futimes_fn, futimes)
REAL_FN(utimes_fn, lutimes)
REAL_FN(ftruncate_fn, ftruncate)
REAL_FN(ftruncate_fn, ftruncate64)
REAL_FN(truncate_fn, truncate)
REAL_FN(truncate_fn, truncate64)

/* The mapping above on one (seconds, nanoseconds) pair. */
static void map_time(int64_t *sec, int64_t *nsec) {
    weft_file_time_map(sec, nsec, weft_run_start_real_ns, weft_cfg.real_base_ns + weft_mono_peek());
}

static void map_ts(struct timespec *ts) {
    int64_t s = ts->tv_sec, n = ts->tv_nsec;
    map_time(&s, &n);
    ts->tv_sec = (time_t)s;
    ts->tv_nsec = (long)n;
}

static int64_t ts_ns(int64_t sec, int64_t nsec) { return sec * (int64_t)NS + nsec; }

/* ns since the epoch -> (seconds, nanoseconds in [0, 1e9)) */
static void split_ns(int64_t t, int64_t *sec, int64_t *nsec) {
    *sec = t / (int64_t)NS;
    *nsec = t % (int64_t)NS;
    if (*nsec < 0) { *nsec += NS; *sec -= 1; }
}

static void put_ts(struct timespec *ts, int64_t t) {
    int64_t s, n;
    split_ns(t, &s, &n);
    ts->tv_sec = (time_t)s;
    ts->tv_nsec = (long)n;
}

/* The table's times for this file, if it has them (file_times.c binds modifications it did not
 * see to the reader's now, so later readers agree). */
static int table_times(uint64_t dev, uint64_t ino, int64_t kmtime, uint64_t size, weft_ft_times *v) {
    int in_run = weft_run_start_real_ns && kmtime >= (int64_t)weft_run_start_real_ns;
    return weft_ft_lookup(dev, ino, kmtime, size, in_run, v);
}

/* Applied after a successful real call; rc passes through. */
static int fix_stat(int rc, struct stat *st) {
    if (rc == 0 && st) {
        weft_ft_times v;
        if (table_times(st->st_dev, st->st_ino, ts_ns(st->st_mtim.tv_sec, st->st_mtim.tv_nsec),
                        (uint64_t)st->st_size, &v)) {
            put_ts(&st->st_atim, v.a);
            put_ts(&st->st_mtim, v.m);
            put_ts(&st->st_ctim, v.c);
            return rc;
        }
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

static void put_stx(struct statx_timestamp *t, int64_t ns) {
    int64_t s, n;
    split_ns(ns, &s, &n);
    t->tv_sec = s;
    t->tv_nsec = (uint32_t)n;
}

#define STATX_KEYED (STATX_INO | STATX_SIZE | STATX_MTIME)

static int fix_statx(int rc, struct statx *sx) {
    if (rc != 0 || !sx) return rc;
    weft_ft_times v;
    if ((sx->stx_mask & STATX_KEYED) == STATX_KEYED &&
        table_times(makedev(sx->stx_dev_major, sx->stx_dev_minor), sx->stx_ino,
                    ts_ns(sx->stx_mtime.tv_sec, sx->stx_mtime.tv_nsec), sx->stx_size, &v)) {
        if (sx->stx_mask & STATX_ATIME) put_stx(&sx->stx_atime, v.a);
        put_stx(&sx->stx_mtime, v.m);
        if (sx->stx_mask & STATX_CTIME) put_stx(&sx->stx_ctime, v.c);
        if (sx->stx_mask & STATX_BTIME) put_stx(&sx->stx_btime, v.b);
        return rc;
    }
    if (sx->stx_mask & STATX_ATIME) map_stx(&sx->stx_atime);
    if (sx->stx_mask & STATX_MTIME) map_stx(&sx->stx_mtime);
    if (sx->stx_mask & STATX_CTIME) map_stx(&sx->stx_ctime);
    if (sx->stx_mask & STATX_BTIME) map_stx(&sx->stx_btime);
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

/*
 * After a successful set: the table takes the times exactly as asked (t[] never has UTIME_NOW
 * here), bound to what the kernel now says about the file. An omitted mtime keeps what readers
 * saw until now; an omitted atime keeps the previous one.
 */
static int record_set(int rc, int dfd, const char *p, int fl, const struct timespec t[2]) {
    if (rc != 0) return rc;
    int saved = errno;
    struct stat after;
    long r = p ? weft_real_syscall(SYS_newfstatat, dfd, p, &after, fl & (AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH), 0, 0)
               : weft_real_syscall(SYS_fstat, dfd, &after, 0, 0, 0, 0);
    if (r == 0) {
        int64_t a = ts_ns(t[0].tv_sec, t[0].tv_nsec), m = ts_ns(t[1].tv_sec, t[1].tv_nsec);
        if (t[1].tv_nsec == UTIME_OMIT) {
            struct stat seen = after;
            fix_stat(0, &seen);
            m = ts_ns(seen.st_mtim.tv_sec, seen.st_mtim.tv_nsec);
        }
        weft_ft_times_set(&after, t[0].tv_nsec == UTIME_OMIT ? NULL : &a, m);
    }
    errno = saved;
    return rc;
}

/* utimensat(dfd, p, t, fl) - or futimens(dfd, t) when p is NULL - with "now" virtual, recorded
 * in the table (glibc's utimensat refuses a NULL path; its futimens is the fd form) */
static int set_times(int dfd, const char *p, const struct timespec *t, int fl) {
    struct timespec v[2];
    const struct timespec *eff = virtual_now_times(t, v);
    int rc = p ? get_real_utimensat()(dfd, p, eff, fl) : get_real_futimens()(dfd, eff);
    return record_set(rc, dfd, p, fl, eff);
}

/* timeval[2] (NULL: now) as timespec[2] for set_times */
static const struct timespec *from_timeval(const struct timeval *tv, struct timespec out[2]) {
    tv = WEFT_OPAQUE(tv);
    if (!tv) return NULL;
    for (int i = 0; i < 2; i++) {
        out[i].tv_sec = tv[i].tv_sec;
        out[i].tv_nsec = tv[i].tv_usec * 1000L;
    }
    return out;
}

WEFT_EXPORT int utimensat(int dfd, const char *p, const struct timespec t[2], int fl) {
    if (!weft_engaged() || !WEFT_OPAQUE(p)) return get_real_utimensat()(dfd, p, t, fl);
    return set_times(dfd, p, t, fl);
}

WEFT_EXPORT int futimens(int fd, const struct timespec t[2]) {
    if (!weft_engaged()) return get_real_futimens()(fd, t);
    return set_times(fd, NULL, t, 0);
}

WEFT_EXPORT int utimes(const char *p, const struct timeval t[2]) {
    if (!weft_engaged() || !WEFT_OPAQUE(p)) return get_real_utimes()(p, t);
    struct timespec ts[2];
    return set_times(AT_FDCWD, p, from_timeval(t, ts), 0);
}

WEFT_EXPORT int futimes(int fd, const struct timeval t[2]) {
    if (!weft_engaged()) return get_real_futimes()(fd, t);
    struct timespec ts[2];
    return set_times(fd, NULL, from_timeval(t, ts), 0);
}

WEFT_EXPORT int lutimes(const char *p, const struct timeval t[2]) {
    if (!weft_engaged() || !WEFT_OPAQUE(p)) return get_real_lutimes()(p, t);
    struct timespec ts[2];
    return set_times(AT_FDCWD, p, from_timeval(t, ts), AT_SYMLINK_NOFOLLOW);
}

WEFT_EXPORT int utime(const char *p, const struct utimbuf *t) {
    if (!weft_engaged() || !WEFT_OPAQUE(p)) return get_real_utime()(p, t);
    t = WEFT_OPAQUE(t);
    struct timespec ts[2] = {{t ? t->actime : 0, 0}, {t ? t->modtime : 0, 0}};
    return set_times(AT_FDCWD, p, t ? ts : NULL, 0);
}

/* ---------------------------------------------------------------- truncation */

/* After a successful truncate: a modification at the caller's virtual now (regular files). */
static int record_truncate(int rc, int fd, const char *p) {
    if (rc != 0 || !weft_engaged()) return rc;
    int saved = errno;
    struct stat st;
    if ((p ? weft_real_syscall(SYS_newfstatat, AT_FDCWD, p, &st, 0, 0, 0)
           : weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0)) == 0)
        weft_ft_modified(&st);
    errno = saved;
    return rc;
}

WEFT_EXPORT int ftruncate(int fd, off_t len) { return record_truncate(get_real_ftruncate()(fd, len), fd, NULL); }
WEFT_EXPORT int ftruncate64(int fd, off_t len) { return record_truncate(get_real_ftruncate64()(fd, len), fd, NULL); }
WEFT_EXPORT int truncate(const char *p, off_t len) { return record_truncate(get_real_truncate()(p, len), -1, p); }
WEFT_EXPORT int truncate64(const char *p, off_t len) { return record_truncate(get_real_truncate64()(p, len), -1, p); }
