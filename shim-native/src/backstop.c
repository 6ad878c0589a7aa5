/*
 * backstop.c - raw system calls made by the program's own code (issue 18 item 4): an inline
 * `syscall` instruction for getrandom, clock_gettime, gettimeofday or time never passes through a
 * libc function, so no preload hook sees it.
 *
 * Mechanism: Linux syscall user dispatch in its inclusive mode (prctl(PR_SET_SYSCALL_USER_DISPATCH,
 * PR_SYS_DISPATCH_INCLUSIVE_ON, start, len, &selector), Linux 6.17+): every system call made from
 * the instructions in [start, start + len) - here the main executable's executable segment - raises
 * SIGSYS (si_code SYS_USER_DISPATCH) instead of running, while system calls from anywhere else
 * (libc, the shim, other libraries) run as usual at no cost. The handler answers the time, CPU
 * (getcpu, times, getrusage) and random calls from the engine (through the shim's own hooks), and
 * runs every other call itself (from the shim's code, outside the region) with the same registers.
 *
 * Why this and not seccomp: a seccomp filter survives exec, so a static image exec'd later would be
 * killed by its first trapped call; syscall user dispatch is per thread, not inherited by fork or
 * clone, and cleared by exec (measured on 6.18). So it is enabled in the constructor (main thread),
 * in a fork child (the forking thread) and at the start of every thread created through
 * pthread_create. On older kernels (EINVAL) the backstop is off and --stats says so.
 *
 * Not re-issued from the handler: clone/clone3 with CLONE_VM (a new thread would start on the
 * handler's frame), vfork (its child would run on the parent's frame; run as fork instead),
 * rt_sigreturn, and a raw rt_sigaction for SIGSYS (a runtime taking the signal over). Except for
 * vfork, the thread's selector is set to "allow" (for rt_sigaction(SIGSYS), dispatch is switched
 * off) and the instruction re-executed natively: that thread's later raw calls are no longer caught
 * (counted, --stats).
 *
 * Safety: the handler is async-signal-safe - raw system calls, the engine's clock and streams
 * (which take the reentrancy guard themselves), no allocation. A raw call made while the shim is
 * re-entered (weft_depth > 0: a program signal handler interrupting the shim) is re-issued as is.
 * errno is preserved.
 */
#include "weft.h"

#include <errno.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <ucontext.h>

#ifndef PR_SET_SYSCALL_USER_DISPATCH
#define PR_SET_SYSCALL_USER_DISPATCH 59
#endif
#define SUD_INCLUSIVE_ON 2          /* PR_SYS_DISPATCH_INCLUSIVE_ON (Linux 6.17+) */
#define SUD_ALLOW 0
#define SUD_BLOCK 1
#define SYS_USER_DISPATCH_CODE 2    /* si_code of a dispatched SIGSYS */

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

static WEFT_TLS volatile char selector = SUD_BLOCK;
static uintptr_t region_start, region_len;
static int backstop_on;             /* the constructor enabled it for the main thread */
static const char *off_reason = "not started"; /* why it is off (NULL: on); for WEFT_TRACE */
static struct sigaction user_sys;   /* the program's SIGSYS disposition */
static atomic_ulong answered, reissued, released;

