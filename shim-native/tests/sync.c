/* Exercises the scheduler's extensions; each line is "name: result". */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t bar;
static int serial_count, after_barrier;

static void *timed_waiter(void *arg) {
    (void)arg;
    struct timespec now, until;
    clock_gettime(CLOCK_REALTIME, &now);
    until = now;
    until.tv_sec += 5;
    pthread_mutex_lock(&mu);
    int rc = pthread_cond_timedwait(&cv, &mu, &until); /* nobody signals */
    pthread_mutex_unlock(&mu);
    struct timespec after;
    clock_gettime(CLOCK_REALTIME, &after);
    printf("timedwait: %s after>=deadline=%d\n", rc == ETIMEDOUT ? "ETIMEDOUT" : "other",
           after.tv_sec > until.tv_sec || (after.tv_sec == until.tv_sec && after.tv_nsec >= until.tv_nsec));
    return NULL;
}

static void unlock_on_cancel(void *m) { pthread_mutex_unlock(m); }

static void *cancellable(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    pthread_cleanup_push(unlock_on_cancel, &mu);
    for (;;) pthread_cond_wait(&cv, &mu); /* only cancellation ends this */
    pthread_cleanup_pop(1);
    return NULL;
}

static void *barrier_party(void *arg) {
    (void)arg;
    int rc = pthread_barrier_wait(&bar);
    pthread_mutex_lock(&mu);
    if (rc == PTHREAD_BARRIER_SERIAL_THREAD) serial_count++;
    after_barrier++;
    pthread_mutex_unlock(&mu);
    return NULL;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    pthread_t t;
    pthread_create(&t, NULL, timed_waiter, NULL);
    pthread_join(t, NULL);

    pthread_create(&t, NULL, cancellable, NULL);
    sched_yield();
    sched_yield();
    pthread_cancel(t);
    void *res = NULL;
    pthread_join(t, &res);
    printf("cancel: joined canceled=%d\n", res == PTHREAD_CANCELED);
    int relock = pthread_mutex_trylock(&mu);
    printf("cancel: mutex free afterwards=%d\n", relock == 0);
    if (relock == 0) pthread_mutex_unlock(&mu);

    pthread_barrier_init(&bar, NULL, 3);
    pthread_t b[3];
    for (int i = 0; i < 3; i++) pthread_create(&b[i], NULL, barrier_party, NULL);
    for (int i = 0; i < 3; i++) pthread_join(b[i], NULL);
    printf("barrier: passed=%d serial=%d\n", after_barrier, serial_count);

    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_t rec;
    pthread_mutex_init(&rec, &a);
    int r1 = pthread_mutex_lock(&rec), r2 = pthread_mutex_lock(&rec);
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&rec);
    printf("recursive: %d %d\n", r1, r2);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t ec;
    pthread_mutex_init(&ec, &a);
    pthread_mutex_lock(&ec);
    printf("errorcheck: relock=%s\n", pthread_mutex_lock(&ec) == EDEADLK ? "EDEADLK" : "other");
    pthread_mutex_unlock(&ec);
    return 0;
}
