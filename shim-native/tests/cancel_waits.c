/* cancel_waits: pthread_cancel reaches threads waiting in a virtual sleep, a blocking read on a
 * pipe nobody writes, and a poll with no timeout; each is a cancellation point. Prints
 * "cancelled 3" and exits 0. Under the shim, without the cancellation wake-up, the run would wait
 * forever for the outside world. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void *sleeper(void *a) { (void)a; sleep(100000); return NULL; }
static void *reader(void *a) { (void)a; char c; if (read(fds[0], &c, 1) < 0) perror("read"); return NULL; }
static void *poller(void *a) {
    (void)a;
    struct pollfd p = {.fd = fds[0], .events = POLLIN};
    poll(&p, 1, -1);
    return NULL;
}

int main(void) {
    if (pipe(fds) != 0) return 1;
    void *(*fn[3])(void *) = {sleeper, reader, poller};
    pthread_t t[3];
    for (int i = 0; i < 3; i++) pthread_create(&t[i], NULL, fn[i], NULL);
    usleep(1000); /* let every thread reach its wait */
    int n = 0;
    for (int i = 0; i < 3; i++) {
        pthread_cancel(t[i]);
        void *r;
        pthread_join(t[i], &r);
        if (r == PTHREAD_CANCELED) n++;
    }
    printf("cancelled %d\n", n);
    return n == 3 ? 0 : 1;
}
