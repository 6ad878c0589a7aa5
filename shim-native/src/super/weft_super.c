/*
 * weft_super - runs a program the preload cannot reach (statically linked, Go) with its clock,
 * sleeps, CPU time, getrandom, random devices and getcpu answered by the seeded engine
 * (docs/shim.md "Static binaries").
 *
 *   WEFT_SEED=N weft_super [--path FILE] [--] prog [args...]
 *
 * --path runs FILE with the argument vector that follows (argv[0] as given: busybox reads its applet
 * from it); without it prog is looked up in PATH. The shim's exec hook starts a static image exec'd
 * inside a shimmed tree this way, and the target then joins that tree (super_join.c).
 *
 * The child installs a seccomp filter whose listed system calls (SECCOMP_RET_USER_NOTIF) stop
 * and wait for this process, hands us the listener fd over a socketpair, and execs the target.
 * The filter is inherited by every fork and kept across every exec, so the whole process tree is
 * covered. For each notification we answer from the caller's own virtual clock and stream
 * (super_answer.c) or let the call continue unchanged. After each exec the vDSO of the new image
 * is rewritten into real system calls (super_vdso.c), so libc's clock reads reach the filter.
 * A dynamically linked image is left to the preloaded shim (its calls continue). weft run puts
 * the supervisor before its isolation wrappers (unshare, setarch, sh, env: dynamically linked, run
 * unsimulated), so /proc and the notifications' pids are in one PID namespace; the first static
 * image below them becomes the root of the tree (id 0, clock 0), as the target is under the shim.
 *
 * Exit status: the target's, a death by signal N as 128+N, 127 when it cannot be started. The
 * supervisor is built statically, so an LD_PRELOAD in its environment (meant for dynamically
 * linked descendants of the target) never loads the shim into the supervisor itself.
 */
#include "super.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SM_G 0x9E3779B97F4A7C15ULL
#define MAX_PROCS 4096   /* power of two: open addressing */
#define MAX_TIDS 16384   /* power of two */
#define MAX_CHILDREN 1024

/* The engine's exit hooks belong to the shim's other parts; the supervisor has none of them. */
void weft_sched_stats_at_exit(void) {}
void weft_net_at_exit(void) {}

/* The system calls the filter stops. Answered: the clock, CPU time, sleeps, getrandom, getcpu,
 * rseq. Watched and continued: process creation (a child's clock starts at its parent's fork),
 * exec and the first arch_prctl of a new image (every static startup sets its thread pointer
 * before reading the clock: the moment to rewrite the vDSO), exit_group (so a short-lived child is
 * numbered). open and openat are answered for the random devices only; the stat family is made
 * on the caller's behalf (super_stat.c). */
static const int notified[] = {
    SYS_getrandom, SYS_clock_gettime, SYS_clock_getres, SYS_gettimeofday, SYS_time,
    SYS_nanosleep, SYS_clock_nanosleep, SYS_getcpu, SYS_rseq, SYS_times, SYS_getrusage,
    SYS_clone, SYS_clone3, SYS_fork, SYS_vfork, SYS_execve, SYS_execveat, SYS_arch_prctl,
    SYS_exit_group, SYS_open, SYS_openat, SYS_stat, SYS_fstat, SYS_lstat, SYS_newfstatat, SYS_statx,
};
#define NNOTIFIED ((int)(sizeof notified / sizeof notified[0]))

static super_proc procs[MAX_PROCS];
static struct { pid_t tid, tgid; } tids[MAX_TIDS];
static pid_t root_pid;
static uint64_t orphans;
static int table_full_warned, vdso_warned;

/* ------------------------------------------------------------------ the filtered child */

