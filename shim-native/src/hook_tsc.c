/*
 * hook_tsc.c - the timestamp counter from virtual time (issue 18, item 4). Opt-in: WEFT_RDTSC=1.
 *
 * rdtsc/rdtscp are unprivileged instructions, but Linux can make them fault:
 * prctl(PR_SET_TSC, PR_TSC_SIGSEGV) turns each into a SIGSEGV (si_code SI_KERNEL) for the thread
 * and the threads it creates. Our SIGSEGV handler recognises the instruction at the faulting RIP
 * (0F 31 rdtsc, 0F 01 F9 rdtscp), answers EDX:EAX = 3 x (a clock observation in ns + the realtime
 * base modulo one day) (a 3 GHz counter that advances 1 us per read, like every other clock
 * reading, started at a seed-chosen instant; rdtscp's ECX, the CPU id, is 0), and
 * steps over it. Any other SIGSEGV goes to the handler the program installed: sigaction/signal
 * for SIGSEGV are kept by the shim (ours stays installed), and the disposition that was in place
 * before ours (an ASan runtime's, say) is the initial "program's handler".
 *
 * Why opt-in: the trap survives exec, and the new image's dynamic loader reads the TSC before any
 * preload can answer (measured: the exec'd /bin/true dies of SIGSEGV). The exec hooks here
 * (execve, execv, execvp, execvpe, execl, execlp, execle) and posix_spawn/posix_spawnp, system
 * and popen turn the trap off in the calling thread first (the child inherits that), and the new
 * image's shim turns it back on; an exec the shim cannot see (a raw system call, another thread's
 * vfork child) would crash the new image.
 */
#include "weft.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*system_fn)(const char *);
typedef FILE *(*popen_fn)(const char *, const char *);
REAL_FN(sigaction_fn, sigaction)
REAL_FN(signal_fn, signal)
REAL_FN(system_fn, system)
REAL_FN(popen_fn, popen)

static int tsc_on;                    /* WEFT_RDTSC=1 and the trap is installed */
static struct sigaction user_segv;    /* the program's SIGSEGV disposition */
static atomic_ulong tsc_traps;        /* rdtsc/rdtscp answered (for --stats) */

#define TSC_PER_NS 3

static void forward(int sig, siginfo_t *info, void *ctx) {
    struct sigaction u = user_segv;
    if (u.sa_flags & SA_SIGINFO) { u.sa_sigaction(sig, info, ctx); return; }
    if (u.sa_handler != SIG_DFL && u.sa_handler != SIG_IGN) { u.sa_handler(sig); return; }
    /* default action: put it in place; a fault re-executes and dies, a sent signal is re-raised */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    get_real_sigaction()(SIGSEGV, &dfl, NULL);
    if (info->si_code <= 0)
        weft_real_syscall(SYS_tgkill, weft_real_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0),
                          weft_real_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0), SIGSEGV, 0, 0, 0);
}

/* Async-signal-safe: an atomic clock observation and register edits, nothing else. */
static void on_segv(int sig, siginfo_t *info, void *vctx) {
    ucontext_t *ctx = vctx;
    if (info->si_code == SI_KERNEL) {
        const unsigned char *ip = (const unsigned char *)ctx->uc_mcontext.gregs[REG_RIP];
        int len = ip[0] == 0x0F && ip[1] == 0x31 ? 2 : ip[0] == 0x0F && ip[1] == 0x01 && ip[2] == 0xF9 ? 3 : 0;
        if (len) {
            /* the machine "booted" a seed-chosen part of a day before the clock's origin */
            uint64_t tsc = (weft_mono_observe() + weft_cfg.real_base_ns % 86400000000000ULL) * TSC_PER_NS;
            ctx->uc_mcontext.gregs[REG_RAX] = (greg_t)(tsc & 0xFFFFFFFFu);
            ctx->uc_mcontext.gregs[REG_RDX] = (greg_t)(tsc >> 32);
            if (len == 3) ctx->uc_mcontext.gregs[REG_RCX] = 0;
            ctx->uc_mcontext.gregs[REG_RIP] += len;
            atomic_fetch_add_explicit(&tsc_traps, 1, memory_order_relaxed);
            return;
        }
    }
    forward(sig, info, vctx);
}

