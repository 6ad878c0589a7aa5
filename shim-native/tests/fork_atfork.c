/*
 * fork_atfork - a multithreaded process forks while a library's atfork handlers hold its mutex (jemalloc does
 * this: prepare locks, the child re-initialises, the parent unlocks; redis forks for BGSAVE so). The child must
 * be able to use the mutex: prints "child locked it" from the child, then "parent: child exited 0".
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void prepare(void) { pthread_mutex_lock(&m); }
static void parent(void) { pthread_mutex_unlock(&m); }
static void child(void) { pthread_mutex_init(&m, NULL); }

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_mutex_lock(&m);
        pthread_mutex_unlock(&m);
    }
    return NULL;
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    pthread_atfork(prepare, parent, child);    /* registered before the first thread, as a library would */
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pid_t p = fork();
    if (p == 0) {
        pthread_mutex_lock(&m);
        printf("child locked it\n");
        pthread_mutex_unlock(&m);
        _exit(0);
    }
    int st = 0;
    waitpid(p, &st, 0);
    pthread_join(t, NULL);
    printf("parent: child exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    return 0;
}
