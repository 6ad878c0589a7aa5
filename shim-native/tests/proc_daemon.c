/*
 * proc_daemon.c - a daemon made the classic way (fork, setsid, fork again, the middle process
 * exits) leaves the run's process tree (issue 18: "a process that leaves the tree is handled").
 * The daemon waits until its parent is gone, takes one more turn (a sleep), then blocks in pause()
 * where the shim cannot see: were it still scheduled it would hold the run token there, and the
 * root could not go on (3 s, then the "held the run token" warning). The root reads the daemon's
 * pid from a pipe, reaps the middle process, takes a few turns of its own, kills the daemon and
 * exits 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int p[2];
    if (pipe(p) != 0) { perror("pipe"); return 1; }
    fflush(stdout);
    pid_t middle = fork();
    if (middle == 0) {
        close(p[0]);
        if (setsid() < 0) _exit(2);
        pid_t parent = getpid();
        pid_t daemon = fork();
        if (daemon == 0) {
            while (getppid() == parent) usleep(1000); /* turns until the middle process is gone */
            usleep(1000);                             /* the turn in which it leaves the tree */
            pause();                                  /* blocks where the shim cannot see */
            _exit(0);
        }
        if (write(p[1], &daemon, sizeof daemon) != sizeof daemon) _exit(3);
        _exit(0);
    }
    close(p[1]);
    pid_t daemon = 0;
    if (read(p[0], &daemon, sizeof daemon) != sizeof daemon) { printf("no daemon pid\n"); return 1; }
    int st;
    if (waitpid(middle, &st, 0) != middle || !WIFEXITED(st) || WEXITSTATUS(st) != 0) { printf("middle failed\n"); return 1; }
    printf("middle process reaped\n");
    for (int i = 1; i <= 3; i++) {
        usleep(1000);
        printf("root turn %d\n", i);
        fflush(stdout);
    }
    kill(daemon, SIGKILL);
    printf("root done\n");
    return 0;
}
