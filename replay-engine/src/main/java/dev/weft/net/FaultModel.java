package dev.weft.net;

import dev.weft.log.VAddr;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The seeded per-datagram fault model (net-and-fault-model.md §3). A fate is a pure function of
 * (seed, spec, src, dst, seq, len): each datagram gets its own SplitMix64 stream derived from its channel
 * and per-channel sequence number, so the model holds no mutable state and may be shared freely.
 */
public final class FaultModel implements FateSource {

    private static final long SEED_SALT = 0x517CC1B727220A95L;
    /** Salt of the stream fates: a different constant keeps them apart from every datagram's (docs/tcp.md). */
    private static final long STREAM_SALT = 0x2545F4914F6CDD1DL;
    private static final long BILLION = 1_000_000_000L;
    private static final Fate DROPPED = new Fate(true, 0);
    private static final int REST_GROUP = -1;

    private final long seed;
    private final NetSpec spec;
    private final Latency latency;
    private final double loss;
    private final long bandwidth;
    /** Listed node ids, ascending, and the index of the first group listing each; null without a partition. */
    private final long[] partitionNodes;
    private final int[] partitionGroups;

    public FaultModel(long seed, NetSpec spec) {
        this.seed = seed;
        this.spec = spec;
        this.latency = spec.latency();
        this.loss = spec.loss();
        this.bandwidth = spec.bandwidth();
        if (spec.partition().isEmpty()) {
            partitionNodes = null;
            partitionGroups = null;
        } else {
            TreeMap<Long, Integer> firstGroup = new TreeMap<>();
            List<List<Long>> groups = spec.partition();
            for (int g = 0; g < groups.size(); g++) {
                for (Long node : groups.get(g)) firstGroup.putIfAbsent(node, g);
            }
            partitionNodes = firstGroup.keySet().stream().mapToLong(Long::longValue).toArray();
            partitionGroups = firstGroup.values().stream().mapToInt(Integer::intValue).toArray();
        }
    }

    public static FaultModel of(long seed, String net) throws NetSpecException {
        return new FaultModel(seed, NetSpec.parse(net));
    }

    public long seed() {
        return seed;
    }

    @Override
    public NetSpec spec() {
        return spec;
    }

    /** What happens to one datagram: dropped (delay 0) or delivered after delayNs (u64). */
    public record Fate(boolean dropped, long delayNs) {
    }

    /** The fate of the datagram number seq of channel src→dst, with len payload bytes (§3.3). */
    @Override
    public Fate fate(VAddr src, VAddr dst, long seq, int len) {
        if (partitionNodes != null && group(src.nodeOf()) != group(dst.nodeOf())) return DROPPED;
        long state = channelState(seed, src, dst, seq);
        state += SplitMix64.GAMMA;
        if (unit(SplitMix64.mix(state)) < loss) return DROPPED;
        state += SplitMix64.GAMMA;
        long delay = latency.sample(unit(SplitMix64.mix(state)));
        if (bandwidth != 0) delay = Unsigned.saturatingAdd(delay, serializationNs(len, bandwidth));
        return new Fate(false, delay);
    }

    /**
     * One transmission attempt of a TCP segment (docs/tcp.md "Fates"): segment {@code index} of direction
     * {@code direction} (0 connector to acceptor, 1 back) of stream {@code sid}, attempt {@code attempt} (0 the first
     * send, 1.. retransmissions). Lost with the spec's loss probability, else its latency; partitions and bandwidth
     * are the stream model's (a stalled segment is not lost, and serialisation queues segments). Drawn from its own
     * SplitMix64 stream, seeded apart from datagram fates, so adding TCP to a run changes no datagram's fate.
     */
    @Override
    public Fate streamFate(long sid, VAddr from, VAddr to, int direction, long index, long attempt) {
        long x = seed ^ STREAM_SALT;
        x = absorb(x, sid);
        x = absorb(x, direction);
        x = absorb(x, index);
        long state = absorb(x, attempt);
        state += SplitMix64.GAMMA;
        if (unit(SplitMix64.mix(state)) < loss) return DROPPED;
        state += SplitMix64.GAMMA;
        return new Fate(false, latency.sample(unit(SplitMix64.mix(state))));
    }

    /** The time len bytes occupy the link at the spec's bandwidth (0 when unlimited). */
    @Override
    public long serializationNs(long len) {
        return bandwidth == 0 ? 0 : serializationNs(len, bandwidth);
    }

    /** The channel state C of §3.1 (the running state before the first deviate). */
    public static long channelState(long seed, VAddr src, VAddr dst, long seq) {
        long x = seed ^ SEED_SALT;
        x = absorb(x, src.ip());
        x = absorb(x, src.port());
        x = absorb(x, dst.ip());
        x = absorb(x, dst.port());
        return absorb(x, seq);
    }

    private static long absorb(long x, long v) {
        x ^= v * SplitMix64.GAMMA;
        return SplitMix64.mix(x + SplitMix64.GAMMA);
    }

    /** (out >> 11) / 2^53: the 53-bit integer converts exactly and the scaling is exact. */
    static double unit(long out) {
        return (out >>> 11) * 0x1p-53;
    }

    /** floor(min(len * 10^9, 2^64-1) / bw), unsigned; bw != 0. */
    static long serializationNs(long len, long bw) {
        return Long.divideUnsigned(Unsigned.saturatingMul(len, BILLION), bw);
    }

    /** Index of the first group listing node, or REST_GROUP for every unlisted node. */
    private int group(long node) {
        int i = Arrays.binarySearch(partitionNodes, node); // node ids are u32, so signed order is fine
        return i >= 0 ? partitionGroups[i] : REST_GROUP;
    }
}
