/*
 * hook_proc.c - what glibc would otherwise answer from the kernel behind the preload's back
 * (issue 18, "no escapes through glibc internals"):
 *
 *   CPU time   clock(), times(), getrusage() make their own system calls inside libc, so hooking
 *              clock_gettime does not reach them. They answer from the virtual clock: the process
 *              is taken to have been on the CPU (user time) for all of its virtual life, i.e.
 *              CPU time = a clock observation - the clock when the process began. All three (and
 *              clock_gettime(CLOCK_PROCESS_CPUTIME_ID) in a process that did not inherit a clock)
 *              therefore agree, and each reading advances the clock by 1 us like any other.
 *   temp names mkstemp and friends fill their XXXXXX from a raw getrandom system call inside
 *              glibc. Here the six characters come from stream 7 (ours), and the file/directory is
 *              created with raw system calls (O_CREAT|O_EXCL, mkdir), retrying on EEXIST as glibc
 *              does, so names are a function of the seed and of what already exists.
 *
 * Shape (docs/shim.md "How a hook is built"): real function resolved once; weft_engaged() first;
 * no allocation except where the function's contract is to return allocated memory (tempnam's
 * string, tmpfile's FILE, both made by libc after our part is done); every system call of ours is
 * weft_real_syscall, never a hooked libc function.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

typedef clock_t (*clock_fn)(void);
typedef clock_t (*times_fn)(struct tms *);
typedef int (*getrusage_fn)(int, struct rusage *);
typedef int (*mkstemp_fn)(char *);
typedef int (*mkostemp_fn)(char *, int);
typedef int (*mkstemps_fn)(char *, int);
typedef int (*mkostemps_fn)(char *, int, int);
typedef char *(*mkdtemp_fn)(char *);
typedef char *(*mktemp_fn)(char *);
typedef char *(*tmpnam_fn)(char *);
typedef char *(*tempnam_fn)(const char *, const char *);
typedef FILE *(*tmpfile_fn)(void);

REAL_FN(clock_fn, clock)
REAL_FN(times_fn, times)
REAL_FN(getrusage_fn, getrusage)
REAL_FN(mkstemp_fn, mkstemp)
REAL_FN(mkstemp_fn, mkstemp64)
REAL_FN(mkostemp_fn, mkostemp)
REAL_FN(mkostemp_fn, mkostemp64)
REAL_FN(mkstemps_fn, mkstemps)
REAL_FN(mkstemps_fn, mkstemps64)
REAL_FN(mkostemps_fn, mkostemps)
REAL_FN(mkostemps_fn, mkostemps64)
REAL_FN(mkdtemp_fn, mkdtemp)
REAL_FN(mktemp_fn, mktemp)
REAL_FN(tmpnam_fn, tmpnam)
REAL_FN(tmpnam_fn, tmpnam_r)
REAL_FN(tempnam_fn, tempnam)
REAL_FN(tmpfile_fn, tmpfile)
REAL_FN(tmpfile_fn, tmpfile64)

/* ---------------------------------------------------------------- CPU time */

uint64_t weft_mono_origin; /* the clock when this process image began (0 unless inherited) */

uint64_t weft_cpu_observe(void) {
    uint64_t m = weft_mono_observe();
    return m > weft_mono_origin ? m - weft_mono_origin : 0;
}

WEFT_EXPORT clock_t clock(void) {
    if (!weft_engaged()) return get_real_clock()();
    uint64_t cpu = weft_cpu_observe();
    clock_t c = (clock_t)(cpu / (1000000000ULL / CLOCKS_PER_SEC));
    WEFT_TRACE("clock", "-> %ld", (long)c);
    weft_timer_poll(); /* a CPU-time read is a look at the clock: due timers (ITIMER_PROF too) fire */
    return c;
}

/* times(): user time = the CPU time above, system and children's times 0, and the return value
 * (elapsed ticks since an arbitrary point) the monotonic clock, both in sysconf(_SC_CLK_TCK) = 100
 * ticks per second (the Linux x86-64 value, fixed by the kernel ABI). */
#define WEFT_CLK_TCK 100ULL
WEFT_EXPORT clock_t times(struct tms *t) {
    if (!weft_engaged()) return get_real_times()(t);
    uint64_t cpu = weft_cpu_observe();
    t = WEFT_OPAQUE(t);
    if (t) {
        t->tms_utime = (clock_t)(cpu / (1000000000ULL / WEFT_CLK_TCK));
        t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
    }
    clock_t r = (clock_t)(weft_mono_peek() / (1000000000ULL / WEFT_CLK_TCK));
    WEFT_TRACE("times", "-> %ld", (long)r);
    weft_timer_poll();
    return r;
}

