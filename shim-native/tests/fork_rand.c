/*
 * fork_rand.c - forked children print rand() and the clock (issue 18, item 2): each child has
 * its own stream (siblings differ from each other and from the parent), and a child's clock
 * continues from its parent's. With an argument, the last child execs `fork_rand -` instead of
 * printing, so the line comes from a new image (the clock and identity cross exec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mono_clock.h"

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "-")) {
        printf("exec'd child: rand %d clock %lld us\n", rand(), mono_us());
        return 0;
    }
    int exec_last = argc > 1;
    struct timespec pause = {1, 0};
    nanosleep(&pause, NULL); /* 1 s of virtual time before the children exist */
    for (int i = 1; i <= 3; i++) {
        fflush(stdout);
        pid_t p = fork();
        if (p < 0) { perror("fork"); return 1; }
        if (p == 0) {
            if (exec_last && i == 3) {
                execl("/proc/self/exe", argv[0], "-", (char *)NULL);
                perror("execl");
                _exit(1);
            }
            printf("child %d: rand %d clock %lld us\n", i, rand(), mono_us());
            fflush(stdout);
            _exit(0);
        }
        int st;
        waitpid(p, &st, 0);
    }
    printf("parent: rand %d\n", rand());
    return 0;
}
