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

/* One rwlock call of the parent's: before it the child takes the lock ('R', 'W': it holds it from
 * then on) or lets go ('U'); a realtime deadline for TIMED, a monotonic one for CLOCK. */
enum call { TRY, TIMED, CLOCK };
struct step { char before; const char *what; int write; enum call call; long ms; };

static const struct step steps[] = {
    {'R', "trywrlock, read-held", 1, TRY, 0},
    {0, "timedwrlock, read-held", 1, TIMED, 800},
    {0, "clockwrlock, read-held", 1, CLOCK, 400},
    {0, "timedrdlock, read-held", 0, TIMED, 5000},
    {'U', "timedwrlock, released", 1, TIMED, 5000},
    {'W', "tryrdlock, write-held", 0, TRY, 0},
    {0, "timedrdlock, write-held", 0, TIMED, 600},
    {0, "clockrdlock, write-held", 0, CLOCK, 300},
    {'U', "clockrdlock, released", 0, CLOCK, 5000},
};

static int rw_call(const struct step *st, clockid_t c) {
    struct timespec d = in_ms(c, st->ms);
    pthread_rwlock_t *l = &s->rw;
    switch (st->call) {
    case TRY: return st->write ? pthread_rwlock_trywrlock(l) : pthread_rwlock_tryrdlock(l);
    case TIMED: return st->write ? pthread_rwlock_timedwrlock(l, &d) : pthread_rwlock_timedrdlock(l, &d);
    default: return st->write ? pthread_rwlock_clockwrlock(l, c, &d) : pthread_rwlock_clockrdlock(l, c, &d);
    }
}

static void timed(void) {
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        const struct step *st = &steps[i];
        if (st->before) order(st->before);
        if (st->before == 'R' || st->before == 'W') sem_wait(&s->held);
        clockid_t c = st->call == CLOCK ? CLOCK_MONOTONIC : CLOCK_REALTIME;
        long long t0 = now_ns(c);
        int rc = rw_call(st, c);
        report(st->what, rc, t0, c);
        if (rc == 0) pthread_rwlock_unlock(&s->rw);
    }
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

/* The contended modes: who takes part - up to two children, the parent, and (threaded) a parent
 * thread - and what each runs. */
struct party { void (*fn)(const char *); const char *name; };
struct contest { const char *mode; struct party kids[2], parent, thread; };

static const struct contest contests[] = {
    {"rwlock", {{reader, "reader"}, {writer, "writer"}}, {reader, "parent"}, {writer, "thread"}},
    {"barrier", {{pass_barrier, "child1"}, {pass_barrier, "child2"}}, {pass_barrier, "parent"}, {pass_barrier, "thread"}},
    {"spin", {{spin, "child"}, {NULL, NULL}}, {spin, "parent"}, {NULL, NULL}},
};

static void *run_party(void *p) {
    const struct party *party = p;
    party->fn(party->name);
    return NULL;
}

/* Runs a contest: forks the children, starts the thread, plays the parent's part, joins. */
static void contend(const struct contest *c, pid_t kids[2]) {
    for (int i = 0; i < 2 && c->kids[i].fn; i++) {
        kids[i] = fork();
        if (kids[i] == 0) {
            run_party((void *)&c->kids[i]);
            _exit(0);
        }
    }
    pthread_t th;
    int thread = threaded && c->thread.fn;
    if (thread) pthread_create(&th, NULL, run_party, (void *)&c->thread);
    run_party((void *)&c->parent);
    if (thread) pthread_join(th, NULL);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    threaded = argc > 2 && !strcmp(argv[2], "threaded");
    s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED || pipe(proc_test_cmd) != 0) return 1;
    init_objects();
    if (threaded) use_thread_model();
    pid_t kids[2] = {-1, -1};
    const struct contest *c = NULL;
    for (size_t i = 0; i < sizeof contests / sizeof contests[0]; i++)
        if (!strcmp(mode, contests[i].mode)) c = &contests[i];
    if (c) {
        contend(c, kids);
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
