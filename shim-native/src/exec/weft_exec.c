/*
 * weft_exec: the isolation `weft run` puts around a target, in one small exec instead of the
 * util-linux chain `setsid unshare --user --map-current-user --pid --fork --kill-child --mount-proc --
 * setarch -R sh -c INIT weft-init env LD_PRELOAD=... prog` (six execs per node, each loading its own
 * libraries). The guarantees are the chain's (docs/real-programs.md, docs/shim.md):
 *   - a fresh PID namespace whose PID 1 is this program's second process: it reaps orphans, keeps the
 *     init-only signal rules away from the target, and exits with the target's status (128+N for a death
 *     by signal N, like sh); the target is PID 2 and its children 3, 4, ... in creation order;
 *   - a /proc of that namespace (so /proc/<pid> names the tree's own processes);
 *   - the namespace dies with the outer process (--kill-child): PID 1 has PR_SET_PDEATHSIG(SIGKILL);
 *   - ASLR off (personality ADDR_NO_RANDOMIZE), inherited by every child;
 *   - only the final exec carries LD_PRELOAD, so this program itself runs unsimulated and prints nothing.
 *
 *   weft_exec [--setsid] [--pidns] [--no-aslr] [--preload VALUE] -- PROG ARGS...
 *   weft_exec --probe      prints "pidns=<0..4> aslr=<0|1>": which namespace recipe works here (0: none)
 *
 * Recipes, in util-linux's probing order: 1 user+pid+mount namespaces (unprivileged, with /proc),
 * 2 user+pid, 3 pid+mount (root without user namespaces), 4 pid. --pidns=K uses recipe K.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static const int RECIPES[5] = {
    0,
    CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS,
    CLONE_NEWUSER | CLONE_NEWPID,
    CLONE_NEWPID | CLONE_NEWNS,
    CLONE_NEWPID,
};

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* unshare(2) with recipe k; a user namespace maps the caller's uid and gid to themselves (--map-current-user). */
static int enter(int k) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(RECIPES[k]) != 0) return -1;
    if (RECIPES[k] & CLONE_NEWUSER) {
        char map[64];
        if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) return -1;
        snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
        if (write_file("/proc/self/uid_map", map) != 0) return -1;
        snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
        if (write_file("/proc/self/gid_map", map) != 0) return -1;
    }
    return 0;
}

/* A child's status as a shell reports it: the exit code, or 128+N for a death by signal N. */
static int shell_status(int st) {
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* PID 1 of the new namespace: mount its /proc, start the target as PID 2, reap until the target ends. */
static int init_main(int k, char **argv, const char *preload, int alive_fd) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* the outer process may have died before the line above: then its end of the pipe is closed */
    struct pollfd pf = {.fd = alive_fd, .events = POLLIN};
    if (poll(&pf, 1, 0) > 0) _exit(137);
    close(alive_fd);
    if (RECIPES[k] & CLONE_NEWNS) {
        if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
                || mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) != 0) {
            return 126;
        }
    }
    pid_t target = fork();
    if (target < 0) return 126;
    if (target == 0) {
        if (preload) setenv("LD_PRELOAD", preload, 1);
        execvp(argv[0], argv);
        int e = errno;
        /* env(1)'s words: what the chain this replaces printed */
        fprintf(stderr, "env: '%s': %s\n", argv[0], strerror(e));
        _exit(e == ENOENT ? 127 : 126);
    }
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, 0);
        if (p == target) return shell_status(st);
        if (p < 0 && errno != EINTR) return 126;
    }
}

static int probe(void) {
    int found = 0;
    for (int k = 1; k <= 4 && !found; k++) {
        pid_t c = fork();
        if (c == 0) {
            if (enter(k) != 0) _exit(1);
            pid_t g = fork();   /* PID 1 of the namespace must come up, /proc mounted */
            if (g == 0) {
                if ((RECIPES[k] & CLONE_NEWNS)
                        && (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0
                            || mount("proc", "/proc", "proc", MS_NOSUID | MS_NOEXEC | MS_NODEV, NULL) != 0)) {
                    _exit(1);
                }
                _exit(getpid() == 1 ? 0 : 1);
            }
            int st;
            _exit(g > 0 && waitpid(g, &st, 0) == g && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1);
        }
        int st;
        if (c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0) found = k;
    }
    int aslr = 0;
    pid_t c = fork();
    if (c == 0) _exit(personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1 ? 1 : 0);
    int st;
    if (c > 0 && waitpid(c, &st, 0) == c && WIFEXITED(st) && WEXITSTATUS(st) == 0) aslr = 1;
    printf("pidns=%d aslr=%d\n", found, aslr);
    return 0;
}

int main(int argc, char **argv) {
    int set_sid = 0, k = 0, no_aslr = 0, i = 1;
    const char *preload = NULL;
    if (argc == 2 && strcmp(argv[1], "--probe") == 0) return probe();
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) { i++; break; }
        if (strcmp(argv[i], "--setsid") == 0) set_sid = 1;
        else if (strncmp(argv[i], "--pidns=", 8) == 0) k = atoi(argv[i] + 8);
        else if (strcmp(argv[i], "--no-aslr") == 0) no_aslr = 1;
        else if (strcmp(argv[i], "--preload") == 0 && i + 1 < argc) preload = argv[++i];
        else { fprintf(stderr, "weft_exec: unknown option %s\n", argv[i]); return 125; }
    }
    if (i >= argc || k < 0 || k > 4) {
        fprintf(stderr, "usage: weft_exec [--setsid] [--pidns=K] [--no-aslr] [--preload V] -- PROG ARGS...\n");
        return 125;
    }
    if (set_sid) setsid();   /* fails only for a group leader, which then keeps its own group: fine */
    if (no_aslr && personality(PER_LINUX | ADDR_NO_RANDOMIZE) == -1) {
        fprintf(stderr, "weft_exec: personality: %s\n", strerror(errno));
        return 125;
    }
    if (k == 0) {
        if (preload) setenv("LD_PRELOAD", preload, 1);
        execvp(argv[i], argv + i);
        int e = errno;
        /* env(1)'s words: what the chain this replaces printed */
        fprintf(stderr, "env: '%s': %s\n", argv[i], strerror(e));
        return e == ENOENT ? 127 : 126;
    }
    if (enter(k) != 0) {
        fprintf(stderr, "weft_exec: unshare: %s\n", strerror(errno));
        return 125;
    }
    /* like unshare --fork: the outer process ignores the terminal's and a stopper's SIGINT/SIGTERM (the group
       gets them too, and the target decides) and passes on how the namespace ended */
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    int alive[2];
    if (pipe2(alive, O_CLOEXEC) != 0) return 125;
    pid_t init = fork();
    if (init < 0) return 125;
    if (init == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        close(alive[1]);
        _exit(init_main(k, argv + i, preload, alive[0]));
    }
    close(alive[0]);
    int st;
    while (waitpid(init, &st, 0) < 0) {
        if (errno != EINTR) return 125;
    }
    if (WIFSIGNALED(st)) {
        signal(WTERMSIG(st), SIG_DFL);
        kill(getpid(), WTERMSIG(st));
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
