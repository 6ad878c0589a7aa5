package dev.weft.tcp;

/**
 * The stream model's constants (docs/tcp.md "Model"): the receive buffer per direction in bytes, the virtual time a
 * stream may stay cut by a partition before both ends are reset, and the time a connect whose SYN is cut waits
 * before ETIMEDOUT.
 */
public record TcpConfig(long receiveBuffer, long stallTimeoutNs, long synTimeoutNs) {

    public static final long DEFAULT_RECEIVE_BUFFER = 256 * 1024;
    public static final long DEFAULT_STALL_TIMEOUT_NS = 30_000_000_000L;
    public static final long DEFAULT_SYN_TIMEOUT_NS = 3_000_000_000L;

    public static final TcpConfig DEFAULT =
            new TcpConfig(DEFAULT_RECEIVE_BUFFER, DEFAULT_STALL_TIMEOUT_NS, DEFAULT_SYN_TIMEOUT_NS);

    public TcpConfig {
        if (receiveBuffer <= 0) throw new IllegalArgumentException("receive buffer must be positive: " + receiveBuffer);
    }

    /** The default model with the stall timeout of a net spec's {@code tcp_stall} key. */
    public static TcpConfig withStallTimeout(long stallTimeoutNs) {
        return new TcpConfig(DEFAULT_RECEIVE_BUFFER, stallTimeoutNs, DEFAULT_SYN_TIMEOUT_NS);
    }
}
