/*
 * child_clock.c - a parent learns its children's virtual time (issue 18): each child (one exec'd,
 * one forked, one spawned) sleeps virtually and prints its clock at the end; the parent reaps it
 * (waitpid, wait4, waitid) and prints its own clock, which must be at least the child's.
 * With "-sleep N", the program is the exec'd child: it sleeps N seconds and prints its clock.
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mono_clock.h"

extern char **environ;

int main(int argc, char **argv) {
    if (argc > 2 && !strcmp(argv[1], "-sleep")) {
        sleep((unsigned)atoi(argv[2]));
        printf("child %s ends at %lld us\n", argv[2], mono_us());
        return 0;
    }
    printf("parent starts at %lld us\n", mono_us());
    fflush(stdout);

    /* 1: fork + exec, reaped with waitpid */
    pid_t p = fork();
    if (p == 0) {
        execl("/proc/self/exe", argv[0], "-sleep", "5", (char *)NULL);
        _exit(127);
    }
    int st;
    waitpid(p, &st, 0);
    printf("after waitpid: %lld us\n", mono_us());
    fflush(stdout);

    /* 2: fork only, the child ends with _exit; reaped with wait4 */
    p = fork();
    if (p == 0) {
        struct timespec d = {7, 0};
        nanosleep(&d, NULL);
        printf("child 7 ends at %lld us\n", mono_us());
        fflush(stdout);
        _exit(0);
    }
    struct rusage ru;
    wait4(p, &st, 0, &ru);
    printf("after wait4: %lld us\n", mono_us());
    fflush(stdout);

    /* 3: posix_spawn, reaped with waitid */
    char *args[] = {argv[0], "-sleep", "3", NULL};
    if (posix_spawn(&p, "/proc/self/exe", NULL, NULL, args, environ) != 0) return 1;
    siginfo_t si;
    waitid(P_PID, (id_t)p, &si, WEXITED);
    printf("after waitid: %lld us\n", mono_us());
    return 0;
}
