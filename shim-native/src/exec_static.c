/*
 * exec_static.c - a statically linked image exec'd from inside a shimmed tree (audit item 5, issue 29).
 * LD_PRELOAD never reaches it. The exec hooks (proc_tree.c) ask weft_static_exec_prepare first:
 * when weft_super lies beside this library, the exec becomes `weft_super --path FILE -- argv...`,
 * so the image runs under the seccomp supervisor with the identity and clock in WEFT_PROC
 * (super/super_join.c). Without a supervisor it runs with the real clock and real randomness, and
 * one line per image (per run: the run segment remembers which images were named, proc_sched.c)
 * says so, so the silence does not pass for determinism.
 *
 * Safety: raw system calls and stack buffers only (a hook right before exec, possibly in a vfork
 * child that shares its parent's memory: nothing is allocated and no libc state is touched; the
 * supervisor's path is found by the constructor).
 */
#include "weft.h"

#include <dlfcn.h>
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

/* Something already answers for the new image: a tracer follows it, or a weft_super above us set
 * WEFT_SUPERVISED for its tree (a static root's supervisor covers its descendants' static images
 * too). TracerPid from /proc/self/status, read on the stack. */
static int supervised(void) {
    if (getenv("WEFT_SUPERVISED")) return 1; /* reads environ: no allocation */
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

/* weft_super beside this library (weft run installs libweft_shim.so, weft_super and weft_exec in
 * one directory; the build leaves them in target/), found once by the constructor: dladdr takes
 * the loader's lock, which an exec hook in a fork child of a threaded program should not. Empty
 * when there is none. */
static char super_path[4096];

void weft_static_exec_init(void) {
    Dl_info info;
    if (!dladdr((void *)&weft_static_exec_init, &info) || !info.dli_fname) return;
    const char *slash = strrchr(info.dli_fname, '/');
    size_t dir = slash ? (size_t)(slash - info.dli_fname) + 1 : 0;
    static const char name[] = "weft_super";
    if (dir + sizeof name > sizeof super_path) return;
    memcpy(super_path, info.dli_fname, dir);
    memcpy(super_path + dir, name, sizeof name);
}

static int supervisor_path(char *out, size_t cap) {
    size_t n = strlen(super_path);
    if (!n || n >= cap) return 0;
    memcpy(out, super_path, n + 1);
    return weft_real_syscall(SYS_faccessat, AT_FDCWD, out, X_OK, 0, 0, 0) == 0;
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

int weft_static_exec_prepare(weft_static_exec *x, const char *file, int search, char *const argv[]) {
    uint64_t key = 0;
    if (!file || !resolve(file, search, x->path, sizeof x->path) || !static_elf(x->path, &key) || supervised())
        return 0;
    size_t n = 0;
    argv = WEFT_OPAQUE(argv);
    while (argv && argv[n]) n++;
    if (n + 5 <= WEFT_STATIC_ARGV && supervisor_path(x->super, sizeof x->super)) {
        x->argv[0] = x->super;
        x->argv[1] = (char *)"--path";
        x->argv[2] = x->path;
        x->argv[3] = (char *)"--";
        memcpy(x->argv + 4, argv, n * sizeof *argv);
        if (n == 0) x->argv[4 + n++] = x->path; /* an empty argv: the image still needs a name */
        x->argv[4 + n] = NULL;
        WEFT_TRACE("exec", "%s is static: under %s", x->path, x->super);
        return 1;
    }
    if (weft_pt_first_static(key))
        weft_errline("[weft] WARNING: %s is statically linked: not simulated (run it directly under weft run to use the"
                     " static-binary supervisor)", x->path);
    return 0;
}
