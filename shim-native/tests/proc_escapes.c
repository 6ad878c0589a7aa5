/*
 * proc_escapes.c - calls whose answers glibc makes with its own system calls (issue 18 item 5):
 * CPU-time clocks and the temp-name family. Prints one line per call; under the shim every line
 * is a function of the seed. Files and directories it creates are removed before it exits.
 * Usage: proc_escapes DIR (a writable directory for the temp names).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: proc_escapes DIR\n"); return 2; }
    const char *dir = argv[1];
    size_t dl = strlen(dir);
    clock_t c1 = clock();
    struct tms t;
    clock_t el = times(&t);
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) { perror("getrusage"); return 1; }
    clock_t c2 = clock();
    printf("clock %ld %ld\n", (long)c1, (long)c2);
    printf("times %ld utime %ld\n", (long)el, (long)t.tms_utime);
    printf("getrusage %ld.%06ld maxrss %ld\n", (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec, ru.ru_maxrss);
    /* consistency: the readings are in call order */
    long ru_us = (long)ru.ru_utime.tv_sec * 1000000 + (long)ru.ru_utime.tv_usec;
    if (!(c1 <= ru_us && ru_us <= c2)) printf("INCONSISTENT clock/getrusage\n");

    char p[4096];
    snprintf(p, sizeof p, "%s/sXXXXXX", dir);
    int fd = mkstemp(p);
    printf("mkstemp %s\n", fd >= 0 ? p + dl + 1 : "FAILED");
    if (fd >= 0) { close(fd); unlink(p); }
    snprintf(p, sizeof p, "%s/oXXXXXX.txt", dir);
    fd = mkostemps(p, 4, 0);
    printf("mkostemps %s\n", fd >= 0 ? p + dl + 1 : "FAILED");
    if (fd >= 0) { close(fd); unlink(p); }
    snprintf(p, sizeof p, "%s/dXXXXXX", dir);
    char *d = mkdtemp(p);
    printf("mkdtemp %s\n", d ? p + dl + 1 : "FAILED");
    if (d) rmdir(p);
    snprintf(p, sizeof p, "%s/mXXXXXX", dir);
    printf("mktemp %s\n", mktemp(p)[0] ? p + dl + 1 : "FAILED");
    char n[L_tmpnam];
    printf("tmpnam %s\n", tmpnam(n) ? n : "FAILED");
    char *tn = tempnam(dir, "pre");
    printf("tempnam %s\n", tn ? tn + dl + 1 : "FAILED");
    free(tn);
    FILE *f = tmpfile();
    if (!f || fputs("x", f) < 0) printf("tmpfile FAILED\n");
    else printf("tmpfile ok\n");
    if (f) fclose(f);
    snprintf(p, sizeof p, "%s/bad", dir);
    printf("mkstemp without X: %d\n", mkstemp(p));
    return 0;
}
