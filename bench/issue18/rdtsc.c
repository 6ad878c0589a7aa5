/* Reads the timestamp counter in a loop (issue 18: same values for a seed across runs with --rdtsc). */
#include <stdint.h>
#include <stdio.h>
#include <x86intrin.h>

int main(void) {
    unsigned aux;
    for (int i = 0; i < 5; i++) {
        uint64_t a = __rdtsc();
        uint64_t b = __rdtscp(&aux);
        printf("%llu %llu%c", (unsigned long long)a, (unsigned long long)b, i == 4 ? '\n' : ' ');
    }
    return 0;
}
