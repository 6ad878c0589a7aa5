/*
 * proc_pipes.c - a child writes 256 KiB into a pipe its parent reads, four times the pipe's 64 KiB,
 * through every kind of write stdio and the kernel offer, and the parent reads it back through every
 * kind of read (issue 18: under process scheduling a write to a full pipe, or a stdio refill of an
 * empty one, must be a process wait, not a block holding the run token):
 *   part 1: one write(2) of 64 KiB             read with read(2) (exactly 64 KiB)
 *   part 2: one fwrite of 64 KiB               read with one fread of 64 KiB
 *   part 3: 4096 fprintf lines of 16 bytes     read with fgets
 *   part 4: 4096 fputs lines of 16 bytes       read with getline
 * Each side checks every byte; the parent prints one line per part and "ok". Between parts the
 * parent sleeps (virtual time: a yield point), so the writer gets ahead and fills the pipe.
 * With the argument "threaded" the reader is a second thread of the writing process instead (a
 * forked child exists, so process scheduling is on): the writer's wait for room must be a wait in
 * the thread model, where the reader thread can run, not a process wait that keeps it parked.
 * With "long" a child writes one line of 102000 bytes in 3000-byte writes (each takes a page of its
 * own, so the pipe is full at 48000 bytes) and the parent reads it with getline and then fgets: a
 * line longer than the pipe holds cannot be waited for as a whole.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define PART 65536
#define LINES (PART / 16)

static char byte_at(int part, size_t i) { return (char)('a' + (part * 7 + i * 13) % 26); }

static void line_at(char out[17], int part, int i) { snprintf(out, 17, "p%d line %07d\n", part, i); }

static int writer(int fd) {
    static char buf[PART];
    for (size_t i = 0; i < PART; i++) buf[i] = byte_at(1, i);
    if (write(fd, buf, PART) != PART) return 1;
    FILE *f = fdopen(fd, "w");
    if (!f) return 1;
    for (size_t i = 0; i < PART; i++) buf[i] = byte_at(2, i);
    if (fwrite(buf, 1, PART, f) != PART) return 1;
    for (int i = 0; i < LINES; i++) fprintf(f, "p%d line %07d\n", 3, i);
    char line[17];
    for (int i = 0; i < LINES; i++) { line_at(line, 4, i); fputs(line, f); }
    return fclose(f) != 0;
}

static int fail(const char *what) { printf("%s: wrong\n", what); return 1; }

static int tp[2];

static void *drain(void *arg) {
    (void)arg;
    static char b[8192];
    long total = 0, r;
    while ((r = read(tp[0], b, sizeof b)) > 0) total += r;
    printf("reader thread got %ld bytes\n", total);
    return NULL;
}

static int threaded(void) {
    if (pipe(tp) != 0) return 1;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) _exit(0);
    pthread_t reader;
    if (pthread_create(&reader, NULL, drain, NULL)) return 1;
    static char buf[4 * PART];
    memset(buf, 'x', sizeof buf);
    FILE *f = fdopen(tp[1], "w");
    if (!f || fwrite(buf, 1, sizeof buf, f) != sizeof buf || fclose(f) != 0) return fail("threaded fwrite");
    pthread_join(reader, NULL);
    waitpid(child, NULL, 0);
    return 0;
}

static int long_line(void) {
    int p[2];
    if (pipe(p) != 0) return 1;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        close(p[0]);
        char b[3000];
        memset(b, 'x', sizeof b);
        for (int line = 0; line < 2; line++) {
            for (int i = 0; i < 34; i++) if (write(p[1], b, sizeof b) != (ssize_t)sizeof b) _exit(2);
            if (write(p[1], "\n", 1) != 1) _exit(2);
        }
        _exit(0);
    }
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char *l = NULL;
    size_t cap = 0;
    printf("getline: %zd bytes\n", getline(&l, &cap, f));
    static char buf[200000];
    printf("fgets: %zu bytes\n", fgets(buf, sizeof buf, f) ? strlen(buf) : 0);
    free(l);
    int st;
    return waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : fail("long writer");
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "threaded")) return threaded();
    if (argc > 1 && !strcmp(argv[1], "long")) return long_line();
    int p[2];
    if (pipe(p) != 0) { perror("pipe"); return 1; }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) { close(p[0]); _exit(writer(p[1])); }
    close(p[1]);
    static char buf[PART];
    size_t got = 0;
    usleep(1000);
    while (got < PART) {
        ssize_t r = read(p[0], buf + got, PART - got);
        if (r <= 0) return fail("read");
        got += (size_t)r;
    }
    for (size_t i = 0; i < PART; i++) if (buf[i] != byte_at(1, i)) return fail("read");
    printf("part 1: read %zu bytes\n", got);
    FILE *f = fdopen(p[0], "r");
    usleep(1000);
    if (fread(buf, 1, PART, f) != PART) return fail("fread");
    for (size_t i = 0; i < PART; i++) if (buf[i] != byte_at(2, i)) return fail("fread");
    printf("part 2: fread %d bytes\n", PART);
    usleep(1000);
    char want[17], line[64];
    for (int i = 0; i < LINES; i++) {
        line_at(want, 3, i);
        if (!fgets(line, sizeof line, f) || strcmp(line, want)) return fail("fgets");
    }
    printf("part 3: fgets %d lines\n", LINES);
    usleep(1000);
    char *l = NULL;
    size_t cap = 0;
    for (int i = 0; i < LINES; i++) {
        line_at(want, 4, i);
        if (getline(&l, &cap, f) != 16 || strcmp(l, want)) return fail("getline");
    }
    free(l);
    printf("part 4: getline %d lines\n", LINES);
    int st;
    if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return fail("writer");
    printf("ok\n");
    return 0;
}
