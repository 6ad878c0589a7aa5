/*
 * super_stat.c - file times for a supervised static program, with the rule of hook_stat.c
 * (docs/shim.md "File times"): a time at or after the run's start is the process's virtual now
 * (read without advancing its clock); one inside the virtual window [2000-01-01, +2 years) was
 * written by a run and stays; anything older is 1999-12-31 23:59:59.
 *
 * The stopped call cannot be continued and then edited, so the supervisor makes it itself, on the
 * caller's behalf: a relative path is resolved from /proc/TID/cwd or /proc/TID/fd/N (opened
 * O_PATH: the caller's own directory or file, whatever it is), an absolute one as it is (weft run
 * changes no root or mount namespace), with the caller's flags. The supervisor runs as the same
 * user as the target, so it is allowed what the target is; errors are returned as the call's.
 * When it cannot stand in for the call (an fd that is not open, an unreadable path argument) the
 * call continues and the kernel answers it, with real times.
 */
#include "super.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

uint64_t super_run_start_ns;

/* One file time, in place. */
static void virtual_time(const super_proc *p, int64_t *sec, int64_t *nsec) {
    weft_file_time_map(sec, nsec, super_run_start_ns, weft_cfg.real_base_ns + p->mono_ns);
}

/* The path argument; 0 when it cannot be read whole (the kernel will say why). */
static int read_path(pid_t tid, uint64_t addr, char *out, size_t cap) {
    size_t got = 0;
    while (got < cap) {
        /* page by page: a string may end just before an unmapped page */
        size_t room = 4096 - (size_t)((addr + got) & 4095);
        if (room > cap - got) room = cap - got;
        struct iovec local = {out + got, room}, remote = {(void *)(uintptr_t)(addr + got), room};
        ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
        if (n <= 0) return 0;
        if (memchr(out + got, 0, (size_t)n)) return 1;
        got += (size_t)n;
    }
    return 0;
}

/* An O_PATH fd standing for the caller's dirfd (or its cwd); -1 when there is none. */
static int caller_dir(pid_t tid, int dirfd) {
    char proc[64];
    if (dirfd == AT_FDCWD) weft_fmt(proc, sizeof proc, "/proc/%d/cwd", (int)tid);
    else weft_fmt(proc, sizeof proc, "/proc/%d/fd/%d", (int)tid, dirfd);
    return open(proc, O_PATH | O_CLOEXEC);
}

int super_stat(super_proc *p, const struct seccomp_notif *n, struct seccomp_notif_resp *r) {
    pid_t tid = (pid_t)n->pid;
    const __u64 *a = n->data.args;
    int nr = n->data.nr, dirfd = AT_FDCWD, flags = 0;
    uint64_t path_addr = 0, buf = a[1];
    char path[PATH_MAX] = "";
    switch (nr) {
    case SYS_stat: path_addr = a[0]; break;
    case SYS_lstat: path_addr = a[0]; flags = AT_SYMLINK_NOFOLLOW; break;
    case SYS_fstat: dirfd = (int)a[0]; flags = AT_EMPTY_PATH; break;
    case SYS_newfstatat: dirfd = (int)a[0]; path_addr = a[1]; buf = a[2]; flags = (int)a[3]; break;
    default: /* statx */ dirfd = (int)a[0]; path_addr = a[1]; flags = (int)a[2]; buf = a[4]; break;
    }
    if (path_addr && !read_path(tid, path_addr, path, sizeof path)) return 0;
    if (!path_addr && !(flags & AT_EMPTY_PATH)) return 0;
    int base = AT_FDCWD;
    if (path[0] != '/' && (base = caller_dir(tid, dirfd)) < 0) return 0;
    int rc, err = 0;
    struct stat st;
    struct statx sx;
    if (nr == SYS_statx) {
        rc = statx(base, path, flags, (unsigned)a[3], &sx);
    } else {
        rc = fstatat(base, path, &st, flags);
    }
    if (rc) err = errno;
    if (base != AT_FDCWD) close(base);
    if (err) {
        r->error = -err;
        return 1;
    }
    struct iovec local, remote = {(void *)(uintptr_t)buf, 0};
    if (nr == SYS_statx) {
        struct statx_timestamp *ts[] = {&sx.stx_atime, &sx.stx_mtime, &sx.stx_ctime, &sx.stx_btime};
        for (int i = 0; i < 4; i++) {
            int64_t s = ts[i]->tv_sec, ns = ts[i]->tv_nsec;
            virtual_time(p, &s, &ns);
            ts[i]->tv_sec = s;
            ts[i]->tv_nsec = (uint32_t)ns;
        }
        local = (struct iovec){&sx, sizeof sx};
    } else {
        struct timespec *ts[] = {&st.st_atim, &st.st_mtim, &st.st_ctim};
        for (int i = 0; i < 3; i++) {
            int64_t s = ts[i]->tv_sec, ns = ts[i]->tv_nsec;
            virtual_time(p, &s, &ns);
            ts[i]->tv_sec = (time_t)s;
            ts[i]->tv_nsec = (long)ns;
        }
        local = (struct iovec){&st, sizeof st};
    }
    remote.iov_len = local.iov_len;
    if (process_vm_writev(tid, &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len) {
        r->error = -EFAULT;
        return 1;
    }
    super_stats.stat++;
    WEFT_TRACE("super stat", "%d, nr %d %s", (int)p->tgid, nr, path);
    return 1;
}
