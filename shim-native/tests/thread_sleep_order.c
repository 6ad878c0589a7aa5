/*
 * thread_sleep_order.c - a threaded process's sleeps follow the tree clock (issue 29): a parent with
 * a second thread (so its sleeps are waits in its own thread scheduler) and a single-threaded child
 * sleep in turns; the lines come out in the order of their virtual instants, as on a machine:
 * child 0.5 s, parent 1 s, child 1.5 s, parent 2 s. (Before, the parent's scheduler jumped its own
 * clock when all its threads slept, and printed both of its lines first on some seeds.)
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void *idle(void *a) { (void)a; usleep(3000000); return NULL; }

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    pid_t c = fork();
    if (c == 0) {
        usleep(500000);
        printf("child after 0.5 s\n");
        usleep(1000000);
        printf("child after 1.5 s\n");
        return 0;
    }
    pthread_t t;
    pthread_create(&t, NULL, idle, NULL);
    usleep(1000000);
    printf("threaded parent after 1 s\n");
    usleep(1000000);
    printf("threaded parent after 2 s\n");
    pthread_join(t, NULL);
    waitpid(c, NULL, 0);
    return 0;
}
