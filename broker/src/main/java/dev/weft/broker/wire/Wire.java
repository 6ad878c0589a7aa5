package dev.weft.broker.wire;

/**
 * Constants of the shim ⇄ broker wire protocol (wire-and-abi.md §2; the TCP tags of docs/tcp.md). Names follow
 * the shim's C enums without their prefix: C {@code REQ_TCP_BIND} is {@link #TCP_BIND}, C {@code REP_ERROR} is
 * {@link #ERROR}; WireTagsAgreeWithShimTest holds the two to each other.
 */
public final class Wire {
    /** A reader rejects a frame whose length prefix is larger than this, before reading or allocating anything. */
    public static final int MAX_FRAME = 16 * 1024 * 1024;

    // node -> broker tags
    public static final int HELLO = 1;
    public static final int BIND = 2;
    public static final int SEND = 3;
    public static final int RECV = 4;
    public static final int FRONTIER = 5;
    public static final int GOODBYE = 6;
    // 7–15 free; 16–31 are the TCP requests
    public static final int TCP_BIND = 16;
    public static final int TCP_LISTEN = 17;
    public static final int TCP_CONNECT = 18;
    public static final int TCP_ACCEPT = 19;
    public static final int TCP_ADOPT = 20;
    public static final int TCP_WRITE = 21;
    public static final int TCP_READ = 22;
    public static final int TCP_SHUTDOWN = 23;
    public static final int TCP_ABORT = 24;
    public static final int TCP_WAIT = 25;
    public static final int TCP_UNWAIT = 26;
    public static final int TCP_STATUS = 27;
    /** A windowed UDP receive held until its final outcome, answered Deliver or Leased (docs/broker.md). */
    public static final int LEASE = 28;
    /** Lease modes: what kind of receive call asks. */
    public static final int LEASE_NONBLOCKING = 0;
    public static final int LEASE_TIMED = 1;
    public static final int LEASE_BLOCKING = 2;
    /** Windowed: the last close of a socket, with the node's clock (protocol-v3 §2a). */
    public static final int TCP_CLOSE = 29;

    // broker -> node tags
    public static final int ACK = 1;
    public static final int DELIVER = 2;
    public static final int EMPTY = 3;
    public static final int ERROR = 4;
    public static final int BOUND = 5;
    public static final int CONNECTED = 6;
    public static final int ACCEPTED = 7;
    public static final int WROTE = 8;
    public static final int DATA = 9;
    public static final int EOF = 10;
    public static final int READY = 11;
    public static final int UNWAIT_ACK = 12;
    public static final int STATUS = 13;
    public static final int LEASED = 14;

    // TcpRead flags
    public static final int READ_PEEK = 1;

    // TcpWait events and Ready revents (Linux poll bits)
    public static final int POLLIN = 0x1;
    public static final int POLLOUT = 0x4;
    public static final int POLLERR = 0x8;
    public static final int POLLHUP = 0x10;
    public static final int POLLRDHUP = 0x2000;

    // TcpWait flags (the optional trailing byte; C TCPW_WAIT_IDLE, TCPW_WAIT_FOREVER)
    public static final int WAIT_IDLE = 0x1;
    public static final int WAIT_FOREVER = 0x2;
    /** Windowed: a zero-timeout wait, answered at its key with the events that hold then, never held. */
    public static final int WAIT_PROBE = 0x4;

    // TcpShutdown how
    public static final int SHUT_RD = 0;
    public static final int SHUT_WR = 1;
    public static final int SHUT_RDWR = 2;

    // Status state
    public static final int STATE_CLOSED = 0;
    public static final int STATE_BOUND = 1;
    public static final int STATE_LISTENING = 2;
    public static final int STATE_CONNECTING = 3;
    public static final int STATE_ESTABLISHED = 4;
    public static final int STATE_PEER_CLOSED = 5;
    public static final int STATE_RESET = 6;

    private Wire() {
    }
}
