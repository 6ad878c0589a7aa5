/*
 * node_count.h - windowed runs (docs/design/protocol-v3.md §2a): the node-wide count that tells the
 * last process of a node to wait, so its TcpWait (TCPW_WAIT_IDLE) can declare the node idle.
 *
 * Three words live in the node's shared TCP table (hook_tcp.c): `running`, the processes not
 * waiting; `setting_aside`, the TcpWaits (and a re-declaration's TcpUnwait) on their way to the
 * broker, not acknowledged yet; `node_idle`, the node's idle wait is claimed (sent or about to be)
 * and no wait came back since. The idle wait may go only once the broker holds every other wait of
 * the node, so a wait is announced in `setting_aside` BEFORE its process reads or leaves `running`:
 * whichever process then finds itself the last sees every wait still on its way. Announced after,
 * the last process could find nothing pending in between, declare the node idle, and the other
 * wait would reach the broker after it sealed past its clock (a late op: socat's parent and its fork
 * child going to wait at once). Only one process claims the declaration (node_idle 0 -> 1), and a
 * process that runs again counts before the node stops being idle.
 *
 * Lock-free, allocation-free (called from the shim's hooks). NODE_COUNT_BETWEEN() is empty in the
 * shim; tests/node_count.c defines it to run another process's step between the two changes of one.
 */
#ifndef WEFT_NODE_COUNT_H
#define WEFT_NODE_COUNT_H

#include <stdatomic.h>

#ifndef NODE_COUNT_BETWEEN
#define NODE_COUNT_BETWEEN()
#endif

/* What the process of a wait is to the count: it runs (and leaves the count with this wait), it
 * waits already (another of its waits took it out), or it left the count for good (exiting). */
enum { NODE_RUNNING, NODE_WAITING, NODE_GONE };

/* A wait, or a re-declaration's TcpUnwait, is on its way to the broker. */
static inline void node_count_announce(atomic_int *setting_aside) { atomic_fetch_add(setting_aside, 1); }

/* A wait is about to be sent; `wants_idle`: it may declare the node idle (no other thread of its
 * process runs). Returns 1 when it is the node's idle wait: no process runs and this one claimed
 * the declaration (one claim at a time: two processes that both find nobody running cannot both
 * declare), its announcement withdrawn; the caller sends it once node_count_settled. 0: a wait set
 * aside, announced until node_count_acknowledged. A RUNNING process leaves the count only with a
 * wait that may declare: otherwise another of its threads still runs. */
static inline int node_count_wait_begin(atomic_int *running, atomic_int *setting_aside, atomic_int *node_idle,
                                        int process, int wants_idle) {
    node_count_announce(setting_aside);
    NODE_COUNT_BETWEEN();
    if (!wants_idle) return 0;
    int left = process == NODE_GONE ? 0
             : process == NODE_RUNNING ? atomic_fetch_sub(running, 1) - 1 : atomic_load(running);
    int unclaimed = 0;
    if (left > 0 || !atomic_compare_exchange_strong(node_idle, &unclaimed, 1)) return 0;
    atomic_fetch_sub(setting_aside, 1);
    return 1;
}

/* The broker acknowledged a wait set aside (or it could not be sent); a re-declaration is over. */
static inline void node_count_acknowledged(atomic_int *setting_aside) { atomic_fetch_sub(setting_aside, 1); }

/* Every other wait of the node is with the broker (`own`: announcements the caller itself holds). */
static inline int node_count_settled(atomic_int *setting_aside, int own) { return atomic_load(setting_aside) <= own; }

/* A wait of an idle process came back: it runs again (`rejoins`: it counts again). Counted before
 * the node stops being idle, so whoever finds the node not idle also finds this process running. */
static inline void node_count_runs(atomic_int *running, atomic_int *node_idle, int rejoins) {
    if (rejoins) atomic_fetch_add(running, 1);
    NODE_COUNT_BETWEEN();
    atomic_store(node_idle, 0);
}

/* A waiting process declares the node idle again (its idle wait was answered, then that process
 * exited or waits again without declaring)? Only if nobody runs; `counted_self`: 1 when the caller
 * itself still counts as running. Returns 1 with the declaration claimed (node_idle set: a process
 * that goes to wait meanwhile sets its wait aside instead of declaring too). The caller has
 * announced itself first (node_count_announce), so a claim taken just before waits for it. */
static inline int node_count_claim_redeclare(atomic_int *running, atomic_int *node_idle, int counted_self) {
    int unclaimed = 0;
    if (!atomic_compare_exchange_strong(node_idle, &unclaimed, 1)) return 0;
    NODE_COUNT_BETWEEN();
    if (atomic_load(running) <= counted_self) return 1;
    atomic_store(node_idle, 0);   /* someone runs: it declares when it waits */
    return 0;
}

#endif