/* getrusage(): every field is zero except ru_utime (the CPU time above, for RUSAGE_SELF and
 * RUSAGE_THREAD; zero for RUSAGE_CHILDREN). Memory and fault counters are host facts that vary
 * run to run, so they are not passed through either. */
WEFT_EXPORT int getrusage(int who, struct rusage *u) {
    if (!weft_engaged()) return get_real_getrusage()(who, u);
    u = WEFT_OPAQUE(u);
    if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD) { errno = EINVAL; return -1; }
    if (!u) { errno = EFAULT; return -1; }
    memset(u, 0, sizeof *u);
    if (who != RUSAGE_CHILDREN) {
        uint64_t cpu = weft_cpu_observe();
        u->ru_utime.tv_sec = (time_t)(cpu / 1000000000ULL);
        u->ru_utime.tv_usec = (suseconds_t)(cpu % 1000000000ULL / 1000);
    }
    WEFT_TRACE("getrusage", "%d", who);
    weft_timer_poll();
    return 0;
}

/* ---------------------------------------------------------------- temp names */

enum { T_FILE, T_DIR, T_NAME };

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* 62^3 attempts, as glibc allows, before giving up with EEXIST. */
#define TEMP_ATTEMPTS (62 * 62 * 62)

/*
 * Fills the six X before `suffix` characters of tmpl from stream 7 and creates what `kind` asks
 * for. Returns the fd (T_FILE), 0 (T_DIR, T_NAME) or -1 with errno. Stack only: the name is
 * edited in place, the retry loop keeps no state but the attempt count.
 */
