/* chrono: reads every clock API and sleeps in every way; prints what it observed.
 * Under `weft run` the output is a pure function of the seed (virtual clock). */
#include <stdio.h>
#include <stdint.h>
#include <time.h>
#include <sys/time.h>
#include <unistd.h>

static int64_t ns_of(const struct timespec *t) { return (int64_t)t->tv_sec * 1000000000LL + t->tv_nsec; }

static void stamp(const char *what, int64_t mono_start) {
    struct timespec m, r;
    struct timeval tv;
    clock_gettime(CLOCK_MONOTONIC, &m);
    clock_gettime(CLOCK_REALTIME, &r);
    gettimeofday(&tv, NULL);
    struct tm tm;
    time_t secs = r.tv_sec;
    gmtime_r(&secs, &tm);
    printf("%-22s mono=+%lldus real=%02d:%02d:%02d.%09ld tod=%lld.%06ld\n", what,
           (long long)((ns_of(&m) - mono_start) / 1000), tm.tm_hour, tm.tm_min, tm.tm_sec, r.tv_nsec,
           (long long)tv.tv_sec, (long)tv.tv_usec);
}

int main(void) {
    time_t boot = time(NULL);
    struct tm tm;
    gmtime_r(&boot, &tm);
    printf("boot %04d-%02d-%02d %02d:%02d:%02d unix %lld\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
           tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)boot);
    struct timespec res;
    clock_getres(CLOCK_REALTIME, &res);
    printf("resolution realtime %ldns\n", res.tv_nsec);
    struct timespec m0;
    clock_gettime(CLOCK_MONOTONIC, &m0);
    int64_t start = ns_of(&m0);

    stamp("start", start);
    struct timespec d = {0, 150000000};
    nanosleep(&d, NULL);
    stamp("nanosleep 150ms", start);
    sleep(1);
    stamp("sleep 1s", start);
    usleep(250000);
    stamp("usleep 250ms", start);
    struct timespec rel = {0, 150000000};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL);
    stamp("clock_nanosleep rel", start);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    struct timespec until = {now.tv_sec + 1, now.tv_nsec};
    clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    stamp("clock_nanosleep abs", start);
    clock_gettime(CLOCK_REALTIME, &now);
    struct timespec until_rt = {now.tv_sec, now.tv_nsec + 0};
    until_rt.tv_nsec += 250000000;
    if (until_rt.tv_nsec >= 1000000000L) { until_rt.tv_sec++; until_rt.tv_nsec -= 1000000000L; }
    clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &until_rt, NULL);
    stamp("clock_nanosleep abs rt", start);

    struct timespec cpu, boottime, coarse, c11;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    clock_gettime(CLOCK_BOOTTIME, &boottime);
    clock_gettime(CLOCK_MONOTONIC_COARSE, &coarse);
    timespec_get(&c11, TIME_UTC);
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("cpu=%lldns boottime=%lldns coarse=%lldns\n", (long long)ns_of(&cpu), (long long)ns_of(&boottime),
           (long long)ns_of(&coarse));
    printf("total virtual elapsed: %lld us, c11 time %lld\n", (long long)((ns_of(&now) - start) / 1000),
           (long long)c11.tv_sec);
    return 0;
}
