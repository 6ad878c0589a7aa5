/*
 * node_count - the windowed node count's ordering (src/node_count.h). Two processes of a node change
 * it at once; each case runs one process's step and, at its worst point (NODE_COUNT_BETWEEN: after
 * the first of its two changes), the other's whole step. What must hold whatever the interleaving:
 *   - exactly one wait declares the node idle, and it sees every other wait still on its way
 *     (announced), so it goes only once the broker holds them;
 *   - a process that finds the node not idle finds the process that runs again counted.
 * Prints one line per case and "ALL OK" (exit 0), or what went wrong (exit 1).
 */
#include <stdatomic.h>
#include <stdio.h>

static void at_seam(void);
#define NODE_COUNT_BETWEEN() at_seam()
#include "../src/node_count.h"

static atomic_int running, setting_aside, node_idle;
static void (*other)(void);       /* the other process's step, run once at the next seam */
static int other_state;           /* its NODE_* state for a wait */
static int other_idle, other_saw_pending, other_may_redeclare;

static void at_seam(void) {
    void (*f)(void) = other;
    other = 0;
    if (f) f();
}

static void other_waits(void) {
    other_idle = node_count_wait_begin(&running, &setting_aside, &node_idle, other_state, 1);
    other_saw_pending = other_idle && !node_count_settled(&setting_aside, 0);
}

/* It claims the declaration if nobody runs; the claim is given back at once (only whether it got it counts). */
static int claim_and_give_back(void) {
    int got = node_count_claim_redeclare(&running, &node_idle, 0);
    if (got) atomic_store(&node_idle, 0);
    return got;
}

static void other_looks_to_redeclare(void) { other_may_redeclare = claim_and_give_back(); }

static int failures;

static void report(const char *name, const char *verdict) {
    if (verdict[0] != 'o') failures++;
    printf("%s: %s\n", name, verdict);
}

/* Both processes wait at once: `mine`, `theirs` their NODE_* states, `counted` the running ones. */
static void both_wait(const char *name, int mine, int theirs, int counted) {
    atomic_store(&running, counted);
    atomic_store(&setting_aside, 0);
    atomic_store(&node_idle, 0);
    other = other_waits;
    other_state = theirs;
    other_idle = other_saw_pending = 0;
    int my_idle = node_count_wait_begin(&running, &setting_aside, &node_idle, mine, 1);
    int my_saw_pending = my_idle && !node_count_settled(&setting_aside, 0);
    const char *verdict = "ok";
    if (my_idle + other_idle != 1) verdict = "FAIL: not exactly one idle wait";
    else if (!(my_idle ? my_saw_pending : other_saw_pending))
        verdict = "FAIL: the idle wait would go before the other's wait set aside";
    node_count_acknowledged(&setting_aside);   /* the Ack of the wait set aside */
    if (atomic_load(&setting_aside) != 0 && verdict[0] == 'o') verdict = "FAIL: an announcement is left over";
    report(name, verdict);
}

/* An idle process's wait comes back while the other, waiting, looks whether to re-declare. */
static void runs_while_the_other_looks(const char *name) {
    atomic_store(&running, 0);
    atomic_store(&node_idle, 1);
    other = other_looks_to_redeclare;
    other_may_redeclare = 0;
    node_count_runs(&running, &node_idle, 1);
    int after = claim_and_give_back();
    report(name, other_may_redeclare || after ? "FAIL: the node would be declared idle while a process runs" : "ok");
}

int main(void) {
    /* socat: the parent goes back to accept while its fork child goes to poll, both running */
    both_wait("parent and fork child both leave the count", NODE_RUNNING, NODE_RUNNING, 2);
    /* a thread of a process already out of the count arms another wait while the other process leaves */
    both_wait("a waiting process arms again while the other leaves", NODE_WAITING, NODE_RUNNING, 1);
    both_wait("the other leaves while a waiting process arms again", NODE_RUNNING, NODE_WAITING, 1);
    /* nobody runs, and two waiting processes both go to declare (one of them re-declaring) */
    both_wait("two waiting processes declare at once", NODE_WAITING, NODE_WAITING, 0);
    runs_while_the_other_looks("a process runs again while the other looks whether to re-declare");
    if (failures) return 1;
    printf("ALL OK\n");
    return 0;
}
