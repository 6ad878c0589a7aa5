/*
 * shared_sem.c - a process-shared semaphore posted by another process (issue 18, item 1): the
 * parent, with a second thread (so the scheduler manages it), waits on a semaphore in shared
 * memory that only its forked child posts, after a virtual sleep. Modelled per process this was a
 * false "[weft] DEADLOCK ... (at sem_wait_contended)".
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void *idle(void *arg) { return arg; }

int main(void) {
    sem_t *sem = mmap(NULL, sizeof *sem, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sem == MAP_FAILED || sem_init(sem, 1, 0) != 0) { perror("sem"); return 1; }
    pthread_t th;
    pthread_create(&th, NULL, idle, NULL); /* the main thread is managed from here on */
    pthread_join(th, NULL);
    pid_t p = fork();
    if (p == 0) {
        sleep(2);
        printf("child posts\n");
        fflush(stdout);
        sem_post(sem);
        _exit(0);
    }
    if (sem_wait(sem) != 0) { perror("sem_wait"); return 1; }
    printf("parent got the semaphore\n");
    waitpid(p, NULL, 0);
    return 0;
}
