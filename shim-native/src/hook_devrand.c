/*
 * hook_devrand.c - /dev/urandom and /dev/random (spec §7.2 streams 2 and 0x10000000+k).
 *
 * open*() of exactly one of the two device paths opens /dev/null instead and remembers the fd
 * in a lock-free bitmap; read/pread on such an fd fill the buffer from the dev-random stream.
 * dup/dup2/dup3/fcntl(F_DUPFD*) copy the mark (closing a reference gap). fopen("r...") gets a
 * private stream per FILE through fopencookie, so stdio read-ahead of one FILE can never
 * consume bytes another thread would have seen. The same opens of the process's own /proc
 * accounting files are answered by hook_procfs.c.
 */
#include "weft.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*open_fn)(const char *, int, ...);
typedef int (*openat_fn)(int, const char *, int, ...);
typedef int (*open2_fn)(const char *, int);
typedef int (*openat2_fn)(int, const char *, int);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*read_chk_fn)(int, void *, size_t, size_t);
typedef ssize_t (*pread_chk_fn)(int, void *, size_t, off_t, size_t);
typedef int (*close_fn)(int);
typedef int (*dup_fn)(int);
typedef int (*dup2_fn)(int, int);
typedef int (*dup3_fn)(int, int, int);
typedef int (*fcntl_fn)(int, int, ...);
typedef FILE *(*fopen_fn)(const char *, const char *);

REAL_FN(open_fn, open)
REAL_FN(open_fn, open64)
REAL_FN(openat_fn, openat)
REAL_FN(openat_fn, openat64)
REAL_FN(open2_fn, __open_2)
REAL_FN(open2_fn, __open64_2)
REAL_FN(openat2_fn, __openat_2)
REAL_FN(openat2_fn, __openat64_2)
REAL_FN(read_fn, read)
REAL_FN(pread_fn, pread)
REAL_FN(pread_fn, pread64)
REAL_FN(read_chk_fn, __read_chk)
REAL_FN(pread_chk_fn, __pread_chk)
REAL_FN(pread_chk_fn, __pread64_chk)
REAL_FN(close_fn, close)
REAL_FN(dup_fn, dup)
REAL_FN(dup2_fn, dup2)
REAL_FN(dup3_fn, dup3)
REAL_FN(fcntl_fn, fcntl)
REAL_FN(fcntl_fn, fcntl64)
REAL_FN(fopen_fn, fopen)
REAL_FN(fopen_fn, fopen64)

/* ------------------------------------------------------------ fd bitmap */

#define MAX_TRACKED_FD 65536
static _Atomic uint64_t rand_fds[MAX_TRACKED_FD / 64];

int weft_devrand_is_fd(int fd) {
    if (fd < 0 || fd >= MAX_TRACKED_FD) return 0;
    return (atomic_load_explicit(&rand_fds[fd / 64], memory_order_relaxed) >> (fd % 64)) & 1;
}

static void mark_fd(int fd, int on) {
    if (fd < 0 || fd >= MAX_TRACKED_FD) return;
    uint64_t bit = 1ULL << (fd % 64);
    if (on) atomic_fetch_or_explicit(&rand_fds[fd / 64], bit, memory_order_relaxed);
    else atomic_fetch_and_explicit(&rand_fds[fd / 64], ~bit, memory_order_relaxed);
}

static int is_rand_path(const char *p) {
    return p && (!strcmp(p, "/dev/urandom") || !strcmp(p, "/dev/random"));
}

/* Open /dev/null in place of a random device; the flags keep only what matters for an fd. */
static int open_stand_in(int flags) {
    int fd = (int)weft_real_syscall(SYS_openat, AT_FDCWD, "/dev/null",
                                    O_RDONLY | (flags & (O_CLOEXEC | O_NONBLOCK)), 0, 0, 0);
    if (fd >= 0) {
        if (fd >= MAX_TRACKED_FD) { /* cannot track it: refuse rather than leak real entropy */
            weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
            errno = EMFILE;
            return -1;
        }
        mark_fd(fd, 1);
    }
    return fd;
}

