/*
 * proc_sync_locks.c - process-shared rwlocks, barriers, spinlocks and named semaphores between the
 * processes of one tree (issue 18 item 1). Every line is one write(2) (say): a process yield point
 * under process scheduling, so where the processes' lines fall among each other is up to the
 * schedule, while what the objects guarantee (a writer alone, nobody past a barrier before
 * everyone arrived, one spinlock holder) is checked by the program itself: "violations 0".
 *
 *   proc_sync_locks rwlock [threaded]   the parent and a child read, another child writes (3 rounds
 *                                       each); threaded: a parent thread writes as well
 *   proc_sync_locks barrier [threaded]  the parent and two children pass a barrier 3 times;
 *                                       threaded: a parent thread is a fourth party
 *   proc_sync_locks spin [threaded]     the parent and a child take a spinlock in turn, 3 times each
 *   proc_sync_locks timed [threaded]    timed and try rwlock calls against a child that holds the
 *                                       lock on command: ETIMEDOUT after exactly the timeout when
 *                                       the tree is idle, ok after 0 ms when the child lets go
 *   proc_sync_locks named [threaded]    sem_open semaphores: a child posts one the parent waits on;
 *                                       sem_timedwait idle (ETIMEDOUT) and posted (ok)
 *   threaded (any mode): the parent's calls go through the thread model
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc_test.h"

#define ROUNDS 3

struct shared {
    pthread_rwlock_t rw;
    pthread_barrier_t bar;
    pthread_spinlock_t spin;
    sem_t held;                 /* the timed mode's child: posted once it holds rw */
    int value;                  /* written by writers under rw */
    atomic_int readers_in, writers_in, arrived, serial, holders, violations;
};

static struct shared *s;
static int threaded;

static void violation(const char *what) {
    atomic_fetch_add(&s->violations, 1);
    say("VIOLATION: %s\n", what);
}

/* ------------------------------------------------------------------ rwlock */

static void reader(const char *name) {
    for (int i = 1; i <= ROUNDS; i++) {
        pthread_rwlock_rdlock(&s->rw);
        atomic_fetch_add(&s->readers_in, 1);
        if (atomic_load(&s->writers_in)) violation("a reader next to a writer");
        say("%s reads %d\n", name, s->value);
        atomic_fetch_sub(&s->readers_in, 1);
        pthread_rwlock_unlock(&s->rw);
        say("%s out %d\n", name, i);
    }
}

static void writer(const char *name) {
    for (int i = 1; i <= ROUNDS; i++) {
        pthread_rwlock_wrlock(&s->rw);
        if (atomic_fetch_add(&s->writers_in, 1) || atomic_load(&s->readers_in)) violation("a writer not alone");
        s->value++;
        say("%s writes %d\n", name, s->value);
        atomic_fetch_sub(&s->writers_in, 1);
        pthread_rwlock_unlock(&s->rw);
        say("%s out %d\n", name, i);
    }
}

static void *thread_writer(void *arg) {
    writer(arg);
    return NULL;
}

/* ------------------------------------------------------------------ barrier */

static int parties(void) { return threaded ? 4 : 3; }

static void pass_barrier(const char *name) {
    for (int i = 1; i <= ROUNDS; i++) {
        say("%s arrives %d\n", name, i);
        atomic_fetch_add(&s->arrived, 1);
        int rc = pthread_barrier_wait(&s->bar);
        if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD) violation("barrier_wait failed");
        if (atomic_load(&s->arrived) < i * parties()) violation("past the barrier before everyone arrived");
        if (rc == PTHREAD_BARRIER_SERIAL_THREAD) atomic_fetch_add(&s->serial, 1);
        say("%s passes %d%s\n", name, i, rc == PTHREAD_BARRIER_SERIAL_THREAD ? " (serial)" : "");
    }
}

static void *thread_barrier(void *arg) {
    pass_barrier(arg);
    return NULL;
}

/* ------------------------------------------------------------------ spinlock */

