/* Writes 100 blocks of 100 bytes to argv[1] with write(2), retrying short writes, and fsyncs.
 * Prints what happened: short writes, the errno that stopped it, the file size, fsync result. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) { perror("open"); return 2; }
    char block[100];
    memset(block, 'x', sizeof block);
    int shorts = 0, err = 0;
    long total = 0;
    for (int i = 0; i < 100 && !err; i++) {
        size_t off = 0;
        while (off < sizeof block) {
            ssize_t w = write(fd, block + off, sizeof block - off);
            if (w < 0) { err = errno; break; }
            if ((size_t)w < sizeof block - off) shorts++;
            off += (size_t)w;
            total += w;
        }
    }
    int fs = fsync(fd);
    close(fd);
    struct stat st;
    stat(argv[1], &st);
    printf("written=%ld size=%ld short_writes=%d stop=%s fsync=%d\n", total, (long)st.st_size, shorts,
           err == ENOSPC ? "ENOSPC" : err ? strerror(err) : "none", fs);
    return 0;
}