static int wants_mode(int flags) { return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE; }

/* The one optional argument after `last` in a variadic hook: va_start must run in the hook itself,
 * so this is a statement expression there rather than a function. */
#define NEXT_VARARG(last, type) ({ \
        va_list ap_; \
        va_start(ap_, last); \
        type v_ = va_arg(ap_, type); \
        va_end(ap_); \
        v_; })

#define OPEN_BODY(realcall) \
    if (weft_engaged() && is_rand_path(path)) { \
        int fd = open_stand_in(flags); \
        WEFT_TRACE("open", "%s -> %d", path, fd); \
        return fd; \
    } \
    int proc_fd_ = weft_engaged() ? weft_procfs_open(path, flags) : WEFT_PROCFS_NOT_OURS; \
    if (proc_fd_ != WEFT_PROCFS_NOT_OURS) return proc_fd_; \
    return weft_ft_opened(realcall, flags); /* a create or truncate: file_times.c */

WEFT_EXPORT int open(const char *path, int flags, ...) {
    mode_t mode = wants_mode(flags) ? NEXT_VARARG(flags, mode_t) : 0;
    OPEN_BODY(get_real_open()(path, flags, mode))
}

WEFT_EXPORT int open64(const char *path, int flags, ...) {
    mode_t mode = wants_mode(flags) ? NEXT_VARARG(flags, mode_t) : 0;
    OPEN_BODY(get_real_open64()(path, flags, mode))
}

WEFT_EXPORT int openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = wants_mode(flags) ? NEXT_VARARG(flags, mode_t) : 0;
    OPEN_BODY(get_real_openat()(dirfd, path, flags, mode))
}

WEFT_EXPORT int openat64(int dirfd, const char *path, int flags, ...) {
    mode_t mode = wants_mode(flags) ? NEXT_VARARG(flags, mode_t) : 0;
    OPEN_BODY(get_real_openat64()(dirfd, path, flags, mode))
}

/* _FORTIFY_SOURCE variants */
WEFT_EXPORT int __open_2(const char *path, int flags) { OPEN_BODY(get_real___open_2()(path, flags)) }
WEFT_EXPORT int __open64_2(const char *path, int flags) { OPEN_BODY(get_real___open64_2()(path, flags)) }
WEFT_EXPORT int __openat_2(int d, const char *path, int flags) { OPEN_BODY(get_real___openat_2()(d, path, flags)) }
WEFT_EXPORT int __openat64_2(int d, const char *path, int flags) { OPEN_BODY(get_real___openat64_2()(d, path, flags)) }

static ssize_t rand_read(int fd, void *buf, size_t n) {
    if (!buf && n) { errno = EFAULT; return -1; }
    weft_stream_fill(WEFT_S_DEVRANDOM, buf, n);
    WEFT_TRACE("read", "random fd %d, %zu", fd, n);
    return (ssize_t)n;
}

/* write hook lives in faults.c; read is here because only random fds change reads. */
WEFT_EXPORT ssize_t read(int fd, void *buf, size_t n) {
    if (weft_devrand_is_fd(fd) && weft_engaged()) return rand_read(fd, buf, n);
    if (weft_net_is_fd(fd)) return weft_engaged() ? weft_net_read(fd, buf, n) : weft_net_reentered();
    if (weft_vtimer_of_fd(fd) >= 0 && weft_engaged()) return weft_timerfd_read(fd, buf, n);
    if (weft_io_before_read(fd) < 0) return -1;
    return get_real_read()(fd, buf, n);
}

WEFT_EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off) {
    if (weft_devrand_is_fd(fd) && weft_engaged()) return rand_read(fd, buf, n);
    return get_real_pread()(fd, buf, n, off);
}

WEFT_EXPORT ssize_t pread64(int fd, void *buf, size_t n, off_t off) {
    if (weft_devrand_is_fd(fd) && weft_engaged()) return rand_read(fd, buf, n);
    return get_real_pread64()(fd, buf, n, off);
}

