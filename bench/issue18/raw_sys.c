/* Raw system calls from the program's own code: an inline `syscall` instruction (no libc
 * wrapper, no syscall() function) for getrandom and clock_gettime, and the same calls through
 * libc's syscall(). Built dynamic and -static by the acceptance script. */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long raw3(long nr, long a, long b, long c) {
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
}

int main(void) {
    uint64_t r1 = 0, r2 = 0;
    struct timespec t1, t2;
    raw3(SYS_getrandom, (long)&r1, sizeof r1, 0);
    raw3(SYS_clock_gettime, CLOCK_REALTIME, (long)&t1, 0);
    syscall(SYS_getrandom, &r2, sizeof r2, 0);
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t2);
    struct timespec t3;
    clock_gettime(CLOCK_REALTIME, &t3); /* vDSO path in a static binary */
    printf("inline getrandom %016llx realtime %lld.%09ld | syscall() getrandom %016llx mono %lld.%09ld | libc realtime %lld.%09ld\n",
           (unsigned long long)r1, (long long)t1.tv_sec, t1.tv_nsec, (unsigned long long)r2,
           (long long)t2.tv_sec, t2.tv_nsec, (long long)t3.tv_sec, t3.tv_nsec);
    return 0;
}
