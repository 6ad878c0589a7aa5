/*
 * A dynamically linked (shimmed) parent that starts a static image (issue 29): the image runs under
 * weft_super at the child's place in the tree. Prints the parent's clock before, the child's output
 * (its own lines), and the parent's clock after reaping it.
 *   exec_static spawn PROG [ARGS...]   posix_spawn, then waitpid
 *   exec_static execv PROG [ARGS...]   fork, execv in the child, then waitpid
 */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "spawn") && strcmp(argv[1], "execv"))) {
        fprintf(stderr, "usage: exec_static spawn|execv PROG [ARGS...]\n");
        return 2;
    }
    printf("parent-before %lld\n", mono_ns());
    fflush(stdout);
    pid_t pid;
    if (!strcmp(argv[1], "spawn")) {
        if (posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ) != 0) return 1;
    } else if ((pid = fork()) == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 1;
    printf("child-exit %d\nparent-after %lld\n", WEXITSTATUS(status), mono_ns());
    return 0;
}
