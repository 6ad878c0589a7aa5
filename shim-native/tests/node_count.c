/*
 * node_count - the windowed node count's ordering (src/node_count.h): whichever process finds itself
 * the last to wait must still see every other wait of the node on its way to the broker, however
 * the two processes' steps interleave. Each case runs one process's wait and, between its
 * announcement and its look at the count (NODE_COUNT_BETWEEN), the other's whole wait: the worst
 * place for it. Prints one line per case and "ALL OK" (exit 0), or what went wrong (exit 1).
 */
#include <stdatomic.h>
#include <stdio.h>

static void run_other(void);
#define NODE_COUNT_BETWEEN() run_other()
#include "../src/node_count.h"

static atomic_int running, setting_aside;
static int other_pending;        /* the other process's wait, still to run at the next seam */
static int other_state;          /* what the other process is to the count (NODE_*) */
static int other_last, other_saw_pending;

/* The other process's wait, whole: if it is the last, may it send its idle wait now? */
static void run_other(void) {
    if (!other_pending) return;
    other_pending = 0;
    other_last = node_count_wait_begin(&running, &setting_aside, other_state, 1);
    other_saw_pending = other_last && !node_count_settled(&setting_aside);
}

static int failures;

/* `mine`, `theirs`: each process's NODE_* state; `counted`: the processes in `running` at the start. */
static void check(const char *name, int mine, int theirs, int counted) {
    atomic_store(&running, counted);
    atomic_store(&setting_aside, 0);
    other_pending = 1;
    other_state = theirs;
    other_last = other_saw_pending = 0;
    int my_last = node_count_wait_begin(&running, &setting_aside, mine, 1);
    int my_saw_pending = my_last && !node_count_settled(&setting_aside);
    const char *verdict = "ok";
    /* both may find themselves last (each then sends an idle wait); one last and the other set aside:
     * the last one must see the other's wait still unacknowledged */
    if (!my_last && !other_last) verdict = "FAIL: no idle wait (the node would never be idle)";
    else if ((my_last && !other_last && !my_saw_pending) || (other_last && !my_last && !other_saw_pending))
        verdict = "FAIL: the idle wait would go before the other's wait set aside";
    if (my_last != other_last) node_count_acknowledged(&setting_aside);   /* the Ack of the wait set aside */
    if (atomic_load(&setting_aside) != 0 && verdict[0] == 'o') verdict = "FAIL: an announcement is left over";
    if (verdict[0] != 'o') failures++;
    printf("%s: %s\n", name, verdict);
}

int main(void) {
    /* socat: the parent goes back to accept while its fork child goes to poll, both running */
    check("parent and fork child both leave the count", NODE_RUNNING, NODE_RUNNING, 2);
    /* a thread of a process already out of the count arms another wait while the other process leaves */
    check("a waiting process arms again while the other leaves", NODE_WAITING, NODE_RUNNING, 1);
    check("the other leaves while a waiting process arms again", NODE_RUNNING, NODE_WAITING, 1);
    if (failures) return 1;
    printf("ALL OK\n");
    return 0;
}
