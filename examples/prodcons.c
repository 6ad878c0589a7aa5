/* prodcons: a correctly synchronised bounded buffer (mutex + two condition variables).
 * Usage: prodcons [producers] [consumers] [items per producer] */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 4
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static long buf[CAP];
static int head, count, producers_left;
static long produced, consumed;
static int items = 50;

static void *producer(void *arg) {
    long id = (long)arg;
    for (int i = 1; i <= items; i++) {
        long v = id * 1000 + i;
        pthread_mutex_lock(&mu);
        while (count == CAP) pthread_cond_wait(&not_full, &mu);
        buf[(head + count) % CAP] = v;
        count++;
        produced += v;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_lock(&mu);
    producers_left--;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&mu);
    return NULL;
}

static void *consumer(void *arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (count == 0 && producers_left > 0) pthread_cond_wait(&not_empty, &mu);
        if (count == 0) { pthread_mutex_unlock(&mu); return NULL; }
        long v = buf[head];
        head = (head + 1) % CAP;
        count--;
        consumed += v;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&mu);
    }
}

int main(int argc, char **argv) {
    int np = argc > 1 ? atoi(argv[1]) : 2, nc = argc > 2 ? atoi(argv[2]) : 2;
    if (argc > 3) items = atoi(argv[3]);
    if (np > 32) np = 32;
    if (nc > 32) nc = 32;
    producers_left = np;
    pthread_t p[32], c[32];
    for (long i = 0; i < np; i++) pthread_create(&p[i], NULL, producer, (void *)(i + 1));
    for (int i = 0; i < nc; i++) pthread_create(&c[i], NULL, consumer, NULL);
    for (int i = 0; i < np; i++) pthread_join(p[i], NULL);
    for (int i = 0; i < nc; i++) pthread_join(c[i], NULL);
    printf("producers=%d consumers=%d items=%d produced=%ld consumed=%ld match=%d\n", np, nc, items, produced,
           consumed, produced == consumed);
    return produced == consumed ? 0 : 1;
}
