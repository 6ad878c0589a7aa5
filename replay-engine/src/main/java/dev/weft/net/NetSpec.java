package dev.weft.net;

import static dev.weft.text.RustText.debugQuote;
import static dev.weft.text.RustText.trim;

import dev.weft.text.RustText;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed network spec (net-and-fault-model.md §1): latency distribution, loss probability, bandwidth in
 * bytes/s (0 = unlimited) and partition groups (node ids, u32 in a long; empty list = no partition); ours beyond the
 * reference: {@code tcp_stall=NS}, how long a TCP stream may stay cut by a partition before it is reset
 * (docs/tcp.md; default 30 s).
 */
public record NetSpec(Latency latency, double loss, long bandwidth, List<List<Long>> partition, long tcpStallNs) {

    /** The stall timeout when the spec has no {@code tcp_stall} key. */
    public static final long DEFAULT_TCP_STALL_NS = 30_000_000_000L;

    /** The model an empty spec gives: fixed 0 latency, no loss, unlimited bandwidth, no partition. */
    public static final NetSpec RELIABLE = new NetSpec(new Latency.Fixed(0), 0.0, 0, List.of());

    /** A spec with the default TCP stall timeout (the reference's four members). */
    public NetSpec(Latency latency, double loss, long bandwidth, List<List<Long>> partition) {
        this(latency, loss, bandwidth, partition, DEFAULT_TCP_STALL_NS);
    }

    public NetSpec {
        List<List<Long>> groups = new ArrayList<>();
        for (List<Long> g : partition) groups.add(List.copyOf(g));
        partition = List.copyOf(groups);
    }

    /** Lookahead of the windowed broker (§3.5). */
    public long minDelay() {
        return latency.minDelay();
    }

    /** Parses a spec exactly as the reference does (§1.2), failing with the reference's error text. */
    public static NetSpec parse(String spec) throws NetSpecException {
        Latency latency = RELIABLE.latency();
        double loss = RELIABLE.loss();
        long bandwidth = RELIABLE.bandwidth();
        List<List<Long>> partition = RELIABLE.partition();
        long tcpStall = DEFAULT_TCP_STALL_NS;
        for (String rawPiece : spec.split(",", -1)) {
            String piece = trim(rawPiece);
            if (piece.isEmpty()) continue;
            int eq = piece.indexOf('=');
            if (eq < 0) {
                throw new NetSpecException(NetSpecException.Kind.NOT_KEY_VALUE,
                        "network clause " + debugQuote(piece) + " is not key=value");
            }
            String key = trim(piece.substring(0, eq));
            String value = piece.substring(eq + 1);
            switch (key) {
                case "latency", "lat" -> latency = parseLatency(trim(value));
                case "loss" -> loss = parseLoss(value);
                case "bw", "bandwidth" -> bandwidth = parseBandwidth(value);
                case "partition", "part" -> partition = parsePartition(trim(value));
                case "tcp_stall" -> tcpStall = parseTcpStall(value);
                default -> throw new NetSpecException(NetSpecException.Kind.UNKNOWN_KEY,
                        "unknown network key " + debugQuote(key));
            }
        }
        return new NetSpec(latency, loss, bandwidth, partition, tcpStall);
    }

    private static long parseTcpStall(String v) throws NetSpecException {
        try {
            return RustText.parseU64(trim(v));
        } catch (NumberFormatException e) {
            throw new NetSpecException(NetSpecException.Kind.INVALID_TCP_STALL,
                    "tcp_stall " + debugQuote(v) + " is not an integer (nanoseconds)");
        }
    }

    private static Latency parseLatency(String l) throws NetSpecException {
        int colon = l.indexOf(':');
        String kind = colon < 0 ? l : l.substring(0, colon);
        String arg = colon < 0 ? "" : l.substring(colon + 1);
        switch (kind) {
            case "fixed", "const":
                return new Latency.Fixed(nanos(l, arg));
            case "uniform", "unif": {
                int dash = arg.indexOf('-');
                if (dash < 0) throw latencyError(l, "needs lo-hi");
                long lo = nanos(l, arg.substring(0, dash));
                long hi = nanos(l, arg.substring(dash + 1));
                if (Long.compareUnsigned(hi, lo) < 0) {
                    throw latencyError(l, "hi<lo (" + Long.toUnsignedString(hi) + "<" + Long.toUnsignedString(lo) + ")");
                }
                return new Latency.Uniform(lo, hi);
            }
            case "exp", "exponential":
                return new Latency.Exponential(nanos(l, arg));
            default:
                throw latencyError(l, "unknown kind " + debugQuote(kind));
        }
    }

    private static long nanos(String l, String s) throws NetSpecException {
        try {
            return RustText.parseU64(trim(s));
        } catch (NumberFormatException e) {
            throw latencyError(l, debugQuote(s) + " is not an integer (nanoseconds)");
        }
    }

    private static NetSpecException latencyError(String l, String reason) {
        return new NetSpecException(NetSpecException.Kind.INVALID_LATENCY, "latency " + debugQuote(l) + ": " + reason);
    }

    private static double parseLoss(String v) throws NetSpecException {
        double p;
        try {
            p = RustText.parseF64(trim(v));
        } catch (NumberFormatException e) {
            p = Double.NaN;
        }
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new NetSpecException(NetSpecException.Kind.INVALID_LOSS,
                    "loss " + debugQuote(v) + " is not a probability in [0,1]");
        }
        return p;
    }

    private static long parseBandwidth(String v) throws NetSpecException {
        try {
            return RustText.parseU64(trim(v));
        } catch (NumberFormatException e) {
            throw new NetSpecException(NetSpecException.Kind.INVALID_BANDWIDTH, "bw " + debugQuote(v) + " is not an integer");
        }
    }

    private static List<List<Long>> parsePartition(String p) throws NetSpecException {
        List<List<Long>> groups = new ArrayList<>();
        for (String group : p.split("\\|", -1)) {
            List<Long> nodes = new ArrayList<>();
            for (String rawToken : group.split("\\+", -1)) {
                String token = trim(rawToken);
                if (token.isEmpty()) continue;
                try {
                    nodes.add(RustText.parseU32(token));
                } catch (NumberFormatException e) {
                    throw new NetSpecException(NetSpecException.Kind.INVALID_PARTITION,
                            "partition: bad node id " + debugQuote(token));
                }
            }
            if (!nodes.isEmpty()) groups.add(nodes);
        }
        return groups;
    }
}
