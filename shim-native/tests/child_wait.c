/* child_wait: a thread blocks in waitpid() for a child that only exits once the main thread has
 * written to its stdin pipe after a sleep. If the waiting thread held the token, the main thread
 * could never write: the run would hang. Prints the child's exit status. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;
static int status = -1;

static void *waiter(void *a) {
    (void)a;
    if (waitpid(child, &status, 0) != child) perror("waitpid");
    return NULL;
}

int main(void) {
    int p[2];
    if (pipe(p) != 0) return 1;
    child = fork();
    if (child == 0) {
        close(p[1]);
        char c = 0;
        ssize_t n = read(p[0], &c, 1);
        _exit(n == 1 ? c - '0' : 99);
    }
    close(p[0]);
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    usleep(50000);
    if (write(p[1], "7", 1) != 1) return 1;
    pthread_join(t, NULL);
    printf("child exited with %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}
