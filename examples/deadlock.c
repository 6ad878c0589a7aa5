/* deadlock: two threads take two locks in opposite orders (ABBA). Some schedules deadlock. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *ab(void *arg) {
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    shared++;
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return NULL;
}

static void *ba(void *arg) {
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    shared++;
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return NULL;
}

int main(void) {
    pthread_t t1, t2;
    pthread_create(&t1, NULL, ab, NULL);
    pthread_create(&t2, NULL, ba, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    printf("completed without deadlock (shared=%d)\n", shared);
    return 0;
}
