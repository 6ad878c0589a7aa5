/*
 * hook_procfs.c - which CPU the process runs on, and what its own /proc accounting files say
 * (issue 18, item 4: "getcpu/sched_getcpu, getrusage, times and /proc/self/stat timings answered
 * consistently").
 *
 * The simulated machine has one CPU: the scheduler runs exactly one managed thread at a time, and
 * rdtscp's ECX (hook_tsc.c) already says CPU 0. So:
 *   getcpu     sched_getcpu() and getcpu() (glibc reads them from the rseq area or the vDSO,
 *              past any system call hook) answer CPU 0, node 0; syscall(SYS_getcpu) and a raw
 *              getcpu caught by the backstop come here too.
 *   /proc      opening (open family, fopen) one of the process's own accounting files
 *              - /proc/self/stat, /proc/<own pid>/stat, /proc/thread-self/stat,
 *                /proc/self/task/<tid>/stat, /proc/<own pid>/task/<tid>/stat (and schedstat and
 *                statm for each of them), and /proc/uptime -
 *              gives a memfd filled at the open with the real file's text, its timing fields
 *              replaced by the values times()/getrusage() give at the same instant (hook_proc.c):
 *                utime      the CPU time (one clock observation - the image's start) in 100 Hz ticks
 *                stime, cutime, cstime, guest_time, cguest_time, delayacct_blkio_ticks   0
 *                minflt, cminflt, majflt, cmajflt   0 (getrusage zeroes them: host facts)
 *                rss        0 (which pages are resident is the host kernel's doing; statm's
 *                           resident and shared fields likewise read 0, and smaps' and
 *                           smaps_rollup's kB figures but the mapping sizes)
 *                starttime  the image's start in ticks since the virtual boot (monotonic 0)
 *                processor  0
 *                pid (tid), ppid, pgrp, session   as getpid/gettid/getppid/getpgid/getsid say
 *              schedstat is "<CPU time in ns> 0 1" (on the CPU all its life, never waiting, one
 *              slice), /proc/uptime "<monotonic seconds, 2 decimals> 0.00", so ps's elapsed time
 *              (uptime - starttime) equals the CPU time, as the shim's model says.
 *              Everything else (state, memory sizes, addresses, signals) is the real text, read
 *              through /proc/self or /proc/thread-self (see proc_target).
 * Only absolute paths are recognised; a write or O_PATH/O_DIRECTORY open goes to the real file.
 * An error reading the real text is the open's error. Where memfd_create is refused the real file
 * is opened instead (traced). fopen gets its FILE from fdopen: the one allocation, which fopen
 * itself would make.
 *
 * Safety: every buffer is on the caller's stack (a fixed 2 KiB for the real text and 2 KiB for the
 * answer), so concurrent threads and a signal handler interrupting an open each have their own;
 * the only shared state read is the clock (an atomic observation) and the image's start (written
 * once, before main). No allocation, no lock; system calls are raw (weft_real_syscall).
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NS 1000000000ULL
#define TICK_NS (NS / 100)         /* sysconf(_SC_CLK_TCK) = 100, as times() counts (hook_proc.c) */
#define PROC_TEXT_MAX 2048         /* a stat line is ~350 bytes; the longest possible is ~1100 */

/* ---------------------------------------------------------------- getcpu */

typedef int (*sched_getcpu_fn)(void);
typedef int (*getcpu_fn)(unsigned *, unsigned *);
REAL_FN(sched_getcpu_fn, sched_getcpu)
REAL_FN(getcpu_fn, getcpu)

WEFT_EXPORT int sched_getcpu(void) {
    if (!weft_engaged()) return get_real_sched_getcpu()();
    WEFT_TRACE("sched_getcpu", "-> %d", 0);
    return 0;
}

/* The kernel writes each pointer it is given (NULL ones are skipped); a bad one is EFAULT there,
 * a crash here, as with the other hooks that fill caller memory. */
WEFT_EXPORT int getcpu(unsigned *cpu, unsigned *node) {
    if (!weft_engaged()) return get_real_getcpu()(cpu, node);
    cpu = WEFT_OPAQUE(cpu);
    node = WEFT_OPAQUE(node);
    if (cpu) *cpu = 0;
    if (node) *node = 0;
    WEFT_TRACE("getcpu", "-> %d", 0);
    return 0;
}

