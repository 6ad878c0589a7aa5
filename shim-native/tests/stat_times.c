/*
 * stat_times.c - a file made during the run, seen through every stat entry point (issue 18,
 * item 3). Prints one mtime per entry point, then sets "now" with futimens and utimensat.
 * Usage: stat_times DIR
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: stat_times DIR\n"); return 2; }
    char p[4096];
    snprintf(p, sizeof p, "%s/fresh", argv[1]);
    int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, "x", 1) != 1) { perror(p); return 1; }
    struct stat st;
    struct statx sx;
    stat(p, &st); printf("stat %ld\n", (long)st.st_mtime);
    lstat(p, &st); printf("lstat %ld\n", (long)st.st_mtime);
    fstat(fd, &st); printf("fstat %ld\n", (long)st.st_mtime);
    fstatat(AT_FDCWD, p, &st, 0); printf("fstatat %ld\n", (long)st.st_mtime);
    statx(AT_FDCWD, p, 0, STATX_MTIME | STATX_BTIME, &sx); printf("statx %lld\n", (long long)sx.stx_mtime.tv_sec);
    syscall(SYS_newfstatat, AT_FDCWD, p, &st, 0); printf("syscall newfstatat %ld\n", (long)st.st_mtime);
    stat("/etc/passwd", &st); printf("old file %ld\n", (long)st.st_mtime);
    futimens(fd, NULL);
    fstat(fd, &st); printf("futimens now %ld.%09ld\n", (long)st.st_mtime, st.st_mtim.tv_nsec);
    struct timespec t[2] = {{0, UTIME_OMIT}, {0, UTIME_NOW}};
    utimensat(AT_FDCWD, p, t, 0);
    stat(p, &st); printf("utimensat now %ld.%09ld\n", (long)st.st_mtime, st.st_mtim.tv_nsec);
    close(fd);
    unlink(p);
    return 0;
}
