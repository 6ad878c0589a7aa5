/*
 * Linked with -static: what weft_super (docs/shim.md "Static binaries") must answer from the seed.
 * Prints, one per line: getrandom bytes, clock_gettime REALTIME and MONOTONIC (libc: the vDSO),
 * gettimeofday, time(), a raw getrandom system call, the monotonic interval across a 1.5 s
 * nanosleep, sched_getcpu, getauxval(AT_RANDOM), times and getrusage, and a forked child's
 * getrandom bytes and clock.
 *   static_probe            the lines above
 *   static_probe bench N    N clock_gettime + N getrandom(8) calls, nothing printed (bench.sh)
 *   static_probe exec       getrandom and the clock, a failed exec, getrandom, then the same in a
 *                           new image of itself
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getcpu; the Makefile defines it already */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void hex(const char *label, const unsigned char *b, size_t n) {
    printf("%s ", label);
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
    printf("\n");
}

static long long ns(clockid_t c) {
    struct timespec ts;
    clock_gettime(c, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "exec") == 0) { /* a failed exec, then a successful one */
        unsigned char e[8];
        if (getrandom(e, sizeof e, 0) != sizeof e) return 1;
        hex(argc == 2 ? "image1" : "image2", e, sizeof e);
        printf("%s-monotonic %lld\n", argc == 2 ? "image1" : "image2", ns(CLOCK_MONOTONIC));
        fflush(stdout);
        if (argc > 2) return 0;
        execl("/nonexistent/static_probe", "x", (char *)0);
        if (getrandom(e, sizeof e, 0) != sizeof e) return 1;
        hex("after-failed-exec", e, sizeof e);
        fflush(stdout);
        execl("/proc/self/exe", argv[0], "exec", "again", (char *)0);
        return 1;
    }
    if (argc == 3 && strcmp(argv[1], "bench") == 0) {
        long n = atol(argv[2]);
        unsigned long long sink = 0, r;
        for (long i = 0; i < n; i++) {
            sink += (unsigned long long)ns(CLOCK_MONOTONIC);
            if (getrandom(&r, sizeof r, 0) == sizeof r) sink ^= r;
        }
        return (int)(sink & 0); /* keeps the calls */
    }
    unsigned char b[16];
    if (getrandom(b, sizeof b, 0) != sizeof b) return 1;
    hex("getrandom", b, sizeof b);
    printf("realtime %lld\n", ns(CLOCK_REALTIME));
    printf("monotonic %lld\n", ns(CLOCK_MONOTONIC));
    struct timeval tv;
    gettimeofday(&tv, NULL);
    printf("gettimeofday %lld.%06ld\n", (long long)tv.tv_sec, (long)tv.tv_usec);
    printf("time %lld\n", (long long)time(NULL));
    if (syscall(SYS_getrandom, b, sizeof b, 0) != (long)sizeof b) return 1;
    hex("raw-getrandom", b, sizeof b);
    long long t0 = ns(CLOCK_MONOTONIC);
    struct timespec d = {1, 500000000};
    nanosleep(&d, NULL);
    printf("slept %lld\n", ns(CLOCK_MONOTONIC) - t0);
    printf("cpu %d\n", sched_getcpu());
    hex("at-random", (const unsigned char *)getauxval(AT_RANDOM), 16);
    struct tms t;
    clock_t ticks = times(&t);
    printf("times %ld %ld\n", (long)ticks, (long)t.tms_utime);
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("rusage %ld.%06ld\n", (long)u.ru_utime.tv_sec, (long)u.ru_utime.tv_usec);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (getrandom(b, sizeof b, 0) != sizeof b) _exit(1);
        hex("child-getrandom", b, sizeof b);
        printf("child-monotonic %lld\n", ns(CLOCK_MONOTONIC));
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("parent-monotonic %lld\n", ns(CLOCK_MONOTONIC));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