static int install_filter(void) {
    struct sock_filter f[NNOTIFIED + 6];
    int k = 0;
    f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
    /* another ABI (int 0x80 from a 64-bit process) is let through: an escape, documented */
    f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
    for (int i = 0; i < NNOTIFIED; i++) /* a match jumps to the last instruction */
        f[k++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)notified[i],
                                              (unsigned char)(NNOTIFIED - i), 0);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    f[k++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
    struct sock_fprog prog = {(unsigned short)k, f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -errno;
    long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
    return fd < 0 ? -errno : (int)fd;
}

/* Sends the listener fd (or, on failure, only the errno) to the parent. */
static void send_listener(int sock, int fd) {
    int err = fd < 0 ? -fd : 0;
    struct iovec iov = {&err, sizeof err};
    union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (fd >= 0) {
        m.msg_control = ctl.buf;
        m.msg_controllen = sizeof ctl.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    while (sendmsg(sock, &m, 0) < 0 && errno == EINTR) {
    }
}

/* Runs FILE (exec_path) or argv[0] through PATH. */
static void exec_target(const char *exec_path, char **argv) {
    if (exec_path) execv(exec_path, argv);
    else execvp(argv[0], argv);
    weft_errline("weft_super: cannot run %s: %s", exec_path ? exec_path : argv[0], strerror(errno));
}

static void run_child(int sock, pid_t parent, const char *exec_path, char **argv) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* without us its notified calls would fail with ENOSYS */
    if (getppid() != parent) _exit(127);
    int fd = install_filter();
    send_listener(sock, fd);
    if (fd >= 0) close(fd);
    close(sock);
    /* the shim's exec hook leaves a static image below us to this supervisor (exec_static.c) */
    setenv("WEFT_SUPERVISED", "1", 1);
    exec_target(exec_path, argv);
    _exit(127);
}

static int receive_listener(int sock, int *err) {
    struct iovec iov = {err, sizeof *err};
    union { struct cmsghdr h; char buf[CMSG_SPACE(sizeof(int))]; } ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf};
    *err = EPIPE;
    ssize_t n;
    while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (n <= 0) return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

/* ------------------------------------------------------------------ the process table */

/* A small /proc/PID/<file> read into buf (NUL-terminated); length or -1. */
static ssize_t read_proc(pid_t pid, const char *what, void *buf, size_t cap) {
    char path[96];
    weft_fmt(path, sizeof path, "/proc/%d/%s", (int)pid, what);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, cap - 1);
    close(fd);
    if (n >= 0) ((char *)buf)[n] = 0;
    return n;
}

static pid_t status_field(pid_t pid, const char *field) {
    char buf[2048];
    if (read_proc(pid, "status", buf, sizeof buf) <= 0) return 0;
    const char *f = strstr(buf, field);
    return f ? (pid_t)atoi(f + strlen(field)) : 0;
}

/* Open addressing on the tgid: 0 ends a probe sequence, FREED (a reaped process) does not. */
#define FREED (-1)

static super_proc *find_proc(pid_t tgid) {
    for (unsigned i = (unsigned)tgid * 2654435761u, probes = 0; probes < MAX_PROCS; i++, probes++) {
        super_proc *p = &procs[i & (MAX_PROCS - 1)];
        if (p->tgid == tgid) return p;
        if (p->tgid == 0) return NULL;
    }
    return NULL;
}

static void free_proc(super_proc *p) {
    memset(p, 0, sizeof *p);
    p->tgid = FREED;
}

/* Gives p its place in the tree: the root draws the spec's streams, every other process is keyed
 * as proc_tree.c keys it; the clock starts at mono. */
static void place(super_proc *p, uint64_t id, uint64_t mono) {
    p->id = id;
    p->mono_ns = mono;
    weft_expand(id ? weft_sm_out(weft_cfg.seed ^ id) : weft_cfg.seed, p->key);
    weft_chacha_init(&p->entropy, p->key, WEFT_S_GETRANDOM);
}

static super_proc *new_proc(pid_t tgid, uint64_t id, uint64_t mono) {
    for (unsigned i = (unsigned)tgid * 2654435761u, probes = 0; probes < MAX_PROCS; i++, probes++) {
        super_proc *p = &procs[i & (MAX_PROCS - 1)];
        if (p->tgid != 0 && p->tgid != FREED) continue;
        p->tgid = tgid;
        place(p, id, mono);
        p->image_unchecked = 1;
        super_stats.processes++;
        return p;
    }
    if (!table_full_warned++)
        weft_errline("[weft] WARNING: supervisor: more than %d processes; the rest run unanswered", MAX_PROCS - 1);
    return NULL;
}

static int cmp_pid(const void *a, const void *b) {
    pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
    return (x > y) - (x < y);
}