/* ---------------------------------------------------------------- which files */

enum proc_file { PF_NONE, PF_STAT, PF_STATM, PF_SMAPS, PF_SMAPS_ROLLUP, PF_SCHEDSTAT, PF_UPTIME };

/* What a path names: the file, whose it is (field 1 of stat: the pid, or the tid of a task file),
 * and the real file that describes it. Under weft run's PID namespace /proc is still the host's
 * mount, so /proc/<pid>/ and /proc/self/task/<tid>/ in the program's numbering name other
 * processes there: the real text is always read through /proc/self or /proc/thread-self. */
typedef struct proc_target {
    enum proc_file file;
    long id;
    const char *real; /* the path the real text is read from */
} proc_target;

static long raw_id(long nr) { return weft_real_syscall(nr, 0, 0, 0, 0, 0, 0); }

/* Skips "<digits>/" at *p; returns the number (-1 when there is none). */
static long take_number(const char **p) {
    const char *s = *p;
    long v = 0;
    if (*s < '0' || *s > '9') return -1;
    while (*s >= '0' && *s <= '9') {
        if (v > 0x7fffffff) return -1;
        v = v * 10 + (*s++ - '0');
    }
    if (*s != '/') return -1;
    *p = s + 1;
    return v;
}

static int starts(const char **p, const char *prefix) {
    size_t n = strlen(prefix);
    if (strncmp(*p, prefix, n) != 0) return 0;
    *p += n;
    return 1;
}

/* The leaf of a process's or thread's directory, with the real file for it. */
static proc_target leaf(const char *p, long id, int thread_self) {
    proc_target t = {PF_NONE, id, NULL};
    if (!strcmp(p, "stat")) {
        t.file = PF_STAT;
        t.real = thread_self ? "/proc/thread-self/stat" : "/proc/self/stat";
    } else if (!strcmp(p, "statm")) {
        t.file = PF_STATM;
        t.real = thread_self ? "/proc/thread-self/statm" : "/proc/self/statm";
    } else if (!strcmp(p, "smaps")) {
        t.file = PF_SMAPS;
        t.real = thread_self ? "/proc/thread-self/smaps" : "/proc/self/smaps";
    } else if (!strcmp(p, "smaps_rollup")) {
        t.file = PF_SMAPS_ROLLUP;
        t.real = thread_self ? "/proc/thread-self/smaps_rollup" : "/proc/self/smaps_rollup";
    } else if (!strcmp(p, "schedstat")) {
        t.file = PF_SCHEDSTAT;
        t.real = thread_self ? "/proc/thread-self/schedstat" : "/proc/self/schedstat";
    }
    return t;
}

/* The file a path names, when it is one of ours (system calls only for /proc paths of a process). */
static proc_target target_of(const char *path) {
    const proc_target none = {PF_NONE, 0, NULL};
    const char *p = path;
    if (!p || !starts(&p, "/proc/")) return none;
    if (!strcmp(p, "uptime")) return (proc_target){PF_UPTIME, 0, "/proc/uptime"};
    if (starts(&p, "thread-self/")) return leaf(p, raw_id(SYS_gettid), 1);
    long pid = raw_id(SYS_getpid);
    if (!starts(&p, "self/") && take_number(&p) != pid) return none;
    if (!starts(&p, "task/")) return leaf(p, pid, 0);
    long tid = take_number(&p);
    if (tid == raw_id(SYS_gettid)) return leaf(p, tid, 1);
    /* another thread of ours (signal 0 only checks that it exists in this thread group): its
     * timing fields are the process's anyway, so the process's text serves */
    if (tid < 0 || weft_real_syscall(SYS_tgkill, pid, tid, 0, 0, 0, 0) != 0) return none;
    return leaf(p, tid, 0);
}

/* Read-only opens only: anything else goes to the real file and gets the real answer. */
static int read_only(int flags) {
    return (flags & O_ACCMODE) == O_RDONLY && !(flags & (O_PATH | O_DIRECTORY | O_CREAT | O_TRUNC));
}

