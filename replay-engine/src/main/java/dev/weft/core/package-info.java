/**
 * The broker core state machine (core-and-replay.md §1): connections, bindings, per-connection queues of pending
 * datagrams ordered by (delivery time, tie), and the counters. One {@link dev.weft.core.Core} is shared by replay,
 * the fuzzer and the live broker's recorder; it is single-threaded, deterministic, and its hot path neither boxes
 * nor allocates per operation ({@link dev.weft.core.ConnQueue}, {@link dev.weft.core.OpenHashTable}).
 */
package dev.weft.core;