static void spin(const char *name) {
    for (int i = 1; i <= ROUNDS; i++) {
        pthread_spin_lock(&s->spin);
        if (atomic_fetch_add(&s->holders, 1)) violation("two spinlock holders");
        say("%s holds the spinlock %d\n", name, i);
        say("%s lets go %d\n", name, i);
        atomic_fetch_sub(&s->holders, 1);
        pthread_spin_unlock(&s->spin);
        say("%s out %d\n", name, i);
    }
}

/* ------------------------------------------------------------------ timed rwlock calls */

static void act(char c) {
    switch (c) {
    case 'R': pthread_rwlock_rdlock(&s->rw); sem_post(&s->held); break;
    case 'W': pthread_rwlock_wrlock(&s->rw); sem_post(&s->held); break;
    case 'U': pthread_rwlock_unlock(&s->rw); break;
    }
}

/* The child takes the lock (command c) and holds it. */
static void child_holds(char c) {
    order(c);
    sem_wait(&s->held);
}

static void timed(void) {
    const clockid_t RT = CLOCK_REALTIME, MO = CLOCK_MONOTONIC;
    long long t0;
    struct timespec d;
    int rc;

    child_holds('R');
    t0 = now_ns(RT);
    report("trywrlock, read-held", pthread_rwlock_trywrlock(&s->rw), t0, RT);
    t0 = now_ns(RT); d = in_ms(RT, 800);
    report("timedwrlock, read-held", pthread_rwlock_timedwrlock(&s->rw, &d), t0, RT);
    t0 = now_ns(MO); d = in_ms(MO, 400);
    report("clockwrlock, read-held", pthread_rwlock_clockwrlock(&s->rw, MO, &d), t0, MO);
    t0 = now_ns(RT); d = in_ms(RT, 5000);
    rc = pthread_rwlock_timedrdlock(&s->rw, &d);
    report("timedrdlock, read-held", rc, t0, RT);
    if (rc == 0) pthread_rwlock_unlock(&s->rw);
    order('U');
    t0 = now_ns(RT); d = in_ms(RT, 5000);
    rc = pthread_rwlock_timedwrlock(&s->rw, &d);
    report("timedwrlock, released", rc, t0, RT);
    if (rc == 0) pthread_rwlock_unlock(&s->rw);

    child_holds('W');
    t0 = now_ns(RT);
    report("tryrdlock, write-held", pthread_rwlock_tryrdlock(&s->rw), t0, RT);
    t0 = now_ns(RT); d = in_ms(RT, 600);
    report("timedrdlock, write-held", pthread_rwlock_timedrdlock(&s->rw, &d), t0, RT);
    t0 = now_ns(MO); d = in_ms(MO, 300);
    report("clockrdlock, write-held", pthread_rwlock_clockrdlock(&s->rw, MO, &d), t0, MO);
    order('U');
    t0 = now_ns(MO); d = in_ms(MO, 5000);
    rc = pthread_rwlock_clockrdlock(&s->rw, MO, &d);
    report("clockrdlock, released", rc, t0, MO);
    if (rc == 0) pthread_rwlock_unlock(&s->rw);
    order('q');
}

/* ------------------------------------------------------------------ named semaphores */

