package dev.weft.net;

import dev.weft.log.VAddr;

/**
 * Where the core gets each datagram's and each TCP segment's fate (protocol-v3 §6). The seeded {@link FaultModel}
 * draws them from the seed; a {@link FaultPlan} names them. Implementations are immutable: a core copy shares its
 * source, and the same question always gets the same answer.
 */
public interface FateSource {

    /** The net spec of the run: its partitions, bandwidth, minimum latency and TCP stall timeout. */
    NetSpec spec();

    /** The fate of datagram number seq of channel src→dst, with len payload bytes. */
    FaultModel.Fate fate(VAddr src, VAddr dst, long seq, int len);

    /**
     * The fate of one transmission attempt of TCP segment index of direction direction of stream sid; {@code from} is
     * the address of the side that writes in this direction, {@code to} the reader's (a plan names segments by them,
     * the seeded model by sid).
     */
    FaultModel.Fate streamFate(long sid, VAddr from, VAddr to, int direction, long index, long attempt);

    /** The time len bytes occupy the link at the spec's bandwidth (0 when unlimited). */
    long serializationNs(long len);
}
