/* Run under the shim: prints the values of spec §9 observed through the real libc entry points.
 * The JUnit test compares these lines with the spec's vectors for seed 42. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/time.h>
#include <fcntl.h>
#include <unistd.h>

static void hex(const char *label, const unsigned char *b, size_t n) {
    printf("%s=", label);
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
    printf("\n");
}

int main(void) {
    const unsigned char *aux = (const unsigned char *)getauxval(AT_RANDOM);
    hex("at_random", aux, 16);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("mono1=%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("real2=%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    printf("time3=%ld\n", (long)time(NULL));
    int r1 = rand();
    int r2 = rand();
    printf("rand12=%d %d\n", r1, r2);
    unsigned char b[8];
    getrandom(b, 5, 0);
    hex("getrandom5", b, 5);
    getrandom(b, 8, 0);
    hex("getrandom8", b, 8);
    srand(7);
    printf("srand7_rand=%d\n", rand());
    printf("then_drand48=%.17g\n", drand48());
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    printf("res=%ld\n", res.tv_nsec);
    struct timespec d = {2, 500};
    nanosleep(&d, NULL);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    printf("after_sleep=%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    /* /dev/urandom through a dup'ed fd reads the dev-random stream */
    int fd = open("/dev/urandom", O_RDONLY);
    int fd2 = dup(fd);
    close(fd);
    unsigned char u[8];
    ssize_t got = read(fd2, u, sizeof u);
    printf("urandom_dup_read=%zd\n", got);
    hex("urandom_dup", u, 8);
    close(fd2);
    return 0;
}
