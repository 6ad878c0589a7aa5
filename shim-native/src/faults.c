/*
 * faults.c - seed-deterministic file faults (per process), each off unless its variable is set:
 *   WEFT_FSYNC_LIES=1        fsync/fdatasync/syncfs/sync_file_range report success without syncing
 *   WEFT_ENOSPC_BYTES=N      after N bytes written to regular files (process total), writes are
 *                            cut short and then fail with ENOSPC
 *   WEFT_TORN_WRITES_PPM=P   each write to a regular file is torn with probability P/10^6: only a
 *                            seed-chosen non-empty prefix is written and the short count returned
 * Only write/pwrite/pwrite64 on fds > 2 that fstat says are regular files are affected (stdio's
 * own flushes call the kernel directly inside libc and are not seen). Draws come from stream 6.
 */
#include "weft.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*fsync_fn)(int);
typedef int (*sfr_fn)(int, off_t, off_t, unsigned);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

REAL_FN(fsync_fn, fsync)
REAL_FN(fsync_fn, fdatasync)
REAL_FN(fsync_fn, syncfs)
REAL_FN(sfr_fn, sync_file_range)
REAL_FN(write_fn, write)
REAL_FN(pwrite_fn, pwrite)
REAL_FN(pwrite_fn, pwrite64)

static _Atomic uint64_t bytes_written;

WEFT_EXPORT int fsync(int fd) {
    if (weft_engaged() && weft_cfg.fsync_lies) { WEFT_TRACE("fsync", "%d (lie)", fd); return 0; }
    return get_real_fsync()(fd);
}

WEFT_EXPORT int fdatasync(int fd) {
    if (weft_engaged() && weft_cfg.fsync_lies) { WEFT_TRACE("fdatasync", "%d (lie)", fd); return 0; }
    return get_real_fdatasync()(fd);
}

WEFT_EXPORT int syncfs(int fd) {
    if (weft_engaged() && weft_cfg.fsync_lies) return 0;
    return get_real_syncfs()(fd);
}

WEFT_EXPORT int sync_file_range(int fd, off_t off, off_t n, unsigned flags) {
    if (weft_engaged() && weft_cfg.fsync_lies) return 0;
    return get_real_sync_file_range()(fd, off, n, flags);
}

static int faulty_target(int fd) {
    if (fd <= 2 || weft_devrand_is_fd(fd)) return 0;
    struct stat st;
    if (weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0) != 0) return 0;
    return S_ISREG(st.st_mode);
}

/* How many of n bytes this write may really write; 0 with *fail set means fail with ENOSPC. */
static size_t allowed_bytes(int fd, size_t n, int *fail) {
    *fail = 0;
    if (n == 0 || !faulty_target(fd)) return n;
    size_t allow = n;
    if (weft_cfg.torn_ppm && (uint32_t)(weft_stream_u64(WEFT_S_FAULTS) % 1000000) < weft_cfg.torn_ppm && n > 1) {
        allow = 1 + (size_t)(weft_stream_u64(WEFT_S_FAULTS) % (n - 1)); /* 1..n-1 bytes */
        WEFT_TRACE("write", "%d torn %zu of %zu", fd, allow, n);
    }
    if (weft_cfg.enospc_bytes) {
        uint64_t before = atomic_fetch_add(&bytes_written, allow);
        if (before >= weft_cfg.enospc_bytes) { *fail = 1; atomic_fetch_sub(&bytes_written, allow); return 0; }
        if (before + allow > weft_cfg.enospc_bytes) {
            size_t room = (size_t)(weft_cfg.enospc_bytes - before);
            atomic_fetch_sub(&bytes_written, allow - room);
            allow = room;
        }
    }
    return allow;
}

static int faults_on(void) {
    return weft_engaged() && (weft_cfg.enospc_bytes || weft_cfg.torn_ppm);
}

/* Process scheduling: a write to an fd of the host (a file, a pipe, the terminal) is a process
 * yield point, so what other processes of the tree see of it depends on the seed. */
static void write_yield(void) {
    if (weft_engaged()) weft_pt_yield("write");
}

WEFT_EXPORT ssize_t write(int fd, const void *buf, size_t n) {
    if (weft_net_is_fd(fd)) return weft_engaged() ? weft_net_write(fd, buf, n) : weft_net_reentered();
    write_yield();
    if (!faults_on()) return weft_ft_wrote(fd, weft_io_write(fd, buf, n, get_real_write())); /* a full pipe: a process wait */
    int fail;
    size_t allow = allowed_bytes(fd, n, &fail);
    if (fail) { WEFT_TRACE("write", "%d ENOSPC", fd); errno = ENOSPC; return -1; }
    return weft_ft_wrote(fd, get_real_write()(fd, buf, allow));
}

/* pwrite and pwrite64 differ only in the libc function they end in, passed as its REAL_FN getter. */
static ssize_t faulty_pwrite(pwrite_fn (*real)(void), int fd, const void *buf, size_t n, off_t off) {
    write_yield();
    if (!faults_on()) return weft_ft_wrote(fd, real()(fd, buf, n, off));
    int fail;
    size_t allow = allowed_bytes(fd, n, &fail);
    if (fail) { errno = ENOSPC; return -1; }
    return weft_ft_wrote(fd, real()(fd, buf, allow, off));
}

WEFT_EXPORT ssize_t pwrite(int fd, const void *buf, size_t n, off_t off) {
    return faulty_pwrite(get_real_pwrite, fd, buf, n, off);
}

WEFT_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off) {
    return faulty_pwrite(get_real_pwrite64, fd, buf, n, off);
}
