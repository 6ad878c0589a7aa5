/* One structured guest event per line on the console: `SF {"p":PROC,"pid":N,"t":NS,...}`.
 * The host keeps only lines that start with "SF {" (kernel messages and anything else are ignored) and
 * drops "pid" and "t" when it normalizes them (docs/simferret-evidence.md lists the excluded fields).
 * Each event is formatted into one buffer and written with one write(2): a tty write holds the tty's
 * write lock for the whole buffer, so lines from different processes never interleave mid-line. */
#ifndef SFEVENT_H
#define SFEVENT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline uint64_t sf_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* fields: the rest of the JSON object without braces, e.g. "\"e\":\"listen\",\"gen\":1" */
static inline void sf_emit(const char *proc, const char *fields_fmt, ...) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "SF {\"p\":\"%s\",\"pid\":%d,\"t\":%llu,", proc, (int)getpid(),
                     (unsigned long long)sf_now_ns());
    va_list ap;
    va_start(ap, fields_fmt);
    n += vsnprintf(buf + n, sizeof buf - (size_t)n - 3, fields_fmt, ap);
    va_end(ap);
    if (n > (int)sizeof buf - 3) n = (int)sizeof buf - 3;
    buf[n++] = '}';
    buf[n++] = '\n';
    ssize_t off = 0;
    while (off < n) {
        ssize_t w = write(1, buf + off, (size_t)(n - off));
        if (w <= 0) return;
        off += w;
    }
}

static inline void sf_sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) != 0) {
    }
}

/* SplitMix64 step (the same generator the host uses for the choice plan). */
static inline uint64_t sf_splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#define SF_PORT 7000
#define SF_RESULTS "/run/sf-results"

#endif
