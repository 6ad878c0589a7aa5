/*
 * super_vdso.c - the vDSO is code the kernel maps into every process; clock_gettime,
 * gettimeofday, time, clock_getres and getcpu (and, on newer kernels, getrandom) answer from it
 * without entering the kernel, so a seccomp filter never sees them. Static glibc, musl and Go call
 * it through pointers they find at startup. We rewrite each entry point in the child's copy:
 *
 *   clock_gettime & co.:  mov eax, NR ; syscall ; ret   (b8 NR:32, 0f 05, c3)
 *   getrandom:            mov rax, -ENOSYS ; ret          (48 c7 c0 da ff ff ff, c3)
 *
 * The first becomes a real system call with the same arguments (the System V function ABI puts
 * the first three in rdi, rsi, rdx like the syscall ABI; rcx and r11, which syscall clobbers, are
 * caller-saved), which the filter turns into a notification. The vDSO getrandom needs state the
 * supervisor cannot provide, so it fails and its callers (glibc 2.41+, Go 1.24+) fall back to
 * the getrandom system call, which is notified too.
 *
 * Offsets are the same in every process on one kernel (one vDSO image), so they come from the
 * supervisor's own vDSO; the child's base comes from its auxiliary vector. Writes go through
 * /proc/PID/mem, which may write read-only text (as a debugger's breakpoints do); the page is
 * copied on write, private to the child, and copied again into its fork children.
 */
#include "super.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_ENTRIES 16

static struct entry { uint64_t off; int nr; } entries[MAX_ENTRIES];
static int nentries;
static char names[256];

/* Entry points by name: the __vdso_ name and its plain alias usually share one address. */
static const struct { const char *name; int nr; } wanted[] = {
    {"__vdso_clock_gettime", SYS_clock_gettime}, {"clock_gettime", SYS_clock_gettime},
    {"__vdso_gettimeofday", SYS_gettimeofday},   {"gettimeofday", SYS_gettimeofday},
    {"__vdso_time", SYS_time},                   {"time", SYS_time},
    {"__vdso_clock_getres", SYS_clock_getres},   {"clock_getres", SYS_clock_getres},
    {"__vdso_getcpu", SYS_getcpu},               {"getcpu", SYS_getcpu},
    {"__vdso_getrandom", -1},                    {"getrandom", -1},
};

static void add_entry(uint64_t off, int nr, const char *name) {
    for (int i = 0; i < nentries; i++)
        if (entries[i].off == off) return;
    if (nentries == MAX_ENTRIES) return;
    entries[nentries].off = off;
    entries[nentries].nr = nr;
    nentries++;
    size_t used = strlen(names);
    weft_fmt(names + used, sizeof names - used, "%s%s", used ? " " : "", name);
}

int super_vdso_prepare(void) {
    const unsigned char *img = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
    if (!img || memcmp(img, ELFMAG, SELFMAG) != 0 || img[EI_CLASS] != ELFCLASS64) return 0;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
    /* symbol values are link-time addresses; the first PT_LOAD maps file offset p_offset there */
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(img + eh->e_phoff);
    uint64_t bias = 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_LOAD) { bias = ph[i].p_vaddr - ph[i].p_offset; break; }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
        const char *str = (const char *)(img + sh[sh[i].sh_link].sh_offset);
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t s = 0; s < n; s++) {
            if (ELF64_ST_TYPE(sym[s].st_info) != STT_FUNC || sym[s].st_shndx == SHN_UNDEF) continue;
            for (size_t w = 0; w < sizeof wanted / sizeof wanted[0]; w++)
                if (strcmp(str + sym[s].st_name, wanted[w].name) == 0)
                    add_entry(sym[s].st_value - bias, wanted[w].nr, wanted[w].name);
        }
    }
    return nentries;
}

const char *super_vdso_names(void) { return names; }

int super_vdso_patch(pid_t pid, uint64_t base) {
    char path[64];
    weft_fmt(path, sizeof path, "/proc/%d/mem", (int)pid);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return -errno;
    int done = 0;
    for (int i = 0; i < nentries; i++) {
        unsigned char code[8];
        if (entries[i].nr >= 0) {
            uint32_t nr = (uint32_t)entries[i].nr;
            code[0] = 0xb8;
            memcpy(code + 1, &nr, 4);
            code[5] = 0x0f; code[6] = 0x05; code[7] = 0xc3;
        } else {
            static const unsigned char enosys[8] = {0x48, 0xc7, 0xc0, 0xda, 0xff, 0xff, 0xff, 0xc3};
            memcpy(code, enosys, 8);
        }
        if (pwrite(fd, code, sizeof code, (off_t)(base + entries[i].off)) != (ssize_t)sizeof code) {
            int e = errno;
            close(fd);
            return -e;
        }
        done++;
    }
    close(fd);
    return done;
}
