/*
 * mono_clock.h - CLOCK_MONOTONIC in whole microseconds or milliseconds, as the test programs print
 * it. Under the shim each read is a clock observation (virtual time, spec §4); the launcher's tests
 * compare the printed figures, so every program rounds the same way (truncating).
 */
#ifndef WEFT_TEST_MONO_CLOCK_H
#define WEFT_TEST_MONO_CLOCK_H

#include <time.h>

static inline long long mono_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static inline long long mono_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

#endif
