/*
 * hook_wait.c - blocking waits for children (waitpid, wait, wait3, wait4, waitid), split from
 * hook_io.c: a managed thread waits in the model, an unmanaged one under process scheduling waits
 * for the run token's turns, until a child matching the call has a state change (probed with
 * waitid(WNOHANG | WNOWAIT), weft_io_probe); then the real call returns at once. A child that ended
 * was reaped, so the parent's clock learns the child's (proc_sched.c).
 */
#include "weft.h"

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

typedef pid_t (*waitpid_fn)(pid_t, int *, int);
typedef pid_t (*wait_fn)(int *);
typedef pid_t (*wait4_fn)(pid_t, int *, int, struct rusage *);
typedef int (*waitid_fn)(idtype_t, id_t, siginfo_t *, int);
REAL_FN(waitpid_fn, waitpid)
REAL_FN(wait_fn, wait)
REAL_FN(wait4_fn, wait4)
typedef pid_t (*wait3_fn)(int *, int, struct rusage *);
REAL_FN(wait3_fn, wait3)
REAL_FN(waitid_fn, waitid)

static int probe_ready(void *w) { return weft_io_probe(w); }

/* A blocking wait for a child by a managed thread: wait in the model until a child matching
 * (idtype, id) has a state change, then the real call returns at once. The child is another
 * process and needs no token, but the parent's other threads may be what it waits for. An
 * unmanaged thread under process scheduling waits the same way for the run token's turns
 * (weft_pt_block), so the children can run meanwhile. */
/* Returns -1 when a virtual timer's handler (without SA_RESTART) interrupted the wait (hook_timer.c):
 * the call then fails with EINTR. */
static int before_child_wait(idtype_t idtype, int id, int wflags) {
    if ((wflags & WNOHANG) || !weft_engaged() || !(weft_sched_active() || weft_pt_active())) return 0;
    weft_io_wait w = {.kind = WEFT_IO_CHILD, .idtype = (int)idtype, .id = id, .wflags = wflags};
    if (weft_io_probe(&w)) return 0;
    WEFT_TRACE("wait_child", "idtype %d id %d", (int)idtype, id);
    if (weft_sched_active()) weft_sched_io_wait(&w, 0);
    else if (!weft_pt_block_timed(probe_ready, &w)) return -1;
    return 0;
}

/* waitpid/wait4 options -> waitid flags (WUNTRACED is WSTOPPED; the __W* flags carry over) */
static int waitid_flags(int options) {
    int f = WEXITED | (options & (WNOHANG | WCONTINUED | __WALL | __WCLONE | __WNOTHREAD));
    if (options & WUNTRACED) f |= WSTOPPED;
    return f;
}

static int before_pid_wait(pid_t pid, int options) {
    if (pid < -1) return before_child_wait(P_PGID, -pid, waitid_flags(options));
    if (pid == -1) return before_child_wait(P_ALL, 0, waitid_flags(options));
    if (pid == 0) return before_child_wait(P_PGID, 0, waitid_flags(options)); /* own group (Linux >= 5.4) */
    return before_child_wait(P_PID, pid, waitid_flags(options));
}
#define EINTR_IF(interrupted) do { if (interrupted) { errno = EINTR; return -1; } } while (0)

/* After a wait that returned pid r with status st: a child that ended was reaped, so the parent's
 * clock learns the child's (proc_sched.c). Stopped/continued children are not reaped. */
static void after_pid_wait(pid_t r, int st) {
    if (r > 0 && (WIFEXITED(st) || WIFSIGNALED(st)) && weft_engaged()) weft_pt_reaped(r);
}

WEFT_EXPORT pid_t waitpid(pid_t pid, int *status, int options) {
    EINTR_IF(before_pid_wait(pid, options));
    int st = 0;
    pid_t r = get_real_waitpid()(pid, &st, options);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT pid_t wait(int *status) {
    EINTR_IF(before_pid_wait(-1, 0));
    int st = 0;
    pid_t r = get_real_wait()(&st);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    EINTR_IF(before_pid_wait(pid, options));
    int st = 0;
    pid_t r = get_real_wait4()(pid, &st, options, ru);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
/* wait3: dash reaps its children with it (glibc's calls wait4 internally, past our hook) */
WEFT_EXPORT pid_t wait3(int *status, int options, struct rusage *ru) {
    EINTR_IF(before_pid_wait(-1, options));
    int st = 0;
    pid_t r = get_real_wait3()(&st, options, ru);
    status = WEFT_OPAQUE(status);
    if (r > 0 && status) *status = st;
    after_pid_wait(r, st);
    return r;
}
WEFT_EXPORT int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    EINTR_IF(before_child_wait(idtype, (int)id, options));
    int rc = get_real_waitid()(idtype, id, info, options);
    info = WEFT_OPAQUE(info);
    if (rc == 0 && info && info->si_pid > 0 && !(options & WNOWAIT) &&
        (info->si_code == CLD_EXITED || info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED) && weft_engaged())
        weft_pt_reaped(info->si_pid);
    return rc;
}
