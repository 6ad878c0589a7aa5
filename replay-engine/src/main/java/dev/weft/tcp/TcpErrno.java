package dev.weft.tcp;

/** The errors the stream model gives an operation, with their Linux numbers (what the broker puts on the wire). */
public enum TcpErrno {
    EINVAL(22),
    EPIPE(32),
    EADDRINUSE(98),
    ENETUNREACH(101),
    ECONNRESET(104),
    EISCONN(106),
    ENOTCONN(107),
    ETIMEDOUT(110),
    ECONNREFUSED(111),
    EALREADY(114);

    private final int linux;

    TcpErrno(int linux) {
        this.linux = linux;
    }

    /** The errno value on Linux (x86-64 and arm64 alike). */
    public int linux() {
        return linux;
    }
}