WEFT_EXPORT ssize_t __read_chk(int fd, void *buf, size_t n, size_t cap) {
    if (weft_devrand_is_fd(fd) && weft_engaged() && n <= cap) return rand_read(fd, buf, n);
    if (weft_net_is_fd(fd) && n <= cap) return weft_engaged() ? weft_net_read(fd, buf, n) : weft_net_reentered();
    if (weft_vtimer_of_fd(fd) >= 0 && weft_engaged() && n <= cap) return weft_timerfd_read(fd, buf, n);
    if (weft_io_before_read(fd) < 0) return -1;
    return get_real___read_chk()(fd, buf, n, cap);
}

WEFT_EXPORT ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t cap) {
    if (weft_devrand_is_fd(fd) && weft_engaged() && n <= cap) return rand_read(fd, buf, n);
    return get_real___pread_chk()(fd, buf, n, off, cap);
}

WEFT_EXPORT ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t cap) {
    if (weft_devrand_is_fd(fd) && weft_engaged() && n <= cap) return rand_read(fd, buf, n);
    return get_real___pread64_chk()(fd, buf, n, off, cap);
}

WEFT_EXPORT int close(int fd) {
    /* unmark first: once the real close returns, the number may be reused by another open */
    if (weft_devrand_is_fd(fd)) mark_fd(fd, 0);
    if (weft_net_is_fd(fd)) weft_net_close(fd);
    weft_vtimer_fd_forget(fd);
    return get_real_close()(fd);
}

WEFT_EXPORT int dup(int fd) {
    int r = get_real_dup()(fd);
    if (r >= 0) mark_fd(r, weft_devrand_is_fd(fd));
    if (r >= 0 && weft_tcp_is_fd(fd)) weft_tcp_dup(fd, r);
    return r;
}

/* fd is open (dup2 onto another fd will replace `to`) */
static int fcntl_ok(int fd) { return weft_real_syscall(SYS_fcntl, fd, F_GETFD, 0, 0, 0, 0) >= 0; }

/* A simulated TCP socket at `to` is given up before the real call (an SO_LINGER {1,0} reset must
 * go out on its own stream); a UDP one after it. */
WEFT_EXPORT int dup2(int fd, int to) {
    if (to != fd && weft_tcp_is_fd(to) && fcntl_ok(fd)) weft_tcp_forget(to);
    int r = get_real_dup2()(fd, to);
    if (r >= 0 && r != fd && weft_net_is_fd(r)) weft_net_forget(r); /* the old socket at `to` is gone */
    if (r >= 0 && r != fd) weft_vtimer_fd_forget(r);                 /* and so is a timerfd there */
    if (r >= 0) mark_fd(r, weft_devrand_is_fd(fd));
    if (r >= 0 && r != fd && weft_tcp_is_fd(fd)) weft_tcp_dup(fd, r);
    return r;
}

WEFT_EXPORT int dup3(int fd, int to, int flags) {
    if (to != fd && weft_tcp_is_fd(to) && fcntl_ok(fd)) weft_tcp_forget(to);
    int r = get_real_dup3()(fd, to, flags);
    if (r >= 0 && weft_net_is_fd(r)) weft_net_forget(r);
    if (r >= 0) weft_vtimer_fd_forget(r);
    if (r >= 0) mark_fd(r, weft_devrand_is_fd(fd));
    if (r >= 0 && weft_tcp_is_fd(fd)) weft_tcp_dup(fd, r);
    return r;
}

/* fcntl's third argument is passed as a register-sized value whatever its type. */
static int fcntl_common(fcntl_fn f, int fd, int cmd, void *arg) {
    if ((cmd == F_GETFL || cmd == F_SETFL) && weft_net_is_fd(fd) && weft_engaged())
        return weft_net_fcntl(fd, cmd, (long)arg);
    int r = f(fd, cmd, arg);
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) mark_fd(r, weft_devrand_is_fd(fd));
    if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && weft_tcp_is_fd(fd)) weft_tcp_dup(fd, r);
    return r;
}

