/*
 * real_clock.h - real (not virtual) monotonic time for the benchmark programs in bench/.
 *
 * Under weft the shim answers libc's clock_gettime and syscall(SYS_clock_gettime) from the virtual clock, so
 * the clock is read with a raw system call instead. The shim's backstop would answer even that one from the
 * virtual clock; bench/broker-rtt.sh turns the backstop off (WEFT_BACKSTOP=0) for exactly this reason.
 */
#ifndef WEFT_BENCH_REAL_CLOCK_H
#define WEFT_BENCH_REAL_CLOCK_H

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t real_ns(void) {
    struct timespec ts;
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"((long)SYS_clock_gettime), "D"((long)CLOCK_MONOTONIC), "S"(&ts)
                     : "rcx", "r11", "memory");
    (void)ret;
#else
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
#endif
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