/*
 * Numbers the children of P that are new: the n-th child of P is the one with the n-th smallest
 * pid (pids grow in creation order; every child stops here at least once, at its exit_group, so
 * none is skipped unless it dies by a signal before its first notified call). Its clock starts
 * at P's clock when P made its n-th process-creating clone.
 */
static void number_children(super_proc *parent) {
    char dirpath[64], buf[4096];
    pid_t kids[MAX_CHILDREN];
    int nk = 0;
    weft_fmt(dirpath, sizeof dirpath, "/proc/%d/task", (int)parent->tgid);
    DIR *d = opendir(dirpath);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && nk < MAX_CHILDREN) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        char what[96];
        weft_fmt(what, sizeof what, "task/%s/children", e->d_name);
        if (read_proc(parent->tgid, what, buf, sizeof buf) <= 0) continue;
        for (char *s = buf; *s && nk < MAX_CHILDREN;) {
            long v = strtol(s, &s, 10);
            if (v > 0) kids[nk++] = (pid_t)v;
            while (*s == ' ' || *s == '\n') s++;
        }
    }
    closedir(d);
    qsort(kids, (size_t)nk, sizeof kids[0], cmp_pid);
    for (int i = 0; i < nk; i++) {
        if (kids[i] <= parent->last_child || find_proc(kids[i])) continue;
        uint64_t n = ++parent->children;
        uint64_t id = weft_sm_out(parent->id ^ n * SM_G);
        int known = n - 1 < parent->forks && parent->forks - (n - 1) <= SUPER_FORK_CLOCKS;
        super_proc *c = new_proc(kids[i], id ? id : 1,
                                 known ? parent->fork_clock[(n - 1) % SUPER_FORK_CLOCKS] : parent->mono_ns);
        if (!c) return;
        c->parent = parent->tgid;
        c->origin_ns = parent->origin_ns; /* the same image goes on in the child */
        c->images = parent->images;
        c->wrapper = parent->wrapper;
        c->image_unchecked = parent->image_unchecked;
        c->shim_owned = parent->shim_owned;
        parent->last_child = kids[i];
    }
}

static super_proc *register_proc(pid_t tgid) {
    if (tgid == root_pid) {
        super_proc *p = new_proc(tgid, 0, 0);
        if (p) p->wrapper = 1;
        return p;
    }
    super_proc *parent = find_proc(status_field(tgid, "\nPPid:"));
    if (parent) {
        number_children(parent);
        super_proc *p = find_proc(tgid);
        if (p) return p;
    }
    /* the parent left the tree (or was never seen): a root of its own, numbered by arrival */
    uint64_t id = weft_sm_out(0x6f727068616eULL ^ ++orphans * SM_G);
    return new_proc(tgid, id ? id : 1, 0);
}

/* The process of a stopped thread. tid -> tgid is cached; an entry whose process was freed is a
 * reused pid (a new process) and is looked up again. */
static super_proc *proc_of_tid(pid_t tid) {
    unsigned i = (unsigned)tid * 2654435761u, probes = 0;
    for (; probes < MAX_TIDS; i++, probes++) {
        unsigned s = i & (MAX_TIDS - 1);
        if (tids[s].tid == tid) {
            super_proc *p = find_proc(tids[s].tgid);
            if (p) return p;
            break;
        }
        if (tids[s].tid == 0) break;
    }
    pid_t tgid = status_field(tid, "\nTgid:");
    if (tgid <= 0) return NULL;
    if (probes < MAX_TIDS) {
        unsigned s = i & (MAX_TIDS - 1);
        tids[s].tid = tid;
        tids[s].tgid = tgid;
    }
    super_proc *p = find_proc(tgid);
    return p ? p : register_proc(tgid);
}

/* ------------------------------------------------------------------ notifications */

/*
 * The 16 bytes the kernel put on the new image's stack for AT_RANDOM become the first 16 of the
 * process's stream 3, as the shim's getauxval(AT_RANDOM) answers. In time: static glibc and musl
 * read them for the stack protector and pointer guard only after setting the thread pointer (the
 * arch_prctl this runs at), Go copies them in runtime.args, also after.
 */
static void at_random_bytes(const super_proc *p, unsigned char bytes[16]) {
    weft_chacha aux;
    weft_chacha_init(&aux, p->key, WEFT_S_AUX);
    weft_chacha_fill(&aux, bytes, 16);
}

