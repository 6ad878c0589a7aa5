/*
 * backstop_bench.c - N inline system calls from the program's own code (for bench.sh): under the
 * shim each one traps to the backstop (syscall user dispatch). Usage: backstop_bench getpid|clock N
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>

static long raw2(long n, long a, long b) {
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b) : "rcx", "r11", "memory");
    return r;
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    long n = atol(argv[2]), sink = 0;
    struct timespec ts;
    int clock = !strcmp(argv[1], "clock");
    for (long i = 0; i < n; i++) sink += clock ? raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts) : raw2(SYS_getpid, 0, 0);
    return (int)(sink & 1) * 0;
}