static int gen_temp(char *tmpl, int suffix, int flags, int kind) {
    tmpl = WEFT_OPAQUE(tmpl);
    if (!tmpl) { errno = EINVAL; return -1; }
    size_t len = strlen(tmpl);
    if (suffix < 0 || len < 6 + (size_t)suffix ||
        memcmp(tmpl + len - 6 - suffix, "XXXXXX", 6) != 0) { errno = EINVAL; return -1; }
    char *x = tmpl + len - 6 - suffix;
    int saved = errno;
    for (int attempt = 0; attempt < TEMP_ATTEMPTS; attempt++) {
        uint64_t r = weft_stream_u64(WEFT_S_TEMPNAME);
        for (int i = 0; i < 6; i++) { x[i] = letters[r % 62]; r /= 62; }
        long rc;
        if (kind == T_FILE) {
            rc = weft_real_syscall(SYS_openat, AT_FDCWD, tmpl,
                                   (flags & ~O_ACCMODE) | O_RDWR | O_CREAT | O_EXCL, 0600, 0, 0);
        } else if (kind == T_DIR) {
            rc = weft_real_syscall(SYS_mkdirat, AT_FDCWD, tmpl, 0700, 0, 0, 0);
        } else {
            struct stat st;
            rc = weft_real_syscall(SYS_newfstatat, AT_FDCWD, tmpl, &st, AT_SYMLINK_NOFOLLOW, 0, 0);
            if (rc < 0 && errno == ENOENT) rc = 0;
            else if (rc == 0) { rc = -1; errno = EEXIST; }
        }
        /* weft_real_syscall: -1 with errno set on failure */
        if (rc >= 0) { errno = saved; return (int)rc; }
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

#define MKSTEMP_HOOK(name, params, args, tmpl, suffix, flags)                       \
    WEFT_EXPORT int name params {                                                    \
        if (!weft_engaged()) return get_real_##name() args;                          \
        int fd = gen_temp(tmpl, suffix, flags, T_FILE);                              \
        WEFT_TRACE(#name, "%s -> %d", fd >= 0 ? tmpl : "?", fd);                     \
        return fd;                                                                   \
    }

MKSTEMP_HOOK(mkstemp, (char *t), (t), t, 0, 0)
MKSTEMP_HOOK(mkstemp64, (char *t), (t), t, 0, 0)
MKSTEMP_HOOK(mkostemp, (char *t, int f), (t, f), t, 0, f)
MKSTEMP_HOOK(mkostemp64, (char *t, int f), (t, f), t, 0, f)
MKSTEMP_HOOK(mkstemps, (char *t, int s), (t, s), t, s, 0)
MKSTEMP_HOOK(mkstemps64, (char *t, int s), (t, s), t, s, 0)
MKSTEMP_HOOK(mkostemps, (char *t, int s, int f), (t, s, f), t, s, f)
MKSTEMP_HOOK(mkostemps64, (char *t, int s, int f), (t, s, f), t, s, f)

WEFT_EXPORT char *mkdtemp(char *t) {
    if (!weft_engaged()) return get_real_mkdtemp()(t);
    int rc = gen_temp(t, 0, 0, T_DIR);
    WEFT_TRACE("mkdtemp", "-> %s", rc == 0 ? t : "(null)");
    return rc == 0 ? t : NULL;
}

/* mktemp: on failure the template becomes the empty string (glibc's contract). */
WEFT_EXPORT char *mktemp(char *t) {
    if (!weft_engaged()) return get_real_mktemp()(t);
    t = WEFT_OPAQUE(t);
    if (gen_temp(t, 0, 0, T_NAME) != 0 && t) t[0] = '\0';
    WEFT_TRACE("mktemp", "-> %s", t ? t : "(null)");
    return t;
}

/* tmpnam: P_tmpdir "/" + "file" + six characters, as glibc forms it; NULL uses a static buffer. */
static char tmpnam_buf[L_tmpnam];

static char *tmpnam_into(char *s) {
    char name[] = P_tmpdir "/fileXXXXXX";
    if (gen_temp(name, 0, 0, T_NAME) != 0) return NULL;
    memcpy(s, name, sizeof name);
    return s;
}

WEFT_EXPORT char *tmpnam(char s[L_tmpnam]) {
    if (!weft_engaged()) return get_real_tmpnam()(s);
    char *r = tmpnam_into(s ? s : tmpnam_buf);
    WEFT_TRACE("tmpnam", "-> %s", r ? r : "(null)");
    return r;
}

WEFT_EXPORT char *tmpnam_r(char s[L_tmpnam]) {
    if (!weft_engaged()) return get_real_tmpnam_r()(s);
    return s ? tmpnam_into(s) : NULL;
}

static int is_dir(const char *d) {
    struct stat st;
    return d && weft_real_syscall(SYS_newfstatat, AT_FDCWD, d, &st, 0, 0, 0) == 0 && S_ISDIR(st.st_mode);
}

/*
 * tempnam: the directory is $TMPDIR, else dir, else P_tmpdir, else /tmp (the first that is a
 * directory, glibc's order); the prefix is at most 5 characters of pfx, "file" when NULL. The
 * result is malloc'ed: that is the function's contract (the caller frees it).
 */
WEFT_EXPORT char *tempnam(const char *dir, const char *pfx) {
    if (!weft_engaged()) return get_real_tempnam()(dir, pfx);
    const char *d = getenv("TMPDIR");
    if (!is_dir(d)) d = dir;
    if (!is_dir(d)) d = P_tmpdir;
    if (!is_dir(d)) d = "/tmp";
    if (!pfx) pfx = "file";
    size_t dl = strlen(d), pl = strnlen(pfx, 5);
    while (dl > 1 && d[dl - 1] == '/') dl--;
    char name[4096];
    if (dl + 1 + pl + 6 + 1 > sizeof name) { errno = ENAMETOOLONG; return NULL; }
    memcpy(name, d, dl);
    name[dl] = '/';
    memcpy(name + dl + 1, pfx, pl);
    memcpy(name + dl + 1 + pl, "XXXXXX", 7);
    if (gen_temp(name, 0, 0, T_NAME) != 0) return NULL;
    WEFT_TRACE("tempnam", "-> %s", name);
    return strdup(name);
}

/*
 * tmpfile: an unnamed O_TMPFILE file in P_tmpdir (no name, so nothing random), else a seeded
 * mkstemp name unlinked at once. fdopen allocates the FILE, as tmpfile itself would.
 */
static FILE *tmpfile_seeded(void) {
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, P_tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600, 0, 0);
    if (fd < 0) {
        char name[] = P_tmpdir "/tmpfXXXXXX";
        fd = gen_temp(name, 0, O_CLOEXEC, T_FILE);
        if (fd < 0) return NULL;
        weft_real_syscall(SYS_unlinkat, AT_FDCWD, name, 0, 0, 0, 0);
    }
    FILE *f = fdopen((int)fd, "w+");
    if (!f) weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    WEFT_TRACE("tmpfile", "-> fd %ld", f ? fd : -1L);
    return f;
}

WEFT_EXPORT FILE *tmpfile(void) {
    if (!weft_engaged()) return get_real_tmpfile()();
    return tmpfile_seeded();
}

WEFT_EXPORT FILE *tmpfile64(void) {
    if (!weft_engaged()) return get_real_tmpfile64()();
    return tmpfile_seeded();
}
