/* entropy: threads read every random source at once; results are combined commutatively
 * (byte count, XOR and sum of 64-bit words), so they do not depend on which thread drew what.
 * Usage: entropy [threads] [rounds] */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static int rounds = 50;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t total_bytes, total_xor, total_sum, stamps, usec_sum;

static void absorb(uint64_t *x, uint64_t *s, const unsigned char *b, size_t n) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        *x ^= w;
        *s += w;
    }
}

static void *worker(void *arg) {
    (void)arg;
    unsigned char buf[1024];
    uint64_t x = 0, s = 0, bytes = 0, st = 0, us = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    int fd2 = dup(fd);
    FILE *f = fopen("/dev/urandom", "r");
    for (int r = 0; r < rounds; r++) {
        getrandom(buf, sizeof buf, 0);                 absorb(&x, &s, buf, sizeof buf); bytes += sizeof buf;
        getentropy(buf, 256);                          absorb(&x, &s, buf, 256); bytes += 256;
        if (read(r % 2 ? fd2 : fd, buf, sizeof buf) != (ssize_t)sizeof buf) abort();
        absorb(&x, &s, buf, sizeof buf); bytes += sizeof buf;
        if (fread(buf, 1, 512, f) != 512) abort();
        absorb(&x, &s, buf, 512); bytes += 512;
        arc4random_buf(buf, 256);                      absorb(&x, &s, buf, 256); bytes += 256;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        st++;
        us += (uint64_t)ts.tv_nsec / 1000 % 1000; /* position within the millisecond */
    }
    fclose(f);
    close(fd2);
    close(fd);
    pthread_mutex_lock(&mu);
    total_bytes += bytes; total_xor ^= x; total_sum += s; stamps += st; usec_sum += us;
    pthread_mutex_unlock(&mu);
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    if (argc > 2) rounds = atoi(argv[2]);
    const unsigned char *aux = (const unsigned char *)getauxval(AT_RANDOM);
    printf("AT_RANDOM = ");
    for (int i = 0; i < 16; i++) printf("%02x", aux[i]);
    printf("\n");
    uint64_t head;
    getentropy(&head, sizeof head);
    printf("getentropy head = %016llx\n", (unsigned long long)head);
    pthread_t t[64];
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, worker, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    printf("combined: bytes=%llu xor=%016llx sum=%016llx\n", (unsigned long long)total_bytes,
           (unsigned long long)total_xor, (unsigned long long)total_sum);
    printf("clock stamps: count=%llu\n", (unsigned long long)stamps);
    return 0;
}
