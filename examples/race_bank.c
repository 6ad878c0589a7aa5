/* race_bank: deposits with a split critical section (read under the lock, write under the
 * lock again), so an interleaving between the two loses updates.
 * Usage: race_bank [threads] [iterations]. Exit status 1 when money was lost. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long balance;
static int iters = 2;

static void *depositor(void *arg) {
    (void)arg;
    for (int i = 0; i < iters; i++) {
        pthread_mutex_lock(&mu);
        long seen = balance;            /* read ... */
        pthread_mutex_unlock(&mu);
        pthread_mutex_lock(&mu);
        balance = seen + 1;             /* ... and write back under a different lock hold: the bug */
        pthread_mutex_unlock(&mu);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    if (argc > 2) iters = atoi(argv[2]);
    if (threads > 256) threads = 256;
    pthread_t t[256];
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, depositor, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    long expected = (long)threads * iters;
    printf("threads=%d iters=%d expected=%ld balance=%ld lost=%ld\n", threads, iters, expected, balance,
           expected - balance);
    return balance == expected ? 0 : 1;
}