/* The system call instruction itself, returning the kernel's value (-errno on failure). */
static long raw6(long n, long a, long b, long c, long d, long e, long f) {
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

/* A libc-style result (-1 and errno) as the kernel's (-errno). */
static long kernel_result(long r) { return r == -1 ? -(long)errno : r; }

static void forward(int sig, siginfo_t *info, void *ctx) {
    struct sigaction u = user_sys;
    if (u.sa_flags & SA_SIGINFO) { u.sa_sigaction(sig, info, ctx); return; }
    if (u.sa_handler != SIG_DFL && u.sa_handler != SIG_IGN) { u.sa_handler(sig); return; }
    if (u.sa_handler == SIG_IGN) return;
    raw6(SYS_exit_group, 128 + SIGSYS, 0, 0, 0, 0, 0); /* the default action ends the process */
}

static void on_sigsys(int sig, siginfo_t *info, void *vctx) {
    if (info->si_code != SYS_USER_DISPATCH_CODE) { forward(sig, info, vctx); return; }
    ucontext_t *ctx = vctx;
    greg_t *g = ctx->uc_mcontext.gregs;
    long nr = info->si_syscall;
    long a = g[REG_RDI], b = g[REG_RSI], c = g[REG_RDX], d = g[REG_R10], e = g[REG_R8], f = g[REG_R9];
    int saved = errno;
    long r;
    int engaged = weft_engaged();
    if (engaged && nr == SYS_getrandom) r = kernel_result(getrandom((void *)a, (size_t)b, (unsigned)c));
    else if (engaged && nr == SYS_clock_gettime) r = kernel_result(clock_gettime((clockid_t)a, (struct timespec *)b));
    else if (engaged && nr == SYS_gettimeofday) r = kernel_result(gettimeofday((struct timeval *)a, (void *)b));
    else if (engaged && nr == SYS_time) r = (long)time((time_t *)a);
    else if (engaged && nr == SYS_getcpu) r = kernel_result(getcpu((unsigned *)a, (unsigned *)b));
    else if (engaged && nr == SYS_times) r = (long)times((struct tms *)a);
    else if (engaged && nr == SYS_getrusage) r = kernel_result(getrusage((int)a, (struct rusage *)b));
    else r = 0x7fffffff; /* not answered here */
    if (r != 0x7fffffff) {
        atomic_fetch_add_explicit(&answered, 1, memory_order_relaxed);
        WEFT_TRACE("backstop", "raw system call %ld answered", nr);
    } else if (nr == SYS_rt_sigreturn || ((nr == SYS_clone) && (a & CLONE_VM) && !(a & CLONE_VFORK)) ||
               nr == SYS_clone3 || (nr == SYS_rt_sigaction && a == SIGSYS)) {
        /* a runtime taking SIGSYS over (its own rt_sigaction) must not receive our dispatches:
         * this thread stops dispatching altogether */
        if (nr == SYS_rt_sigaction) raw6(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, 0, 0, 0, 0, 0);
        /* cannot run from here: let the instruction run natively, and this thread go unwatched */
        selector = SUD_ALLOW;
        g[REG_RIP] -= 2;
        atomic_fetch_add_explicit(&released, 1, memory_order_relaxed);
        errno = saved;
        return;
    } else {
        if (nr == SYS_vfork || (nr == SYS_clone && (a & CLONE_VFORK))) { nr = SYS_fork; a = b = 0; }
        r = raw6(nr, a, b, c, d, e, f);
        atomic_fetch_add_explicit(&reissued, 1, memory_order_relaxed);
    }
    g[REG_RAX] = (greg_t)r;
    errno = saved;
}

/* The main executable's executable PT_LOAD segment (the first object dl_iterate_phdr reports). */
static int find_text(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            region_start = info->dlpi_addr + ph->p_vaddr;
            region_len = ph->p_memsz;
            return 1;
        }
    }
    return 1; /* only the first object: the program */
}

/* Turn the backstop on for the calling thread (the selector is per thread, like the setting). */
void weft_backstop_thread(void) {
    if (!backstop_on) return;
    selector = SUD_BLOCK;
    raw6(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_INCLUSIVE_ON, (long)region_start, (long)region_len,
         (long)&selector, 0);
}

/* Constructor work (single-threaded, before main). WEFT_BACKSTOP=0 turns it off. */
void weft_backstop_init(void) {
    sigaction_fn real_sigaction = (sigaction_fn)weft_real("sigaction");
    const char *v = getenv("WEFT_BACKSTOP");
    if (v && !strcmp(v, "0")) { off_reason = "off (WEFT_BACKSTOP=0)"; return; }
    dl_iterate_phdr(find_text, NULL);
    if (!region_len) { off_reason = "off (no executable segment found)"; return; }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigsys;
    sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    if (real_sigaction(SIGSYS, &sa, &user_sys) != 0) { off_reason = "off (sigaction failed)"; return; }
    long r = raw6(SYS_prctl, PR_SET_SYSCALL_USER_DISPATCH, SUD_INCLUSIVE_ON, (long)region_start, (long)region_len,
                  (long)&selector, 0);
    if (r != 0) {
        off_reason = "off (this kernel has no inclusive syscall user dispatch, Linux 6.17+)";
        real_sigaction(SIGSYS, &user_sys, NULL);
        WEFT_TRACE("backstop", "%s", off_reason);
        return;
    }
    backstop_on = 1;
    off_reason = NULL;
}

/* sigaction/signal for SIGSYS while the backstop is on: the program's disposition is kept for
 * forward(), ours stays installed. Returns 1 when handled. */
int weft_backstop_sigaction(const struct sigaction *act, struct sigaction *old) {
    if (!backstop_on) return 0;
    act = WEFT_OPAQUE(act);
    old = WEFT_OPAQUE(old);
    if (old) *old = user_sys;
    if (act) user_sys = *act;
    return 1;
}

/* --stats: a line only when the backstop caught something (like the rdtsc line), so programs that
 * make no raw system calls print what they always printed. */
void weft_backstop_stats(void) {
    unsigned long a = atomic_load(&answered), r = atomic_load(&reissued), t = atomic_load(&released);
    if (off_reason || (a | r | t) == 0) return;
    weft_errline("[weft] backstop: %lu raw time/random system call(s) from the program's own code answered by the"
                 " engine, %lu other raw call(s) run for it, %lu thread(s) released (raw clone/sigreturn)", a, r, t);
}