WEFT_EXPORT int fcntl(int fd, int cmd, ...) {
    return fcntl_common(get_real_fcntl(), fd, cmd, NEXT_VARARG(cmd, void *));
}

WEFT_EXPORT int fcntl64(int fd, int cmd, ...) {
    return fcntl_common(get_real_fcntl64(), fd, cmd, NEXT_VARARG(cmd, void *));
}

/* ------------------------------------------------------------ stdio: one stream per FILE */

#define COOKIE_POOL 64
typedef struct rand_cookie {
    atomic_int in_use;
    int mmapped;
    weft_chacha g;      /* private: only touched under the FILE's own stdio lock */
} rand_cookie;

static rand_cookie cookie_pool[COOKIE_POOL];
static _Atomic uint64_t fopen_count;

static rand_cookie *cookie_alloc(void) {
    for (int i = 0; i < COOKIE_POOL; i++) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&cookie_pool[i].in_use, &expect, 1)) {
            cookie_pool[i].mmapped = 0;
            return &cookie_pool[i];
        }
    }
    /* pool exhausted: a raw anonymous mapping (never malloc from a hook) */
    void *p = (void *)weft_real_syscall(SYS_mmap, NULL, sizeof(rand_cookie), PROT_READ | PROT_WRITE,
                                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    rand_cookie *c = p;
    c->mmapped = 1;
    return c;
}

static ssize_t cookie_read(void *cookie, char *buf, size_t n) {
    weft_chacha_fill(&((rand_cookie *)cookie)->g, buf, n);
    return (ssize_t)n;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t n) {
    (void)cookie; (void)buf;
    return (ssize_t)n; /* writing to a random device only "mixes entropy": accept and drop */
}

static int cookie_close(void *cookie) {
    rand_cookie *c = cookie;
    if (c->mmapped) weft_real_syscall(SYS_munmap, c, sizeof(rand_cookie), 0, 0, 0, 0);
    else atomic_store(&c->in_use, 0);
    return 0;
}

static FILE *rand_fopen(const char *path, const char *mode) {
    rand_cookie *c = cookie_alloc();
    if (!c) { errno = ENOMEM; return NULL; }
    uint64_t k = atomic_fetch_add(&fopen_count, 1);
    weft_chacha_init(&c->g, weft_cfg.key, 0x10000000ULL + k);
    cookie_io_functions_t io = {cookie_read, cookie_write, NULL, cookie_close};
    FILE *f = fopencookie(c, mode, io);
    if (!f) cookie_close(c);
    WEFT_TRACE("fopen", "%s stream %lu", path, (unsigned long)k);
    return f;
}

/* fopen "w..." truncates and "a..." may create: recorded like open's O_TRUNC / O_CREAT (file_times.c) */
static FILE *fopened(FILE *f, const char *mode) {
    if (f && mode && (mode[0] == 'w' || mode[0] == 'a'))
        weft_ft_opened(fileno(f), mode[0] == 'w' ? O_TRUNC : O_CREAT);
    return f;
}

WEFT_EXPORT FILE *fopen(const char *path, const char *mode) {
    if (mode && mode[0] == 'r' && is_rand_path(path) && weft_engaged()) return rand_fopen(path, mode);
    FILE *proc_file;
    if (weft_engaged() && weft_procfs_fopen(path, mode, &proc_file)) return proc_file;
    return fopened(get_real_fopen()(path, mode), mode);
}

WEFT_EXPORT FILE *fopen64(const char *path, const char *mode) {
    if (mode && mode[0] == 'r' && is_rand_path(path) && weft_engaged()) return rand_fopen(path, mode);
    FILE *proc_file;
    if (weft_engaged() && weft_procfs_fopen(path, mode, &proc_file)) return proc_file;
    return fopened(get_real_fopen64()(path, mode), mode);
}
