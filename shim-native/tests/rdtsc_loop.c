/*
 * rdtsc_loop.c - reads the timestamp counter (rdtsc and rdtscp) in a loop and prints the values
 * (issue 18, item 4): with WEFT_RDTSC=1 they come from the virtual clock, the same for a seed.
 * Then it execs itself once with an argument, so the trap's hand-over across exec is exercised,
 * and finally a real segmentation fault reaches the program's own SIGSEGV handler.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <x86intrin.h>

static void on_segv(int sig) {
    (void)sig;
    static const char msg[] = "own SIGSEGV handler reached\n";
    (void)!write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv) {
    for (int i = 0; i < 3; i++) printf("rdtsc %llu\n", (unsigned long long)__rdtsc());
    unsigned aux = 0x41414141; /* read only after the instruction wrote it (argument order is unspecified) */
    unsigned long long tscp = __rdtscp(&aux);
    printf("rdtscp %llu aux %u\n", tscp, aux);
    fflush(stdout);
    if (argc == 1) {
        execl("/proc/self/exe", argv[0], "again", (char *)NULL);
        perror("execl");
        return 1;
    }
    signal(SIGSEGV, on_segv);
    volatile int *bad = NULL;
    return *bad;
}
