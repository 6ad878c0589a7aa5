package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * The compact, immutable picture of a recording that the timeline draws: per event (index = op) its vt,
 * lane, mark kind and partner (the matching receive of a delivered send and back), in primitive arrays —
 * 15 bytes per event, 4 more for each lane's op list — plus a level-of-detail pyramid of kind masks per lane, so the marks of any op range
 * are summarised in O(lanes · log n) whatever the zoom.
 *
 * <p>vt values are unsigned u64 and never decrease with op (they are the broker's high-water mark), which
 * makes "the ops in a vt range" a binary search.
 */
public final class TimelineModel {

    /** Partner value of an event without one. */
    public static final int NO_PARTNER = -1;

    private final long[] vt;
    private final short[] lane;
    private final byte[] kind;
    private final int[] partner;
    private final int size;
    private final List<Lane> lanes;
    private final int[] violationOps;

    // Pyramid: level l (baseLevel <= l <= topLevel) has one mask per lane per aligned bucket of 2^l ops,
    // stored bucket-major: masks[l - baseLevel][bucket * laneCount + lane].
    private final int baseLevel;
    private final short[][] levels;
    // Ops of each lane, ascending: laneOps[laneStart[l] .. laneStart[l + 1]). How many ops of a lane fall in a
    // pixel column is two binary searches (the density strips of a zoomed-out timeline).
    private final int[] laneOps;
    private final int[] laneStart;
    // The records one mark kind (END) stands for — end, ext, signal, partition — by their own word, for the few ops
    // that are one: ascending ops, and the word of each.
    private final int[] runRecordOps;
    private final String[] runRecordWords;

    private TimelineModel(long[] vt, short[] lane, byte[] kind, int[] partner, int size, List<Lane> lanes,
                          int[] runRecordOps, String[] runRecordWords) {
        this.runRecordOps = runRecordOps;
        this.runRecordWords = runRecordWords;
        this.vt = vt;
        this.lane = lane;
        this.kind = kind;
        this.partner = partner;
        this.size = size;
        this.lanes = Collections.unmodifiableList(lanes);
        int[] v = new int[16];
        int nv = 0;
        for (int i = 0; i < size; i++) {
            if (kind[i] == MarkKind.VIOLATION.ordinal()) {
                if (nv == v.length) v = Arrays.copyOf(v, nv * 2);
                v[nv++] = i;
            }
        }
        this.violationOps = Arrays.copyOf(v, nv);
        // Keep the pyramid near 4 bytes per event however many lanes there are.
        int b = 3;
        while ((1 << b) < lanes.size()) b++;
        this.baseLevel = b;
        this.levels = buildPyramid();
        this.laneStart = new int[lanes.size() + 1];
        for (int i = 0; i < size; i++) laneStart[lane[i] + 1]++;
        for (int l = 0; l < lanes.size(); l++) laneStart[l + 1] += laneStart[l];
        this.laneOps = new int[size];
        int[] next = Arrays.copyOf(laneStart, lanes.size());
        for (int i = 0; i < size; i++) laneOps[next[lane[i]]++] = i;
    }

    /** How many ops of each lane lie in from <= op < to, into out[lane] (length at least laneCount()). */
    public void countsInRange(int from, int to, int[] out) {
        for (int l = 0; l < lanes.size(); l++) {
            out[l] = lowerBound(laneOps, laneStart[l], laneStart[l + 1], to) - lowerBound(laneOps, laneStart[l], laneStart[l + 1], from);
        }
    }

    private static int lowerBound(int[] a, int lo, int hi, int key) {
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Builds a model from records in op order (op must equal its position, as a verified log guarantees). */
    public static TimelineModel of(Iterator<LogRecord> records) {
        Builder b = new Builder(1024);
        while (records.hasNext()) b.add(records.next());
        return b.build();
    }

    public static TimelineModel of(Iterable<LogRecord> records) {
        return of(records.iterator());
    }

    public static TimelineModel empty() {
        return new Builder(1).build();
    }

    public int size() {
        return size;
    }

    public long vt(int op) {
        return vt[op];
    }

    public int lane(int op) {
        return lane[op];
    }

    public MarkKind kind(int op) {
        return MarkKind.ofOrdinal(kind[op]);
    }

    /**
     * What the record at op is, in the words a table shows: its mark kind's label, except that the one mark kind for
     * records about the run says which record it is ("end", "ext", "signal", "tcp_partition").
     */
    public String kindLabel(int op) {
        if (kind[op] != MarkKind.END.ordinal()) return MarkKind.ofOrdinal(kind[op]).label();
        int at = Arrays.binarySearch(runRecordOps, op);
        return at >= 0 ? runRecordWords[at] : MarkKind.END.label();
    }

    int kindOrdinal(int op) {
        return kind[op];
    }

    /** The receive of a delivered send, the send of a delivered receive, otherwise {@link #NO_PARTNER}. */
    public int partner(int op) {
        return partner[op];
    }

    public List<Lane> lanes() {
        return lanes;
    }

    public int laneCount() {
        return lanes.size();
    }

    /** Ops of the violation records written into the log, ascending. */
    public int[] violationOps() {
        return violationOps.clone();
    }

    /** "Δ 12 ops · 3.5 µs (3500 ns)": the distance between two ops in ops and virtual time. */
    public String measure(int a, int b) {
        int lo = Math.min(a, b), hi = Math.max(a, b);
        long dvt = vt(hi) - vt(lo);
        return "Δ " + (hi - lo) + " ops · " + TimelineRenderer.formatNs(dvt) + " (" + Long.toUnsignedString(dvt) + " ns)";
    }

    public long vtMin() {
        return size == 0 ? 0 : vt[0];
    }

    public long vtMax() {
        return size == 0 ? 0 : vt[size - 1];
    }

    /** The first op whose vt is >= the given vt (unsigned), or size() when there is none. */
    public int firstOpNotBeforeVt(long v) {
        int lo = 0, hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(vt[mid], v) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** Whether any record is a TCP one (the legend then names the TCP marks). */
    public boolean hasTcp() {
        short[] top = levels[levels.length - 1];
        for (short m : top) if ((m & 0xFFFF) >= MarkKind.TCP_OPEN.bit()) return true;
        return false;
    }

    /** Approximate heap held by this model, for benchmarks. */
    public long bytesUsed() {
        long total = (long) vt.length * 8 + (long) lane.length * 2 + kind.length + (long) partner.length * 4
                + (long) laneOps.length * 4 + (long) laneStart.length * 4;
        for (short[] l : levels) total += (long) l.length * 2;
        return total;
    }

    /**
     * ORs the kind masks of every event with from <= op < to into out[lane] (out is cleared first; its
     * length must be at least laneCount()). Takes whole aligned pyramid buckets where they fit and single
     * events only at the ragged edges, so the cost is bounded by O(laneCount · log size + 2^baseLevel).
     */
    public void masksInRange(int from, int to, short[] out) {
        int lanesN = lanes.size();
        Arrays.fill(out, 0, lanesN, (short) 0);
        from = Math.max(0, from);
        to = Math.min(size, to);
        int a = from;
        int baseSize = 1 << baseLevel;
        while (a < to) {
            if ((a & (baseSize - 1)) == 0 && a + baseSize <= to) {
                int l = baseLevel;
                int top = baseLevel + levels.length - 1;
                while (l < top && (a & ((2 << l) - 1)) == 0 && a + (2 << l) <= to) l++;
                short[] masks = levels[l - baseLevel];
                int base = (a >>> l) * lanesN;
                for (int k = 0; k < lanesN; k++) out[k] |= masks[base + k];
                a += 1 << l;
            } else {
                out[lane[a]] |= (short) (1 << kind[a]);
                a++;
            }
        }
    }

    private short[][] buildPyramid() {
        int lanesN = Math.max(1, lanes.size());
        List<short[]> result = new ArrayList<>();
        int buckets = (size + (1 << baseLevel) - 1) >>> baseLevel;
        short[] level = new short[Math.max(1, buckets) * lanesN];
        for (int i = 0; i < size; i++) {
            level[(i >>> baseLevel) * lanesN + lane[i]] |= (short) (1 << kind[i]);
        }
        result.add(level);
        while (buckets > 1) {
            int parentBuckets = (buckets + 1) >>> 1;
            short[] parent = new short[parentBuckets * lanesN];
            for (int b = 0; b < buckets; b++) {
                int p = (b >>> 1) * lanesN;
                int c = b * lanesN;
                for (int k = 0; k < lanesN; k++) parent[p + k] |= level[c + k];
            }
            result.add(parent);
            level = parent;
            buckets = parentBuckets;
        }
        return result.toArray(new short[0][]);
    }

    /**
     * Accumulates records one by one (so a background loader can feed it while reading) and resolves
     * lanes at the end, because a connection's connect record comes before the hello that names its node.
     */
    public static final class Builder {
        private long[] vt;
        private int[] connIndex;   // dense connection index per event, -1 for none; becomes lanes in build()
        private byte[] kind;
        private int[] partner;
        private int size;
        private final LongIntMap connIds = new LongIntMap(64);
        private long[] connIdOf = new long[16];
        private long[] connNode = new long[16];      // node of each dense connection, or -1 before hello
        private boolean[] connHasNode = new boolean[16];
        private int conns;
        private final LongIntMap sendByTie = new LongIntMap(1024);
        private final TcpFlows streams = new TcpFlows();
        private int[] runRecordOps = new int[8];
        private String[] runRecordWords = new String[8];
        private int runRecords;

        public Builder(int expectedSize) {
            int cap = Math.max(16, expectedSize);
            vt = new long[cap];
            connIndex = new int[cap];
            kind = new byte[cap];
            partner = new int[cap];
        }

        public int size() {
            return size;
        }

        private final java.util.Map<Long, String> connLabels = new java.util.HashMap<>();

        /** Names the lane of a connection that never says hello (default "conn N"). */
        public Builder connectionLabel(long conn, String label) {
            connLabels.put(conn, label);
            return this;
        }

        public Builder add(LogRecord r) {
            if (r.op() != size) {
                throw new IllegalArgumentException("record op " + Long.toUnsignedString(r.op()) + " out of order, expected " + size);
            }
            if (size == vt.length) grow();
            Event e = r.event();
            int i = size++;
            vt[i] = r.vt();
            MarkKind k = MarkKind.of(e);
            kind[i] = (byte) k.ordinal();
            partner[i] = NO_PARTNER;
            if (k == MarkKind.END) rememberRunRecord(i, e.kind());
            // Records about the run rather than a connection (violation, end, ext, signal, partition) go on the run
            // lane; a stream's reset on its connector's lane.
            if (e instanceof Event.OnConnection c) connIndex[i] = denseConn(c.conn());
            else if (e instanceof Event.TcpReset reset && streams.connector(reset.sid()) != null) connIndex[i] = denseConn(streams.connector(reset.sid()));
            else connIndex[i] = -1;
            if (e.isTcp()) streams.add(i, e, partner);
            if (e instanceof Event.Hello h) {
                int c = connIndex[i];
                if (!connHasNode[c]) {
                    connHasNode[c] = true;
                    connNode[c] = h.node();
                }
            } else if (e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) {
                sendByTie.put(q.tie(), i);
            } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
                int send = sendByTie.remove(d.tie());
                if (send != LongIntMap.MISSING) {
                    partner[send] = i;
                    partner[i] = send;
                }
            }
            return this;
        }

        private void rememberRunRecord(int op, String word) {
            if (runRecords == runRecordOps.length) {
                runRecordOps = Arrays.copyOf(runRecordOps, runRecords * 2);
                runRecordWords = Arrays.copyOf(runRecordWords, runRecords * 2);
            }
            runRecordOps[runRecords] = op;
            runRecordWords[runRecords++] = word;
        }

        private int denseConn(long conn) {
            int c = connIds.get(conn);
            if (c != LongIntMap.MISSING) return c;
            if (conns == connIdOf.length) {
                connIdOf = Arrays.copyOf(connIdOf, conns * 2);
                connNode = Arrays.copyOf(connNode, conns * 2);
                connHasNode = Arrays.copyOf(connHasNode, conns * 2);
            }
            connIdOf[conns] = conn;
            connIds.put(conn, conns);
            return conns++;
        }

        private void grow() {
            int cap = vt.length * 2;
            vt = Arrays.copyOf(vt, cap);
            connIndex = Arrays.copyOf(connIndex, cap);
            kind = Arrays.copyOf(kind, cap);
            partner = Arrays.copyOf(partner, cap);
        }

        /** A model of the records added so far; the builder can go on accepting records afterwards. */
        public TimelineModel snapshot() {
            return build();
        }

        public TimelineModel build() {
            // Lanes in a stable order: nodes ascending, then hello-less connections ascending, then the run lane.
            TreeMap<Long, Integer> nodeLanes = new TreeMap<>(Long::compareUnsigned);
            TreeMap<Long, Integer> connLanes = new TreeMap<>(Long::compareUnsigned);
            for (int c = 0; c < conns; c++) {
                if (connHasNode[c]) nodeLanes.put(connNode[c], 0);
                else connLanes.put(connIdOf[c], 0);
            }
            boolean hasRun = false;
            for (int i = 0; i < size && !hasRun; i++) hasRun = connIndex[i] < 0;
            List<Lane> lanes = new ArrayList<>();
            for (var en : nodeLanes.entrySet()) {
                en.setValue(lanes.size());
                lanes.add(Lane.node(en.getKey()));
            }
            for (var en : connLanes.entrySet()) {
                en.setValue(lanes.size());
                lanes.add(Lane.connection(en.getKey(), connLabels.get(en.getKey())));
            }
            int runLane = lanes.size();
            if (hasRun) lanes.add(Lane.run());
            if (lanes.size() > Short.MAX_VALUE) throw new IllegalArgumentException("too many lanes: " + lanes.size());
            int[] laneOfConn = new int[conns];
            for (int c = 0; c < conns; c++) {
                laneOfConn[c] = connHasNode[c] ? nodeLanes.get(connNode[c]) : connLanes.get(connIdOf[c]);
            }
            short[] lane = new short[size];
            for (int i = 0; i < size; i++) {
                int c = connIndex[i];
                lane[i] = (short) (c < 0 ? runLane : laneOfConn[c]);
            }
            return new TimelineModel(Arrays.copyOf(vt, size), lane, Arrays.copyOf(kind, size),
                    Arrays.copyOf(partner, size), size, lanes, Arrays.copyOf(runRecordOps, runRecords),
                    Arrays.copyOf(runRecordWords, runRecords));
        }
    }
}
