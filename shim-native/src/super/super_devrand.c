/*
 * super_devrand.c - /dev/urandom and /dev/random opened by a supervised static program.
 *
 * A read-only open of either path (absolute, as libcs and runtimes spell it) is answered with the
 * read end of a pipe the supervisor keeps filled: the k-th such open in a process reads its own
 * stream 0x20000000 + k keyed for the process, so what an fd yields does not depend on when the
 * supervisor refilled which pipe. The fd is installed into the caller as the open's result in one
 * step (SECCOMP_IOCTL_NOTIF_ADDFD with SECCOMP_ADDFD_FLAG_SEND, Linux 5.14+).
 *
 * Refills are 4096-byte writes (PIPE_BUF: all or nothing on a non-blocking pipe), drawn once and
 * kept until written, so no byte of a stream is skipped. The pipe holds 64 KiB: a read up to that
 * size returns in full unless the program reads faster than the supervisor refills (then it
 * returns fewer bytes, still the stream's next ones, as a pipe may).
 * Differences from the device, documented: fstat says FIFO, and a fork child shares its parent's
 * pipe (their reads interleave in real time).
 */
#include "super.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_PIPES 256
#define CHUNK 4096            /* PIPE_BUF */
#define STREAM_BASE 0x20000000ULL

typedef struct devrand_pipe {
    int wfd;                  /* our end; -1: free */
    weft_chacha g;
    unsigned char chunk[CHUNK];
    int have;                 /* chunk holds bytes drawn but not yet written */
} devrand_pipe;

static devrand_pipe pipes[MAX_PIPES];
static int npipes;

/* Writes whole chunks until the pipe is full. Returns 0, or -1 when the readers are gone. */
static int refill(devrand_pipe *d) {
    for (;;) {
        if (!d->have) {
            weft_chacha_fill(&d->g, d->chunk, CHUNK);
            d->have = 1;
        }
        if (write(d->wfd, d->chunk, CHUNK) != CHUNK) return errno == EAGAIN ? 0 : -1;
        d->have = 0;
    }
}

static void drop(devrand_pipe *d) {
    close(d->wfd);
    d->wfd = -1;
}

/* The path argument, if it is exactly /dev/urandom or /dev/random. */
static int is_random_device(pid_t tid, uint64_t addr) {
    char path[16] = {0};
    struct iovec local = {path, 13}, remote = {(void *)(uintptr_t)addr, 13};
    /* a shorter readable prefix (the string ends near the end of a mapping) is compared as it is */
    if (process_vm_readv(tid, &local, 1, &remote, 1, 0) <= 0) return 0;
    return strcmp(path, "/dev/urandom") == 0 || strcmp(path, "/dev/random") == 0;
}

int super_devrand_open(super_proc *p, int listener, const struct seccomp_notif *n) {
    uint64_t path = n->data.nr == SYS_open ? n->data.args[0] : n->data.args[1];
    uint64_t flags = n->data.nr == SYS_open ? n->data.args[1] : n->data.args[2];
    if ((flags & O_ACCMODE) != O_RDONLY || !is_random_device((pid_t)n->pid, path)) return 0;
    devrand_pipe *d = NULL;
    for (int i = 0; i < npipes && !d; i++)
        if (pipes[i].wfd < 0) d = &pipes[i];
    if (!d && npipes < MAX_PIPES) d = &pipes[npipes++];
    int fds[2];
    if (!d || pipe2(fds, O_CLOEXEC) != 0) return 0; /* out of room: the real device */
    /* the caller's O_NONBLOCK belongs to its end; ours never blocks the supervisor */
    fcntl(fds[0], F_SETFL, (int)(flags & O_NONBLOCK));
    fcntl(fds[1], F_SETFL, O_NONBLOCK);
    d->wfd = fds[1];
    d->have = 0;
    weft_chacha_init(&d->g, p->key, STREAM_BASE + p->devrand_opens++);
    refill(d);
    struct seccomp_notif_addfd add = {.id = n->id, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = (uint32_t)fds[0],
                                      .newfd_flags = (uint32_t)(flags & O_CLOEXEC)};
    int remote = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
    int err = errno;
    close(fds[0]);
    if (remote < 0) {
        drop(d);
        return err == ENOENT; /* the caller died: nothing left to answer */
    }
    super_stats.devrand++;
    WEFT_TRACE("super devrand", "%d, fd %d", (int)p->tgid, remote);
    return 1;
}

int super_devrand_pollfds(struct pollfd *pf, int cap) {
    int k = 0;
    for (int i = 0; i < npipes && k < cap; i++) {
        if (pipes[i].wfd < 0) continue;
        pf[k].fd = pipes[i].wfd;
        pf[k].events = POLLOUT;
        pf[k].revents = 0;
        k++;
    }
    return k;
}

void super_devrand_service(const struct pollfd *pf, int n) {
    for (int k = 0; k < n; k++) {
        if (!pf[k].revents) continue;
        for (int i = 0; i < npipes; i++) {
            if (pipes[i].wfd != pf[k].fd) continue;
            if ((pf[k].revents & (POLLERR | POLLHUP)) || refill(&pipes[i]) < 0) drop(&pipes[i]);
            break;
        }
    }
}
