/*
 * proc_signals.c - signals between the processes of a tree (issue 18 item 1). The parent sends its
 * child SIGUSR1 four times (kill, sigqueue, tgkill, kill), then SIGUSR2, which the child takes with
 * sigwait; before that the child waits in pause() for the first one. The child then signals its
 * parent twice while the parent waits for it in waitpid, and finally waits 3 s in sigtimedwait for
 * a signal nobody sends. Handlers print (a raw write) and count. Standard signals do not queue, so
 * how many SIGUSR1 handlers run depends on where the child's turns fall: a function of the seed.
 *
 *   proc_signals [threaded]   threaded: the parent starts a second thread first (thread model)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_test.h"

static pid_t parent_pid;
static volatile sig_atomic_t handled;

static void on_usr1(int sig) {
    (void)sig;
    handled++;
    char buf[64];
    /* the child may handle one before fork has returned in it: its role is its pid's */
    int n = snprintf(buf, sizeof buf, "%s handles SIGUSR1 #%d\n", getpid() == parent_pid ? "parent" : "child",
                     (int)handled);
    if (write(1, buf, (size_t)n) != n) _exit(3);
}

static long long mono_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

int main(int argc, char **argv) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &usr2, NULL); /* the child takes SIGUSR2 with sigwait */

    if (argc > 1 && !strcmp(argv[1], "threaded")) use_thread_model(); /* the parent's waits: the thread model's */
    parent_pid = getpid();
    pid_t child = fork();
    if (child == 0) {
        if (!handled) {
            pause();
            say("child: pause returned (%s)\n", errno == EINTR ? "EINTR" : strerror(errno));
        }
        int sig = 0;
        sigwait(&usr2, &sig);
        say("child: sigwait took signal %d after %d SIGUSR1\n", sig, (int)handled);
        pid_t parent = getppid();
        kill(parent, SIGUSR1);
        say("child: signalled the parent\n");
        syscall(SYS_tgkill, parent, parent, SIGUSR1);
        say("child: signalled the parent again\n");
        long long t0 = mono_ms();
        struct timespec three = {3, 0};
        int r = sigtimedwait(&usr2, NULL, &three);
        say("child: sigtimedwait %s after %lld ms\n", r < 0 && errno == EAGAIN ? "EAGAIN" : "got one", mono_ms() - t0);
        _exit(handled);
    }
    kill(child, SIGUSR1);
    say("parent: sent SIGUSR1 (kill)\n");
    sigqueue(child, SIGUSR1, (union sigval){.sival_int = 2});
    say("parent: sent SIGUSR1 (sigqueue)\n");
    tgkill(child, child, SIGUSR1);
    say("parent: sent SIGUSR1 (tgkill)\n");
    kill(child, SIGUSR1);
    say("parent: sent SIGUSR1 (kill)\n");
    kill(child, SIGUSR2);
    say("parent: sent SIGUSR2\n");
    int st = 0;
    while (waitpid(child, &st, 0) < 0 && errno == EINTR) say("parent: waitpid interrupted\n");
    say("parent: child handled %d, parent handled %d\n", WEXITSTATUS(st), (int)handled);
    return 0;
}
