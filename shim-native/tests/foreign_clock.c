/*
 * foreign_clock - a thread made behind the shim's pthread_create (as jemalloc makes its background
 * thread: the real function, found past the shim) runs in real time, unmanaged, while the scheduler
 * manages the process's other threads. Its clock reads must not move the clock the managed threads
 * read (docs/shim.md "Threads"): whenever they happened, the managed ones would see a different time.
 * Prints how far the main thread's clock moved across the foreign thread's 1000 reads.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*join_fn)(pthread_t, void **);

static unsigned long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static void *managed(void *arg) { return arg; }

static void *foreign(void *arg) {
    for (int i = 0; i < 1000; i++) now_ns();
    return arg;
}

int main(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, managed, NULL) != 0 || pthread_join(t, NULL) != 0) return 2;   /* the scheduler starts */
    void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
    create_fn real_create = libc ? (create_fn)dlsym(libc, "pthread_create") : NULL;
    join_fn real_join = libc ? (join_fn)dlsym(libc, "pthread_join") : NULL;
    if (!real_create || !real_join) return 2;
    unsigned long long before = now_ns();
    if (real_create(&t, NULL, foreign, NULL) != 0 || real_join(t, NULL) != 0) return 2;
    printf("the foreign thread's reads moved the clock by %llu ns\n", now_ns() - before - 1000);
    return 0;
}
