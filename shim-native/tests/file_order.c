/*
 * file_order.c - per-file virtual times (issue 18, item 3; docs/shim.md "File times"): files made
 * at different virtual instants keep their order, explicit times read back exactly, and a file a
 * child wrote reads the same in its parent (the table is the tree's). Prints one line per fact.
 * Usage: file_order DIR            the facts above
 *        file_order DIR many N     N files made by a process alone (its local table overflows)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[4000];

static const char *at(const char *name) {
    static char p[2][4096];
    static int k;
    k ^= 1;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static long long mtime_ns(const char *name) {
    struct stat st;
    if (stat(at(name), &st) != 0) { perror(name); exit(1); }
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

static void write_fd(const char *name) { /* open(O_CREAT|O_TRUNC) + write */
    int fd = open(at(name), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "x\n", 2) != 2) { perror(name); exit(1); }
    close(fd);
}

static void write_stdio(const char *name) { /* fopen("w") + stdio's own writes */
    FILE *f = fopen(at(name), "w");
    if (!f) { perror(name); exit(1); }
    fprintf(f, "y\n");
    fclose(f);
}

static void order(const char *x, const char *y) {
    long long a = mtime_ns(x), b = mtime_ns(y);
    printf("%s %lld %s %s %lld\n", x, a, a < b ? "<" : a == b ? "==" : ">", y, b);
}

/* N files, then how many distinct mtimes they show (the overflow reads through the mapping) */
static int many(int n) {
    char name[32];
    long long last = 0;
    int distinct = 0;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "m%d", i);
        write_fd(name);
        usleep(1000);
    }
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "m%d", i);
        long long t = mtime_ns(name);
        distinct += t != last;
        last = t;
    }
    printf("%d files, %d distinct mtimes in order of writing\n", n, distinct);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: file_order DIR [many N]\n"); return 2; }
    snprintf(dir, sizeof dir, "%s", argv[1]);
    if (argc == 4) return many(atoi(argv[3]));

    write_fd("a");
    sleep(2);
    write_stdio("b");
    sleep(1);
    order("a", "b");
    order("a", "b"); /* a later reader agrees */

    /* explicit times read back exactly, the atime too */
    write_fd("c");
    struct timespec t[2] = {{1420115696, 123456789}, {1420115697, 987654321}};
    utimensat(AT_FDCWD, at("c"), t, 0);
    struct stat st;
    stat(at("c"), &st);
    printf("c set atime %ld.%09ld mtime %ld.%09ld\n", (long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
           (long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);

    /* a fork child writes d after 3 virtual seconds; the parent writes e after reaping it */
    pid_t pid = fork();
    if (pid == 0) {
        sleep(3);
        write_fd("d");
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    sleep(1);
    write_fd("e");
    order("b", "d");
    order("d", "e");

    /* an exec'd child (a shell) writes f; the parent writes g after it */
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "sleep 2; echo z > '%s'", at("f"));
    pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    waitpid(pid, NULL, 0);
    sleep(1);
    write_fd("g");
    order("e", "f");
    order("f", "g");
    return 0;
}