/* Constructor work (single-threaded, before main): install the handler, then the trap. */
void weft_tsc_init(void) {
    const char *v = getenv("WEFT_RDTSC");
    if (!v || strcmp(v, "1") != 0) return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
    if (get_real_sigaction()(SIGSEGV, &sa, &user_segv) != 0) return;
    if (weft_real_syscall(SYS_prctl, PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0, 0) != 0) {
        weft_errline("[weft] WARNING: WEFT_RDTSC=1 but prctl(PR_SET_TSC) failed; rdtsc is not virtual");
        get_real_sigaction()(SIGSEGV, &user_segv, NULL);
        return;
    }
    tsc_on = 1;
}

unsigned long weft_tsc_traps(void) { return atomic_load_explicit(&tsc_traps, memory_order_relaxed); }

/* Before an exec or a spawn from this thread: the next image's loader must read the TSC. */
void weft_tsc_allow(void) {
    if (tsc_on) weft_real_syscall(SYS_prctl, PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0, 0);
}

/* After a spawn, or a failed exec: trap again. */
void weft_tsc_trap_again(void) {
    if (tsc_on) weft_real_syscall(SYS_prctl, PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0, 0);
}

WEFT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    if (sig == SIGSYS && weft_backstop_sigaction(act, old)) return 0; /* backstop.c keeps SIGSYS */
    if (sig != SIGSEGV || !tsc_on) return get_real_sigaction()(sig, act, old);
    /* ours stays installed; the program's disposition is kept for forward() */
    act = WEFT_OPAQUE(act);
    old = WEFT_OPAQUE(old);
    if (old) *old = user_segv;
    if (act) user_segv = *act;
    return 0;
}

WEFT_EXPORT sighandler_t signal(int sig, sighandler_t h) {
    if (sig != SIGSEGV || !tsc_on) return get_real_signal()(sig, h);
    sighandler_t prev = (user_segv.sa_flags & SA_SIGINFO) ? (sighandler_t)(void *)user_segv.sa_sigaction
                                                          : user_segv.sa_handler;
    memset(&user_segv, 0, sizeof user_segv);
    user_segv.sa_handler = h;
    user_segv.sa_flags = SA_RESTART;
    return prev;
}

WEFT_EXPORT int system(const char *cmd) {
    if (!tsc_on) return get_real_system()(cmd);
    weft_tsc_allow();
    int rc = get_real_system()(cmd);
    weft_tsc_trap_again();
    return rc;
}

WEFT_EXPORT FILE *popen(const char *cmd, const char *mode) {
    if (!tsc_on) return get_real_popen()(cmd, mode);
    weft_tsc_allow();
    FILE *f = get_real_popen()(cmd, mode);
    weft_tsc_trap_again();
    return f;
}

/* execl, execlp, execle: glibc's own versions exec internally, past our execve hook, so they are
 * rebuilt here on execv/execvp/execve (ours). Up to 4096 arguments on the stack. */
#define MAX_LARGS 4096
enum exec_list_kind { EXEC_L, EXEC_LP, EXEC_LE };

/* Collects the NULL-terminated argument list (and, for execle, the envp after it) from ap and execs.
 * Returns only on failure, like the exec family. ap belongs to the caller, which va_ends it. */
static int exec_from_list(enum exec_list_kind kind, const char *file, const char *arg0, va_list ap) {
    char *argv[MAX_LARGS];
    int n = 1;
    argv[0] = (char *)arg0;
    while (argv[n - 1] && n < MAX_LARGS) argv[n++] = va_arg(ap, char *);
    if (argv[n - 1]) { errno = E2BIG; return -1; }
    switch (kind) {
    case EXEC_LP: return execvp(file, argv);
    case EXEC_LE: return execve(file, argv, va_arg(ap, char *const *));
    default:      return execv(file, argv);
    }
}

/* va_start must run in the variadic hook itself, so each of the three opens its list here. */
#define EXEC_FROM_LIST(kind, file, arg) ({ \
        va_list ap_; \
        va_start(ap_, arg); \
        int r_ = exec_from_list(kind, file, arg, ap_); \
        va_end(ap_); \
        r_; })

WEFT_EXPORT int execl(const char *path, const char *arg, ...) {
    return EXEC_FROM_LIST(EXEC_L, path, arg);
}

WEFT_EXPORT int execlp(const char *file, const char *arg, ...) {
    return EXEC_FROM_LIST(EXEC_LP, file, arg);
}

WEFT_EXPORT int execle(const char *path, const char *arg, ...) {
    return EXEC_FROM_LIST(EXEC_LE, path, arg);
}
