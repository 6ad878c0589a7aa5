package dev.weft.net;

import dev.weft.log.VAddr;
import dev.weft.scenario.ScenarioEvent;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fault plan (docs/fault-plans.md): the fates a run follows, named per datagram and per TCP segment instead of drawn
 * from the seed. A datagram or segment the plan names gets its named fate; every other one gets the <b>baseline</b>:
 * the net spec's minimum latency (plus serialisation at its bandwidth), never lost. Immutable, so a core copy may
 * share it.
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

    /**
     * Identifies one TCP segment: the direction from → to of a connection (the writer's and the reader's address) and
     * the segment's index in that direction (0 is the handshake's SYN, or SYN-ACK from the acceptor). The broker
     * hands out ephemeral ports in order without reuse below 25,000 connections per address, so two addresses name
     * one connection of a run.
     */
    public record SegmentId(VAddr from, VAddr to, long index) implements Comparable<SegmentId> {
        @Override
        public int compareTo(SegmentId o) {
            int c = from.compareTo(o.from);
            if (c == 0) c = to.compareTo(o.to);
            return c != 0 ? c : Long.compareUnsigned(index, o.index);
        }
    }

    /**
     * A segment's named trip: its first lostAttempts transmissions are lost (each adding the retransmission
     * back-off, docs/tcp.md), the next one arrives latencyNs after it is sent.
     */
    public record SegmentTrip(long lostAttempts, long latencyNs) {
    }

    /** A named segment trip. */
    public record SegmentDeviation(SegmentId id, SegmentTrip trip) {
    }

    private final String net;
    private final NetSpec spec;
    /** Sorted by datagram id, so iteration (and printing) order never depends on how the plan was built. */
    private final TreeMap<DatagramId, FaultModel.Fate> byId;
    /** Sorted by segment id, likewise. */
    private final TreeMap<SegmentId, SegmentTrip> segments;
    /** Partitions and crashes at virtual times, replacing the run's scenario events; null: the plan names none. */
    private final List<ScenarioEvent> events;

    /** A plan over the net spec {@code net} naming datagrams only; deviations must have distinct ids. */
    public FaultPlan(String net, NetSpec spec, Map<DatagramId, FaultModel.Fate> named) {
        this(net, spec, named, Map.of());
    }

    /** A plan naming datagrams and TCP segments. */
    public FaultPlan(String net, NetSpec spec, Map<DatagramId, FaultModel.Fate> named,
                     Map<SegmentId, SegmentTrip> segments) {
        this(net, spec, named, segments, null);
    }

    /**
     * A plan naming datagrams, TCP segments and the run's timed events ({@code events}: in time order as given, or
     * null when the plan leaves the run's own events, a scenario's, in place).
     */
    public FaultPlan(String net, NetSpec spec, Map<DatagramId, FaultModel.Fate> named,
                     Map<SegmentId, SegmentTrip> segments, List<ScenarioEvent> events) {
        this.net = net;
        this.spec = spec;
        this.byId = new TreeMap<>(named);
        this.segments = new TreeMap<>(segments);
        this.events = events == null ? null : List.copyOf(events);
    }

    /**
     * The partitions, heals, crashes and starts the run gets instead of its scenario's events (docs/fault-plans.md),
     * or null when the plan does not name events.
     */
    public List<ScenarioEvent> events() {
        return events;
    }

    /** The same plan with other events (null: none named). */
    public FaultPlan withEvents(List<ScenarioEvent> newEvents) {
        return new FaultPlan(net, spec, byId, segments, newEvents);
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

    /** The named datagram fates, in (src, dst, chan_seq) order (segments: {@link #segmentDeviations()}). */
    public List<Deviation> deviations() {
        return byId.entrySet().stream().map(e -> new Deviation(e.getKey(), e.getValue())).toList();
    }

    public Map<DatagramId, FaultModel.Fate> named() {
        return Collections.unmodifiableMap(byId);
    }

    /** The named segment trips, in (from, to, index) order. */
    public List<SegmentDeviation> segmentDeviations() {
        return segments.entrySet().stream().map(e -> new SegmentDeviation(e.getKey(), e.getValue())).toList();
    }

    public Map<SegmentId, SegmentTrip> namedSegments() {
        return Collections.unmodifiableMap(segments);
    }

    /** The baseline trip of a segment: no loss, the minimum latency. */
    public SegmentTrip segmentBaseline() {
        return new SegmentTrip(0, spec.minDelay());
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
    public FaultModel.Fate streamFate(long sid, VAddr from, VAddr to, int direction, long index, long attempt) {
        SegmentTrip trip = segments.get(new SegmentId(from, to, index));
        if (trip == null) return new FaultModel.Fate(false, spec.minDelay());
        if (Long.compareUnsigned(attempt, trip.lostAttempts()) < 0) return new FaultModel.Fate(true, 0);
        return new FaultModel.Fate(false, attempt == trip.lostAttempts() ? trip.latencyNs() : spec.minDelay());
    }

    @Override
    public long serializationNs(long len) {
        return spec.bandwidth() == 0 ? 0 : FaultModel.serializationNs(len, spec.bandwidth());
    }
}
