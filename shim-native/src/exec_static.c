/*
 * exec_static.c - a statically linked image exec'd from inside a shimmed tree (audit item 5).
 * LD_PRELOAD never reaches it and, below a dynamically linked root, no supervisor traces it: it
 * runs with the real clock and real randomness. The exec hooks (proc_tree.c) call
 * weft_warn_if_static first, which prints one line per image (per run: the run segment remembers
 * which images were named, proc_sched.c) so the silence does not pass for determinism.
 *
 * Safety: raw system calls and stack buffers only (a hook right before exec, possibly in a vfork
 * child that shares its parent's memory: nothing is allocated and no libc state is touched).
 */
#include "weft.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Is the file at `path` an ELF image with PT_LOAD segments and no PT_INTERP (64- or 32-bit)? Fills
 * *key with a mark of the file (device and inode) on yes. */
static int static_elf(const char *path, uint64_t *key) {
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (fd < 0) return 0;
    int result = 0, loads = 0;
    union { Elf64_Ehdr e64; Elf32_Ehdr e32; } h;
    struct stat st;
    if (weft_real_syscall(SYS_pread64, fd, &h, sizeof h, 0, 0, 0) == (long)sizeof h.e64 &&
        !memcmp(h.e64.e_ident, ELFMAG, SELFMAG) && weft_real_syscall(SYS_fstat, fd, &st, 0, 0, 0, 0) == 0) {
        int wide = h.e64.e_ident[EI_CLASS] == ELFCLASS64;
        uint64_t off = wide ? h.e64.e_phoff : h.e32.e_phoff;
        unsigned n = wide ? h.e64.e_phnum : h.e32.e_phnum, size = wide ? h.e64.e_phentsize : h.e32.e_phentsize;
        unsigned char ph[64 * sizeof(Elf64_Phdr)];
        if (n > 0 && n <= 64 && size >= (wide ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)) && (uint64_t)n * size <= sizeof ph &&
            weft_real_syscall(SYS_pread64, fd, ph, (long)n * size, (long)off, 0, 0) == (long)n * size) {
            result = 1;
            for (unsigned i = 0; i < n; i++) {
                uint32_t type;
                memcpy(&type, ph + (size_t)i * size, sizeof type); /* p_type comes first in both classes */
                if (type == PT_INTERP) result = 0;
                if (type == PT_LOAD) loads++;
            }
            result = result && loads > 0;
            *key = ((uint64_t)st.st_dev << 40) ^ (uint64_t)st.st_ino ^ 1; /* never 0 */
        }
    }
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    return result;
}

/* A tracer follows the new image (weft_super supervises a static root and its descendants): then it
 * is simulated after all. TracerPid from /proc/self/status, read on the stack. */
static int traced(void) {
    char buf[2048];
    long fd = weft_real_syscall(SYS_openat, AT_FDCWD, "/proc/self/status", O_RDONLY | O_CLOEXEC, 0, 0, 0);
    if (fd < 0) return 0;
    long n = weft_real_syscall(SYS_read, fd, buf, sizeof buf - 1, 0, 0, 0);
    weft_real_syscall(SYS_close, fd, 0, 0, 0, 0, 0);
    if (n <= 0) return 0;
    buf[n] = '\0';
    char *t = strstr(buf, "TracerPid:");
    if (!t) return 0;
    for (t += 10; *t == ' ' || *t == '\t'; t++) {}
    return *t >= '1' && *t <= '9';
}

/* `file` as exec will find it: a name without '/' through PATH when `search` (execvp, execlp,
 * posix_spawnp), the first executable entry; written into `out`. 0 when not found. */
static int resolve(const char *file, int search, char *out, size_t cap) {
    size_t flen = strlen(file);
    if (!search || strchr(file, '/')) {
        if (flen >= cap) return 0;
        memcpy(out, file, flen + 1);
        return 1;
    }
    const char *path = getenv("PATH"); /* reads environ: no allocation */
    if (!path) path = "/bin:/usr/bin";
    for (const char *p = path;; p++) {
        const char *end = strchrnul(p, ':');
        size_t dlen = (size_t)(end - p);
        if (dlen + 1 + flen < cap) {
            if (dlen) memcpy(out, p, dlen);
            else out[dlen++] = '.'; /* an empty entry is the current directory */
            out[dlen] = '/';
            memcpy(out + dlen + 1, file, flen + 1);
            if (weft_real_syscall(SYS_faccessat, AT_FDCWD, out, X_OK, 0, 0, 0) == 0) return 1;
        }
        if (!*end) return 0;
        p = end;
    }
}

void weft_warn_if_static(const char *file, int search) {
    char path[4096];
    uint64_t key = 0;
    if (!file || !resolve(file, search, path, sizeof path) || !static_elf(path, &key)) return;
    if (traced() || !weft_pt_first_static(key)) return;
    weft_errline("[weft] WARNING: %s is statically linked: not simulated (run it directly under weft run to use the"
                 " static-binary supervisor)", path);
}
