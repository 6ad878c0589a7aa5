/*
 * raw_syscalls.c - time and randomness asked of the kernel without libc (issue 18 item 4): through
 * libc's syscall() and through inline `syscall` instructions in this program's own code. Under the
 * shim both are answered from the seed: syscall() by its hook, the inline ones by the backstop
 * (syscall user dispatch). An inline getpid is run for the program unchanged, in the main thread,
 * in a thread and in a fork child.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long raw3(long n, long a, long b, long c) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return r;
}

static void report(const char *who) {
    unsigned long long rnd = 0;
    struct timespec ts = {0, 0};
    struct timeval tv = {0, 0};
    long got = raw3(SYS_getrandom, (long)&rnd, sizeof rnd, 0);
    raw3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0);
    raw3(SYS_gettimeofday, (long)&tv, 0, 0);
    long t = raw3(SYS_time, 0, 0, 0);
    int pid_ok = raw3(SYS_getpid, 0, 0, 0) == getpid();
    printf("%s inline: getrandom %ld %016llx mono %ld.%09ld tod %ld.%06ld time %ld getpid %s\n", who, got, rnd,
           (long)ts.tv_sec, ts.tv_nsec, (long)tv.tv_sec, (long)tv.tv_usec, t, pid_ok ? "ok" : "WRONG");
    fflush(stdout);
}

static void *thread_main(void *arg) {
    report(arg);
    return NULL;
}

int main(void) {
    unsigned long long rnd = 0;
    struct timespec ts = {0, 0};
    long got = syscall(SYS_getrandom, &rnd, sizeof rnd, 0);
    syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
    printf("syscall(): getrandom %ld %016llx realtime %ld.%09ld\n", got, rnd, (long)ts.tv_sec, ts.tv_nsec);
    report("main");
    pthread_t th;
    pthread_create(&th, NULL, thread_main, "thread");
    pthread_join(th, NULL);
    pid_t p = fork();
    if (p == 0) { report("child"); _exit(0); }
    waitpid(p, NULL, 0);
    return 0;
}
