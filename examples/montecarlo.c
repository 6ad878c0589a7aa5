/* montecarlo: millions of libc PRNG draws (rand, drand48, random, rand_r, *rand48).
 * Usage: montecarlo [points]   (default 1000000; about 5 draws per point) */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

int main(int argc, char **argv) {
    long points = argc > 1 ? atol(argv[1]) : 1000000;
    long in = 0;
    for (long i = 0; i < points; i++) {
        double x = rand() / (double)RAND_MAX, y = rand() / (double)RAND_MAX;
        if (x * x + y * y <= 1.0) in++;
    }
    printf("pi(rand)    = %.6f\n", 4.0 * (double)in / (double)points);
    in = 0;
    for (long i = 0; i < points; i++) {
        double x = drand48(), y = drand48();
        if (x * x + y * y <= 1.0) in++;
    }
    printf("pi(drand48) = %.6f\n", 4.0 * (double)in / (double)points);

    int deck[1000];
    for (int i = 0; i < 1000; i++) deck[i] = i;
    uint64_t check = 0xcbf29ce484222325ULL;
    for (long round = 0; round < points / 1000 + 1; round++)
        for (int i = 999; i > 0; i--) {
            int j = (int)(random() % (i + 1));
            int t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        }
    for (int i = 0; i < 1000; i++) check = (check ^ (uint64_t)deck[i]) * 0x100000001b3ULL;
    printf("shuffle checksum = %016llx head=[%d %d %d %d %d]\n", (unsigned long long)check, deck[0], deck[1],
           deck[2], deck[3], deck[4]);

    unsigned state = 12345;
    unsigned long long acc = 0;
    for (long i = 0; i < points / 2; i++) acc += (unsigned long long)rand_r(&state);
    unsigned short xsubi[3] = {1, 2, 3};
    long nr = 0;
    for (int i = 0; i < 1000; i++) nr ^= nrand48(xsubi);
    printf("rand_r acc = %llu, nrand48 xor = %ld, lrand48 next = %ld, mrand48 next = %ld\n", acc, nr, lrand48(),
           mrand48());
    return 0;
}