/* 1 when the image at tid still carries the AT_RANDOM bytes we wrote: an exec that failed (a
 * shell trying PATH entries) left the image we already prepared; a new one has the kernel's. */
static int same_image(const super_proc *p, pid_t tid, uint64_t addr) {
    unsigned char seeded[16], found[16];
    struct iovec local = {found, sizeof found}, remote = {(void *)(uintptr_t)addr, sizeof found};
    if (!p->images || process_vm_readv(tid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof found) return 0;
    at_random_bytes(p, seeded);
    return memcmp(seeded, found, sizeof found) == 0;
}

static void seed_at_random(const super_proc *p, pid_t tid, uint64_t addr) {
    unsigned char bytes[16];
    at_random_bytes(p, bytes);
    struct iovec local = {bytes, sizeof bytes}, remote = {(void *)(uintptr_t)addr, sizeof bytes};
    if (process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof bytes) super_stats.at_random++;
}

/*
 * After an exec: a dynamically linked image (an interpreter, AT_BASE != 0) is the shim's. A new
 * static one starts as a new image does under the shim: its clock goes on, CPU time counts from
 * here, its streams start from their beginning (same id, same key); its AT_RANDOM is seeded and its
 * vDSO rewritten.
 */
static void inspect_image(super_proc *p, pid_t tid) {
    uint64_t auxv[128], base = 0, vdso = 0, at_random = 0;
    ssize_t n = read_proc(tid, "auxv", auxv, sizeof auxv);
    p->image_unchecked = 0;
    for (ssize_t i = 0; i + 1 < n / 8; i += 2) {
        if (auxv[i] == AT_BASE) base = auxv[i + 1];
        if (auxv[i] == AT_SYSINFO_EHDR) vdso = auxv[i + 1];
        if (auxv[i] == AT_RANDOM) at_random = auxv[i + 1];
    }
    p->shim_owned = base != 0;
    if (p->shim_owned) {
        super_stats.shim_images++;
        return;
    }
    if (at_random && same_image(p, tid, at_random)) return;
    if (p->wrapper) { /* the target: the tree's root, as under the shim, or the exec'ing process's place */
        p->wrapper = 0;
        p->children = p->forks = 0;
        if (super_join.active) place(p, super_join.id, super_join.mono_ns);
        else place(p, 0, 0);
    }
    p->images++;
    p->origin_ns = p->mono_ns;
    p->devrand_opens = 0;
    weft_chacha_init(&p->entropy, p->key, WEFT_S_GETRANDOM);
    if (at_random) seed_at_random(p, tid, at_random);
    if (!vdso) return;
    int rc = super_vdso_patch(tid, vdso);
    if (rc > 0) {
        super_stats.vdso_images++;
        WEFT_TRACE("super vdso", "%d, %s", (int)p->tgid, super_vdso_names());
    } else if (rc < 0 && !vdso_warned++) {
        weft_errline("[weft] WARNING: supervisor: cannot rewrite the vDSO of pid %d (%s); clock readings"
                     " through it escape", (int)tid, strerror(-rc));
    }
}

/* Process creation is continued; note the parent's clock so the child starts there. */
static void note_clone(super_proc *p, const struct seccomp_notif *n) {
    uint64_t flags = n->data.args[0];
    if (n->data.nr == SYS_clone3) {
        struct iovec local = {&flags, sizeof flags}, remote = {(void *)(uintptr_t)n->data.args[0], sizeof flags};
        if (process_vm_readv((pid_t)n->pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof flags) return;
    }
    if ((n->data.nr == SYS_clone || n->data.nr == SYS_clone3) && (flags & CLONE_THREAD)) return;
    p->fork_clock[p->forks % SUPER_FORK_CLOCKS] = p->mono_ns;
    p->forks++;
}

/* A child that made exit_group: once reaped (its /proc entry gone; only P's own wait can do
 * that, in P's program order), P's clock advances to at least the child's last one, as the shim
 * does at waitpid (docs/shim.md "A parent learns its children's time"). Checked at P's stops. */
static void note_exit(super_proc *p) {
    super_proc *parent = p->exited ? NULL : find_proc(p->parent);
    p->exited = 1;
    if (parent) parent->unmerged++;
}

static void learn_reaped_children(super_proc *p) {
    for (int i = 0; i < MAX_PROCS && p->unmerged; i++) {
        super_proc *c = &procs[i];
        if (c->tgid <= 0 || c->parent != p->tgid || !c->exited) continue;
        char buf[16];
        if (read_proc(c->tgid, "stat", buf, sizeof buf) >= 0) continue; /* still a zombie */
        p->unmerged--;
        if (c->mono_ns > p->mono_ns) p->mono_ns = c->mono_ns;
        free_proc(c); /* gone for good: its slot serves a later process (pid order numbers them) */
    }
}

/* Returns 1 when the call was answered here (no response left to send). */
static int serve_one(int listener) {
    struct seccomp_notif req;
    memset(&req, 0, sizeof req); /* the kernel insists on a zeroed buffer */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) return 0; /* the caller died meanwhile */
    struct seccomp_notif_resp resp = {.id = req.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
    super_proc *p = proc_of_tid((pid_t)req.pid);
    if (p) {
        int exec = req.data.nr == SYS_execve || req.data.nr == SYS_execveat;
        if (p->image_unchecked && !exec) inspect_image(p, (pid_t)req.pid); /* the old image: skip */
        if (p->unmerged) learn_reaped_children(p);
        switch (req.data.nr) {
        case SYS_exit_group: note_exit(p); break;
        case SYS_open: case SYS_openat:
            if (!p->shim_owned && super_devrand_open(p, listener, &req)) return 1;
            break;
        case SYS_stat: case SYS_fstat: case SYS_lstat: case SYS_newfstatat: case SYS_statx:
            if (!p->shim_owned && super_stat(p, &req, &resp)) resp.flags = 0;
            break;
        case SYS_clone: case SYS_clone3: case SYS_fork: case SYS_vfork: note_clone(p, &req); break;
        case SYS_execve: case SYS_execveat: p->image_unchecked = 1; break;
        default:
            if (!p->shim_owned) {
                resp.flags = 0;
                super_answer(p, &req, &resp);
            }
        }
    }
    if (resp.flags) super_stats.continued++;
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: the caller was killed; nothing to do */
    return 1;
}

static void print_stats(void) {
    if (!weft_cfg.stats) return;
    weft_errline("[weft] supervisor: answered getrandom %lu, clock %lu, cputime %lu, sleep %lu, getcpu %lu,"
                 " rseq %lu (%lu as errors), random-device opens %lu, stat %lu; continued %lu; %lu process(es), vDSO rewritten in %lu image(s),"
                 " AT_RANDOM seeded in %lu, %lu dynamically linked image(s) left to the shim",
                 super_stats.getrandom, super_stats.clock, super_stats.cputime, super_stats.sleep,
                 super_stats.getcpu, super_stats.rseq, super_stats.failed, super_stats.devrand, super_stats.stat, super_stats.continued,
                 super_stats.processes, super_stats.vdso_images, super_stats.at_random, super_stats.shim_images);
}

/* Inside a shimmed tree: the target's last clock goes to the slot its parent reads (super_join.c). */
static uint64_t root_clock;
static void publish_root_clock(void) {
    super_proc *root = find_proc(root_pid);
    if (root) root_clock = root->mono_ns;
    if (root) super_join_publish(root->mono_ns);
}

static int exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

static volatile pid_t forward_to;
static void forward_signal(int sig) { if (forward_to > 0) kill(forward_to, sig); }

/*
 * Waits for a notification, the target's exit (pidfd, when >= 0) or a random-device pipe with
 * room, and handles what came. Returns 1 when no filtered task is left (the listener hung up).
 */
static int wait_and_serve(int listener, int pidfd) {
    struct pollfd pf[2 + 256];
    pf[0] = (struct pollfd){listener, POLLIN, 0};
    int k = 1;
    if (pidfd >= 0) pf[k++] = (struct pollfd){pidfd, POLLIN, 0};
    int pipes = super_devrand_pollfds(pf + k, (int)(sizeof pf / sizeof pf[0]) - k);
    if (poll(pf, (nfds_t)(k + pipes), -1) < 0) return 0; /* EINTR */
    super_devrand_service(pf + k, pipes);
    if (pf[0].revents & POLLIN) serve_one(listener);
    else if (pf[0].revents & (POLLHUP | POLLERR)) return 1;
    return 0;
}

static int has_hung_up(int listener) {
    struct pollfd pf = {listener, POLLIN, 0};
    return poll(&pf, 1, 0) == 1 && (pf.revents & POLLHUP) && !(pf.revents & POLLIN);
}

/*
 * Serves until the target exits, then returns its status. Descendants still running then
 * (started in the background) are served on by a detached copy of the supervisor until the last
 * of them is gone, so their notified calls never fail for want of an answer.
 */
/* Linux 6.6+: the notifying thread hands its CPU straight to us and back, instead of a wake-up
 * through the scheduler each way (not in older kernel headers, hence the numbers here). */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

static int serve(int listener, pid_t child) {
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP); /* best effort */
    int pidfd = (int)syscall(SYS_pidfd_open, child, 0); /* Linux 5.3+; the listener's hang-up ends it too */
    int status = 0;
    for (;;) {
        if (wait_and_serve(listener, pidfd)) {
            waitpid(child, &status, 0); /* every filtered task is gone, the target too */
            publish_root_clock();
            print_stats();
            super_turns_end(root_clock);
            return exit_code(status);
        }
        if (waitpid(child, &status, WNOHANG) == child) break;
    }
    publish_root_clock();
    print_stats();
    super_turns_end(root_clock); /* background descendants run on outside the tree's turns */
    if (has_hung_up(listener)) return exit_code(status);
    if (fork() == 0) { /* the detached copy: nothing printed, nothing flushed */
        setsid();
        while (!wait_and_serve(listener, -1)) {
        }
        _exit(0);
    }
    return exit_code(status);
}

int main(int argc, char **argv) {
    int first = 1;
    const char *exec_path = NULL;
    if (argc > 2 && strcmp(argv[1], "--path") == 0) {
        exec_path = argv[2];
        first = 3;
    }
    if (argc > first && strcmp(argv[first], "--") == 0) first++;
    if (first >= argc) {
        fprintf(stderr, "usage: WEFT_SEED=N weft_super [--path FILE] [--] prog [args...]\n");
        return 2;
    }
    char **target = argv + first;
    if (!weft_init()) { /* unseeded (or a malformed seed, already reported): do no harm */
        exec_target(exec_path, target);
        return 127;
    }
    super_join_configure();
    super_turns_begin(&super_join.mono_ns); /* a spawned image waits for its first turn */
    super_vdso_prepare();
    struct timespec now; /* unfiltered: the real clock. One second early, as proc_tree.c does: the
                          * kernel stamps files from its coarse clock, a tick behind */
    clock_gettime(CLOCK_REALTIME, &now);
    super_run_start_ns = ((uint64_t)now.tv_sec - 1) * 1000000000ULL + (uint64_t)now.tv_nsec;
    if (super_join.active) super_run_start_ns = super_join.run_start_ns; /* the tree's run began earlier */
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
        weft_errline("weft_super: socketpair: %s", strerror(errno));
        return 127;
    }
    pid_t self = getpid();
    pid_t child = fork();
    if (child < 0) {
        weft_errline("weft_super: fork: %s", strerror(errno));
        return 127;
    }
    if (child == 0) {
        close(sv[0]);
        run_child(sv[1], self, exec_path, target);
    }
    close(sv[1]);
    root_pid = child;
    forward_to = child;
    signal(SIGTERM, forward_signal);
    signal(SIGHUP, forward_signal);
    signal(SIGINT, SIG_IGN);  /* a terminal's ^C reaches the target directly (same process group) */
    signal(SIGQUIT, SIG_IGN);
    signal(SIGPIPE, SIG_IGN); /* a random-device pipe whose readers are gone: EPIPE, then dropped */
    int err = 0;
    int listener = receive_listener(sv[0], &err);
    close(sv[0]);
    if (listener < 0) {
        weft_errline("[weft] WARNING: seccomp user notification is not available here (%s); %s runs"
                     " unsimulated", strerror(err), target[0]);
        int status = 0;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        return exit_code(status);
    }
    super_turns_serving(listener, child);
    return serve(listener, child);
}