static void named(void) {
    char posted[64], go[64];
    snprintf(posted, sizeof posted, "/weft-locks-posted-%d", (int)getpid());
    snprintf(go, sizeof go, "/weft-locks-go-%d", (int)getpid());
    sem_t *a = sem_open(posted, O_CREAT | O_EXCL, 0600, 0), *b = sem_open(go, O_CREAT | O_EXCL, 0600, 0);
    if (a == SEM_FAILED || b == SEM_FAILED) { perror("sem_open"); exit(1); }
    pid_t p = fork();
    if (p == 0) {
        sem_t *ca = sem_open(posted, 0), *cb = sem_open(go, 0); /* the child opens them by name */
        if (ca == SEM_FAILED || cb == SEM_FAILED) _exit(2);
        for (int i = 1; i <= ROUNDS; i++) say("child starts %d\n", i);
        say("child posts\n");
        sem_post(ca);
        sem_wait(cb);
        say("child posts again\n");
        sem_post(ca);
        _exit(0);
    }
    for (int i = 1; i <= ROUNDS; i++) say("parent starts %d\n", i);
    if (sem_wait(a) != 0) violation("sem_wait failed");
    say("parent got the semaphore\n");
    long long t0 = now_ns(CLOCK_REALTIME);
    struct timespec d = in_ms(CLOCK_REALTIME, 1500);
    report("sem_timedwait (named), idle", sem_timedwait(a, &d) == 0 ? 0 : errno, t0, CLOCK_REALTIME);
    sem_post(b);
    t0 = now_ns(CLOCK_REALTIME);
    d = in_ms(CLOCK_REALTIME, 5000);
    report("sem_timedwait (named), posted", sem_timedwait(a, &d) == 0 ? 0 : errno, t0, CLOCK_REALTIME);
    int st = 0;
    waitpid(p, &st, 0);
    sem_unlink(posted);
    sem_unlink(go);
    say("child exit %d\n", WEXITSTATUS(st));
}

/* ------------------------------------------------------------------ main */

static void init_objects(void) {
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
    pthread_rwlockattr_setpshared(&ra, PTHREAD_PROCESS_SHARED);
    pthread_rwlock_init(&s->rw, &ra);
    pthread_barrierattr_t ba;
    pthread_barrierattr_init(&ba);
    pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
    pthread_barrier_init(&s->bar, &ba, (unsigned)parties());
    pthread_spin_init(&s->spin, PTHREAD_PROCESS_SHARED);
    sem_init(&s->held, 1, 0);
}

/* Forks a child that runs fn(name) and exits. */
static pid_t child(void (*fn)(const char *), const char *name) {
    pid_t p = fork();
    if (p == 0) {
        fn(name);
        _exit(0);
    }
    return p;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    threaded = argc > 2 && !strcmp(argv[2], "threaded");
    s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED || pipe(proc_test_cmd) != 0) return 1;
    init_objects();
    if (threaded) use_thread_model();
    pid_t kids[2] = {-1, -1};
    pthread_t th;
    int joined = 0;
    if (!strcmp(mode, "rwlock")) {
        kids[0] = child(reader, "reader");
        kids[1] = child(writer, "writer");
        if (threaded) pthread_create(&th, NULL, thread_writer, "thread");
        reader("parent");
        joined = threaded;
    } else if (!strcmp(mode, "barrier")) {
        kids[0] = child(pass_barrier, "child1");
        kids[1] = child(pass_barrier, "child2");
        if (threaded) pthread_create(&th, NULL, thread_barrier, "thread");
        pass_barrier("parent");
        joined = threaded;
    } else if (!strcmp(mode, "spin")) {
        kids[0] = child(spin, "child");
        spin("parent");
    } else if (!strcmp(mode, "timed")) {
        kids[0] = fork();
        if (kids[0] == 0) serve(act);
        timed();
    } else if (!strcmp(mode, "named")) {
        named();
    } else {
        fprintf(stderr, "usage: proc_sync_locks rwlock|barrier|spin|timed|named [threaded]\n");
        return 2;
    }
    if (joined) pthread_join(th, NULL);
    for (int i = 0; i < 2; i++) {
        int st = 0;
        if (kids[i] > 0 && (waitpid(kids[i], &st, 0) != kids[i] || !WIFEXITED(st) || WEXITSTATUS(st) != 0))
            violation("a child failed");
    }
    /* every party has left: destroying the objects succeeds (glibc's barrier destroy reads words the
     * shim leaves alone) */
    if (pthread_rwlock_destroy(&s->rw) || pthread_barrier_destroy(&s->bar) || pthread_spin_destroy(&s->spin))
        violation("destroy failed");
    say("violations %d, value %d, serial %d\n", atomic_load(&s->violations), s->value, atomic_load(&s->serial));
    return 0;
}
