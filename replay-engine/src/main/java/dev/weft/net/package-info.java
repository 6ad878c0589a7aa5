/**
 * The network spec and the seeded per-datagram fault model (net-and-fault-model.md): parsing a spec with the
 * reference's exact error texts, latency distributions, SplitMix64 streams, a correctly rounded logarithm for the
 * exponential latency, and u64 arithmetic on {@code long}s.
 */
package dev.weft.net;
