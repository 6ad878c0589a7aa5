/* thread_churn: waves of short-lived threads (create, detach or join, exit via return or
 * pthread_exit) doing locked, trylocked, rwlocked and semaphore-guarded work.
 * Usage: thread_churn [threads] */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t done;
static long balance, audit, trylock_wins, order_hash = 17;

static void *worker(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < 5; i++) {
        if (pthread_mutex_trylock(&mu) == 0) {
            trylock_wins++;
        } else {
            pthread_mutex_lock(&mu);
        }
        balance += id;
        order_hash = order_hash * 31 + id;
        pthread_mutex_unlock(&mu);
        pthread_rwlock_rdlock(&rw);
        long seen = balance;
        pthread_rwlock_unlock(&rw);
        if (seen % 3 == 0) {
            pthread_rwlock_wrlock(&rw);
            audit++;
            pthread_rwlock_unlock(&rw);
        }
        sched_yield();
    }
    sem_post(&done);
    if (id % 2) pthread_exit(NULL);
    return NULL;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 12;
    if (n > 1024) n = 1024;
    sem_init(&done, 0, 0);
    pthread_t t[1024];
    for (int wave = 0; wave < n; wave += 4) {
        int end = wave + 4 < n ? wave + 4 : n;
        for (int i = wave; i < end; i++) pthread_create(&t[i], NULL, worker, (void *)(long)(i + 1));
        for (int i = wave; i < end; i++) pthread_join(t[i], NULL);
    }
    for (int i = 0; i < n; i++) sem_wait(&done);
    printf("threads=%d balance=%ld audit=%ld trylock_wins=%ld order=%08lx\n", n, balance, audit, trylock_wins,
           (unsigned long)order_hash & 0xffffffffUL);
    return 0;
}
