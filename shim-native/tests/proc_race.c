/*
 * proc_race.c - a lost-update race between processes (issue 18, item 1): two forked children
 * each add 1 to a counter kept in a shared file, three times, by reading it (pread), pausing
 * (usleep: a yield point) and writing it back (pwrite). Each step is reported with write(2).
 * Run freely, the outcome depends on real timing. Under process scheduling (WEFT_PROC_SCHED=1)
 * the processes take turns in a seeded order: the output, and whether updates are lost, is a
 * function of the seed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ROUNDS 3

static void say(const char *fmt, int a, int b, int c) {
    char line[96];
    int n = snprintf(line, sizeof line, fmt, a, b, c);
    if (write(1, line, (size_t)n) != n) _exit(3);
}

static int get(int fd) {
    char buf[16] = {0};
    if (pread(fd, buf, sizeof buf - 1, 0) < 0) _exit(2);
    return atoi(buf);
}

static void put(int fd, int v) {
    char buf[16];
    int n = snprintf(buf, sizeof buf, "%-8d", v);
    if (pwrite(fd, buf, (size_t)n, 0) != n) _exit(2);
}

int main(void) {
    FILE *f = tmpfile();
    if (!f) { perror("tmpfile"); return 1; }
    int fd = fileno(f);
    put(fd, 0);
    pid_t kids[2];
    for (int c = 0; c < 2; c++) {
        kids[c] = fork();
        if (kids[c] < 0) { perror("fork"); return 1; }
        if (kids[c] == 0) {
            for (int r = 0; r < ROUNDS; r++) {
                int v = get(fd);
                usleep(10);
                put(fd, v + 1);
                say("child %d round %d wrote %d\n", c, r, v + 1);
            }
            _exit(0);
        }
    }
    for (int c = 0; c < 2; c++) waitpid(kids[c], NULL, 0);
    int total = get(fd);
    say("total %d, lost %d\n", total, 2 * ROUNDS - total, 0);
    return 0;
}
