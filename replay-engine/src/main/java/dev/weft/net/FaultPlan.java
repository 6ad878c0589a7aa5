package dev.weft.net;

import dev.weft.log.VAddr;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fault plan (docs/fault-plans.md): the fates a run follows, named per datagram instead of drawn from the seed.
 * A datagram the plan names gets its named fate; every other datagram, and every TCP segment attempt (plan format 1
 * names no segments), gets the <b>baseline</b>: the net spec's minimum latency (plus serialisation at its bandwidth),
 * never lost. Immutable, so a core copy may share it.
 */
public final class FaultPlan implements FateSource {

    /** Identifies one datagram: the channel src→dst and the sender's sequence number on it. */
    public record DatagramId(VAddr src, VAddr dst, long chanSeq) implements Comparable<DatagramId> {
        @Override
        public int compareTo(DatagramId o) {
            int c = src.compareTo(o.src);
            if (c == 0) c = dst.compareTo(o.dst);
            return c != 0 ? c : Long.compareUnsigned(chanSeq, o.chanSeq);
        }
    }

    /** A named fate: dropped, or delivered after latencyNs (the whole delay from send to delivery). */
    public record Deviation(DatagramId id, FaultModel.Fate fate) {
    }

    private final String net;
    private final NetSpec spec;
    /** Sorted by datagram id, so iteration (and printing) order never depends on how the plan was built. */
    private final TreeMap<DatagramId, FaultModel.Fate> byId;

    /** A plan over the net spec {@code net}; deviations must have distinct ids (the parser checks). */
    public FaultPlan(String net, NetSpec spec, Map<DatagramId, FaultModel.Fate> named) {
        this.net = net;
        this.spec = spec;
        this.byId = new TreeMap<>(named);
    }

    public static FaultPlan of(String net, Map<DatagramId, FaultModel.Fate> named) throws NetSpecException {
        return new FaultPlan(net, NetSpec.parse(net), named);
    }

    /** The net spec text the baseline comes from. */
    public String net() {
        return net;
    }

    @Override
    public NetSpec spec() {
        return spec;
    }

    /** The named fates, in (src, dst, chan_seq) order. */
    public List<Deviation> deviations() {
        return byId.entrySet().stream().map(e -> new Deviation(e.getKey(), e.getValue())).toList();
    }

    public Map<DatagramId, FaultModel.Fate> named() {
        return Collections.unmodifiableMap(byId);
    }

    /** The baseline fate of a datagram of len bytes: the minimum latency plus its serialisation. */
    public FaultModel.Fate baseline(int len) {
        return new FaultModel.Fate(false, Unsigned.saturatingAdd(spec.minDelay(), serializationNs(len)));
    }

    @Override
    public FaultModel.Fate fate(VAddr src, VAddr dst, long seq, int len) {
        FaultModel.Fate named = byId.get(new DatagramId(src, dst, seq));
        return named != null ? named : baseline(len);
    }

    @Override
    public FaultModel.Fate streamFate(long sid, int direction, long index, long attempt) {
        return new FaultModel.Fate(false, spec.minDelay());
    }

    @Override
    public long serializationNs(long len) {
        return spec.bandwidth() == 0 ? 0 : FaultModel.serializationNs(len, spec.bandwidth());
    }
}
