/*
 * timer_wait.c - a wait for fds (poll, select, epoll, a blocking read) bounded by this process's
 * virtual timers (issue 29).
 *
 * On a machine a timer's signal interrupts such a wait at the expiry (EINTR when a handler ran, and
 * for read only when the handler lacks SA_RESTART), and a timerfd's expiry makes it ready. Here the
 * kernel never sees the timer, so the wait is cut at the expiry: until then the process waits as a
 * scheduler state (the rest of the tree, or the other threads, run; the wait ends early when the fds
 * become ready), then the clock moves to the expiry and the timer fires (hook_timer.c). With no
 * scheduler to wait in, nothing but the timer can come in virtual time, so the clock jumps there.
 */
#include "weft.h"
#include "sched_model.h"

int weft_timer_wait(int (*ready)(void *), void *arg, uint64_t deadline, int restart) {
    for (;;) {
        uint64_t t = weft_timer_next_fd();
        if (!t || (deadline && t >= deadline) || weft_depth || !weft_engaged()) return WEFT_TW_PASS;
        weft_timer_main_wait(t); /* a process-directed expiry is the main thread's (hook_timer.c) */
        int r = t > weft_mono_peek() ? ps_wait(ready, arg, t, S_IO_WAIT) : PW_TIMEOUT;
        weft_timer_main_wait(0);
        if (r == PW_READY) return WEFT_TW_READY;
        if (r == PW_CANCEL) return WEFT_TW_PASS;
        if (r == PW_REAL) {
            if (ready(arg)) return WEFT_TW_READY;
            weft_mono_at_least(t);
        }
        /* a handler ran: poll & co always fail with EINTR; a read only without SA_RESTART */
        if (weft_timer_fire_due() & (restart ? 2 : 1)) return WEFT_TW_EINTR;
        if (t <= weft_mono_peek() && ready(arg)) return WEFT_TW_READY;
    }
}

/*
 * A wait on a simulated socket (hook_net.c, hook_tcp.c). The broker serves the socket, so the wait
 * already has a virtual deadline path (SO_RCVTIMEO: a timed Recv or wait the broker or the pacing
 * ends, the clock then at the deadline); a signal timer that expires first becomes that deadline,
 * and at it the timer fires. Only signal timers cut such a wait: a timerfd cannot make a socket
 * ready, and CPU timers end no wait.
 */
uint64_t weft_timer_net_cut(uint64_t end) {
    /* no weft_depth check: the socket hooks ask with their socket's lock held (depth raised); they
     * fire (weft_timer_net_fired) only after letting it go */
    uint64_t t = weft_timer_next();
    if (!t || (end && t >= end) || !weft_cfg.active) return 0;
    weft_timer_main_wait(t); /* until the cut fires, or the main thread's next clock read */
    return t;
}

/* Called with weft_depth 0 (a handler runs here). */
int weft_timer_net_fired(uint64_t cut, int restart) {
    weft_timer_main_wait(0);
    weft_mono_at_least(cut);
    /* a handler ran: the call fails with EINTR unless it was SA_RESTART and the call restartable */
    return (weft_timer_fire_due() & (restart ? 2 : 1)) != 0;
}
