/*
 * node_count.h - windowed runs (docs/design/protocol-v3.md §2a): the node-wide count that tells the
 * last process of a node to wait, so its TcpWait (TCPW_WAIT_IDLE) can declare the node idle.
 *
 * Two counters live in the node's shared TCP table (hook_tcp.c): `running`, the processes not
 * waiting, and `setting_aside`, the TcpWaits being sent that the broker has not acknowledged yet.
 * The idle wait may go only once the broker holds every other wait of the node, so a wait is
 * announced in `setting_aside` BEFORE its process reads or leaves `running`: whichever process then
 * finds itself the last sees every wait still on its way. Announced after, the last process could
 * find nothing pending in between, declare the node idle, and the other wait would reach the broker
 * after it sealed past its clock (a late op: socat's parent and its fork child waiting at once).
 *
 * Lock-free, allocation-free (called from the shim's hooks). NODE_COUNT_BETWEEN() is empty in the
 * shim; tests/node_count.c defines it to run another process's steps between the two of one wait.
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

/* A wait is about to be sent; `wants_idle`: it may declare the node idle (no other thread of its
 * process runs). Returns 1 when it is the node's idle wait: its announcement is withdrawn (the
 * caller waits for node_count_settled before sending it). 0: a wait set aside, announced until
 * node_count_acknowledged. A process that is RUNNING leaves the count only with a wait that may
 * declare: otherwise another of its threads still runs. */
static inline int node_count_wait_begin(atomic_int *running, atomic_int *setting_aside, int process, int wants_idle) {
    atomic_fetch_add(setting_aside, 1);
    NODE_COUNT_BETWEEN();
    if (!wants_idle) return 0;
    int left = process == NODE_GONE ? 0
             : process == NODE_RUNNING ? atomic_fetch_sub(running, 1) - 1 : atomic_load(running);
    if (left > 0) return 0;
    atomic_fetch_sub(setting_aside, 1);
    return 1;
}

/* The broker acknowledged a wait set aside (or it could not be sent). */
static inline void node_count_acknowledged(atomic_int *setting_aside) { atomic_fetch_sub(setting_aside, 1); }

/* Every other wait of the node has been acknowledged: the idle wait may go. */
static inline int node_count_settled(atomic_int *setting_aside) { return atomic_load(setting_aside) == 0; }

#endif