/* ---------------------------------------------------------------- the answer's text */

typedef struct text {
    char *buf;
    int len, cap;
} text;

static void put_bytes(text *t, const char *s, int n) {
    for (int i = 0; i < n && t->len < t->cap; i++) t->buf[t->len++] = s[i];
}

static void put_u64(text *t, uint64_t v) {
    char d[20];
    int n = 0;
    do { d[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n && t->len < t->cap) t->buf[t->len++] = d[--n];
}

/* The values a stat line takes from the shim's model rather than from the kernel. */
typedef struct stat_model {
    long id;           /* field 1: the pid (tid) in the program's own numbering */
    uint64_t cpu_ns;   /* the CPU time, from one clock reading */
} stat_model;

/* The value stat's field `field` (1-based, proc(5)) takes instead of the real one; 0 = keep it. */
static int stat_field(int field, const stat_model *m, int64_t *v) {
    switch (field) {
    /* the process's relatives, as getppid/getpgid/getsid say in the caller's PID namespace (the
     * host's /proc mount numbers them in the host's) */
    case 4: *v = raw_id(SYS_getppid); return 1;
    case 5: *v = weft_real_syscall(SYS_getpgid, 0, 0, 0, 0, 0, 0); return 1;
    case 6: *v = weft_real_syscall(SYS_getsid, 0, 0, 0, 0, 0, 0); return 1;
    case 10: case 11: case 12: case 13:          /* minflt, cminflt, majflt, cmajflt */
    case 15: case 16: case 17:                   /* stime, cutime, cstime */
    case 39:                                     /* processor */
    case 42: case 43: case 44:                   /* delayacct_blkio_ticks, guest_time, cguest_time */
    case 24:                                     /* rss: resident pages are the host's (see rewrite_statm) */
        *v = 0;
        return 1;
    case 14: *v = (int64_t)(m->cpu_ns / TICK_NS); return 1;            /* utime */
    case 22: *v = (int64_t)(weft_mono_origin / TICK_NS); return 1;     /* starttime */
    default: return 0;
    }
}

static void put_i64(text *t, int64_t v) {
    if (v < 0) put_bytes(t, "-", 1);
    put_u64(t, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* The real stat line with the fields above replaced. The command name (field 2) is in parentheses
 * and may hold spaces and ')', so it runs from the first '(' to the last ')'. */
static void rewrite_stat(const char *in, int n, text *out, const stat_model *m) {
    const char *open = memchr(in, '(', (size_t)n);
    int close = n - 1;
    while (close >= 0 && in[close] != ')') close--;
    if (!open || close < open - in) { put_bytes(out, in, n); return; } /* not a stat line: unchanged */
    put_i64(out, m->id);
    put_bytes(out, " ", 1);
    put_bytes(out, open, (int)(in + close + 1 - open));
    int i = close + 1, field = 2;
    while (i < n && in[i] != '\n') {
        if (in[i] == ' ') { put_bytes(out, " ", 1); i++; field++; continue; }
        int start = i;
        while (i < n && in[i] != ' ' && in[i] != '\n') i++;
        int64_t v;
        if (stat_field(field, m, &v)) put_i64(out, v);
        else put_bytes(out, in + start, i - start);
    }
    put_bytes(out, "\n", 1);
}

/* statm is "size resident shared text lib data dt" in pages. Which pages are resident (and shared
 * with the page cache) is the host kernel's doing, so a program that prints its RSS (redis-server's
 * INFO used_memory_rss) would differ from run to run: resident and shared read 0. The sizes of the
 * mappings (size, text, data) are the program's own doing and stay the real ones. */
static void rewrite_statm(const char *in, int n, text *out) {
    int i = 0, field = 1;
    while (i < n && in[i] != '\n') {
        if (in[i] == ' ') { put_bytes(out, " ", 1); i++; field++; continue; }
        int start = i;
        while (i < n && in[i] != ' ' && in[i] != '\n') i++;
        if (field == 2 || field == 3) put_bytes(out, "0", 1);
        else put_bytes(out, in + start, i - start);
    }
    put_bytes(out, "\n", 1);
}

/* "<seconds>.<hundredths> 0.00": /proc/uptime's shape, the idle time 0 (the CPU never idles). */
static void put_uptime(text *t, uint64_t mono_ns) {
    uint64_t hundredths = mono_ns % NS / TICK_NS;
    put_u64(t, mono_ns / NS);
    char frac[3] = {'.', (char)('0' + hundredths / 10), (char)('0' + hundredths % 10)};
    put_bytes(t, frac, 3);
    put_bytes(t, " 0.00\n", 6);
}

/* ---------------------------------------------------------------- serving it */

/* The whole of a (small) real file; its length, or -1 with errno. */
static int read_real(const char *path, char *buf, int cap) {
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (fd < 0) return -1;
    int n = 0;
    while (n < cap) {
        long r = weft_real_syscall(SYS_read, fd, buf + n, cap - n, 0, 0, 0);
        if (r <= 0) break;
        n += (int)r;
    }
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    return n;
}

/* A memfd holding `t`, positioned at its start; -1 when memfd_create is refused. */
static int memfd_with(const text *t, int flags) {
    long fd = weft_real_syscall(SYS_memfd_create, "weft-proc", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0, 0, 0, 0, 0);
    if (fd < 0) return -1;
    int off = 0;
    while (off < t->len) {
        long w = weft_real_syscall(SYS_write, fd, t->buf + off, t->len - off, 0, 0, 0);
        if (w <= 0) break;
        off += (int)w;
    }
    weft_real_syscall(SYS_lseek, fd, 0, SEEK_SET, 0, 0, 0);
    return (int)fd;
}

/* smaps (and smaps_rollup) lines "Key:   <n> kB" say how much of a mapping is resident, dirty,
 * shared or swapped: the host kernel's doing, like statm's resident field (redis-server's RDB child
 * reports its copy-on-write size from Private_Dirty, and it differed by a page from run to run).
 * Those numbers read 0; the mapping's own sizes (Size, KernelPageSize, MMUPageSize) and every other
 * line stay as the kernel wrote them. */
static int keeps_its_number(const char *line, int n) {
    static const char *const kept[] = {"Size:", "KernelPageSize:", "MMUPageSize:"};
    for (unsigned k = 0; k < sizeof kept / sizeof kept[0]; k++) {
        int len = (int)strlen(kept[k]);
        if (n >= len && !memcmp(line, kept[k], (size_t)len)) return 1;
    }
    return 0;
}

/* One smaps line (without its newline) to the memfd, its number zeroed when it is a kB figure. */
static void put_smaps_line(long fd, const char *line, int n) {
    char out[PROC_TEXT_MAX];
    text t = {out, 0, sizeof out};
    int colon = 0;
    while (colon < n && line[colon] != ':' && line[colon] != ' ') colon++;
    int kb = n > 3 && !memcmp(line + n - 3, " kB", 3) && colon < n && line[colon] == ':';
    if (!kb || keeps_its_number(line, n) || n >= PROC_TEXT_MAX) {
        weft_real_syscall(SYS_write, fd, line, n, 0, 0, 0);
    } else {
        int i = colon + 1;
        put_bytes(&t, line, i);
        while (i < n && line[i] == ' ') put_bytes(&t, line + i++, 1);
        put_bytes(&t, "0 kB", 4);
        weft_real_syscall(SYS_write, fd, t.buf, t.len, 0, 0, 0);
    }
    weft_real_syscall(SYS_write, fd, "\n", 1, 0, 0, 0);
}

/* The real smaps text, line by line through a fixed buffer, into a fresh memfd (the file is far
 * larger than the other ones: a line at a time). The memfd, or -1 with errno. */
static int smaps_memfd(const char *real_path, int flags) {
    long in = weft_real_syscall(SYS_openat, AT_FDCWD, real_path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (in < 0) return -1; /* the real file's error, in errno */
    long fd = weft_real_syscall(SYS_memfd_create, "weft-proc", (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0, 0, 0, 0, 0);
    if (fd < 0) { /* nowhere to put the answer: the real file, as without the shim */
        WEFT_TRACE("open", "%s: memfd_create refused, real file", real_path);
        return (int)in;
    }
    char buf[PROC_TEXT_MAX * 2];
    int have = 0;
    for (;;) {
        long r = weft_real_syscall(SYS_read, in, buf + have, (long)sizeof buf - have, 0, 0, 0);
        if (r > 0) have += (int)r;
        int start = 0;
        for (int i = 0; i < have; i++) {
            if (buf[i] != '\n') continue;
            put_smaps_line(fd, buf + start, i - start);
            start = i + 1;
        }
        if (start == 0 && have == (int)sizeof buf) { /* a line longer than the buffer: as it is */
            weft_real_syscall(SYS_write, fd, buf, have, 0, 0, 0);
            have = 0;
            continue;
        }
        memmove(buf, buf + start, (size_t)(have - start));
        have -= start;
        if (r <= 0) break;
    }
    if (have > 0) weft_real_syscall(SYS_write, fd, buf, have, 0, 0, 0);
    weft_real_syscall(SYS_close, in, 0, 0, 0, 0, 0);
    weft_real_syscall(SYS_lseek, fd, 0, SEEK_SET, 0, 0, 0);
    return (int)fd;
}

/* An open of `path` with `flags`: an fd or -1 with errno when the path is one of ours, else
 * WEFT_PROCFS_NOT_OURS (the caller makes the real call). */
int weft_procfs_open(const char *path, int flags) {
    if (!read_only(flags)) return WEFT_PROCFS_NOT_OURS;
    proc_target tg = target_of(path);
    if (tg.file == PF_NONE) return WEFT_PROCFS_NOT_OURS;
    if (tg.file == PF_SMAPS || tg.file == PF_SMAPS_ROLLUP) {
        int saved_errno = errno;
        int fd = smaps_memfd(tg.real, flags);
        if (fd >= 0) errno = saved_errno;
        WEFT_TRACE("open", "%s -> %d (resident figures 0)", path, fd);
        return fd;
    }
    char real[PROC_TEXT_MAX], answer[PROC_TEXT_MAX];
    int saved = errno;
    int n = read_real(tg.real, real, sizeof real);
    if (n < 0) return -1; /* the real file's error (ENOENT where schedstat is not built in, ...) */
    text t = {answer, 0, sizeof answer};
    stat_model m = {tg.id, weft_cpu_observe()}; /* one clock reading, as times() and getrusage() take */
    switch (tg.file) {
    case PF_STAT: rewrite_stat(real, n, &t, &m); break;
    case PF_STATM: rewrite_statm(real, n, &t); break;
    case PF_SCHEDSTAT: put_u64(&t, m.cpu_ns); put_bytes(&t, " 0 1\n", 5); break;
    default: put_uptime(&t, weft_mono_origin + m.cpu_ns); break; /* that same reading */
    }
    int fd = memfd_with(&t, flags);
    if (fd < 0) { /* nowhere to put the answer: the real file, as without the shim */
        WEFT_TRACE("open", "%s: memfd_create refused, real file", path);
        errno = saved;
        return (int)weft_real_syscall(SYS_openat, AT_FDCWD, path, flags, 0, 0, 0);
    }
    errno = saved;
    WEFT_TRACE("open", "%s -> %d (CPU time %lu ns)", path, fd, (unsigned long)m.cpu_ns);
    return fd;
}

/* fopen of one of ours: returns 1 and sets *out (the FILE, or NULL with errno); 0 when not ours.
 * Only the reading modes ("r", "re", "rb", ...); the FILE is made by fdopen, as fopen itself
 * allocates one. */
int weft_procfs_fopen(const char *path, const char *mode, struct _IO_FILE **out) {
    if (!mode || mode[0] != 'r' || strchr(mode, '+')) return 0;
    int fd = weft_procfs_open(path, O_RDONLY | (strchr(mode, 'e') ? O_CLOEXEC : 0));
    if (fd == WEFT_PROCFS_NOT_OURS) return 0;
    FILE *f = fd < 0 ? NULL : fdopen(fd, mode);
    if (fd >= 0 && !f) weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    *out = f;
    return 1;
}
