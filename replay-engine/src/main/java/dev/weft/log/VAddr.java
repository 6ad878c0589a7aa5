package dev.weft.log;

/**
 * A simulated UDP address: IPv4 as an unsigned 32-bit number in host order (127.0.0.1 = 2130706433)
 * and a 16-bit port. Both parts matter everywhere (a channel is the full src and dst pair).
 */
public record VAddr(long ip, int port) implements Comparable<VAddr> {

    public VAddr {
        if (ip < 0 || ip > 0xFFFF_FFFFL) throw new IllegalArgumentException("ip out of u32 range: " + ip);
        if (port < 0 || port > 0xFFFF) throw new IllegalArgumentException("port out of u16 range: " + port);
    }

    /** Node n's conventional address: 127.0.0.(n+1) on the given port. */
    public static VAddr ofNode(long node, int port) {
        return new VAddr((0x7F000001L + node) & 0xFFFF_FFFFL, port);
    }

    /** The node index this ip stands for: ((ip AND 0xFF) - 1) mod 2^32, as the fault model defines it. */
    public long nodeOf() {
        return ((ip & 0xFF) - 1) & 0xFFFF_FFFFL;
    }

    /** {@code a.b.c.d:port}, most significant byte first. */
    public String text() {
        return ((ip >>> 24) & 0xFF) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF) + ":" + port;
    }

    @Override
    public int compareTo(VAddr o) {
        int c = Long.compare(ip, o.ip);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    // Written out rather than generated (see Event): VAddr is compared inside every send and delivery.
    @Override
    public boolean equals(Object other) {
        return other instanceof VAddr o && ip == o.ip && port == o.port;
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(ip) + port;
    }

    @Override
    public String toString() {
        return text();
    }
}
