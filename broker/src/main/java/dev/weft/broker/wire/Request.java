package dev.weft.broker.wire;

import dev.weft.log.VAddr;

/**
 * One node → broker message (wire-and-abi.md §2; TCP: docs/tcp.md). Integers are unsigned values held in Java
 * longs; a {@code localVt} is the node's virtual clock at the call.
 */
public sealed interface Request {

    record Hello(long nodeId, long hostId) implements Request {
    }

    record Bind(VAddr addr) implements Request {
    }

    record Send(VAddr src, VAddr dst, byte[] payload, long localVt) implements Request {
    }

    /**
     * @param waitsForever our extension, an optional trailing byte 1: the whole node waits in this blocking receive
     *                     with no deadline (docs/broker.md, "The deadlock verdict"); false when absent
     */
    record Recv(VAddr addr, boolean blocking, long localVt, boolean waitsForever) implements Request {
        public Recv(VAddr addr, boolean blocking, long localVt) {
            this(addr, blocking, localVt, false);
        }
    }

    /**
     * A windowed receive the broker holds until its final outcome (tag 28): {@code mode} is
     * {@link Wire#LEASE_NONBLOCKING} ({@code localVt} = the call's clock), {@link Wire#LEASE_TIMED}
     * ({@code localVt} = the call's clock + its timeout) or {@link Wire#LEASE_BLOCKING} (the call's clock; only a
     * node whose one thread waits here sends it, since the reply holds that thread).
     */
    record Lease(VAddr addr, int mode, long localVt) implements Request {
    }

    record Frontier(long localVt) implements Request {
    }

    record Goodbye() implements Request {
    }

    /** The TCP requests: each one is answered (TcpAbort excepted) before the connection's next request. */
    sealed interface Tcp extends Request {
    }

    /** Port 0: the broker picks an ephemeral port. */
    record TcpBind(VAddr addr) implements Tcp {
    }

    record TcpListen(long backlog) implements Tcp {
    }

    record TcpConnect(VAddr dst, long localVt, boolean nonblocking) implements Tcp {
    }

    record TcpAccept(long localVt, boolean blocking) implements Tcp {
    }

    /** The first TCP request on the connection the shim opens for an accepted stream. */
    record TcpAdopt(long sid) implements Tcp {
    }

    record TcpWrite(byte[] payload, long localVt, boolean blocking) implements Tcp {
    }

    /** {@code flags}: {@link Wire#READ_PEEK}. */
    record TcpRead(long max, long flags, long localVt, boolean blocking) implements Tcp {
        public boolean peek() {
            return (flags & Wire.READ_PEEK) != 0;
        }
    }

    /** {@code how}: {@link Wire#SHUT_RD}, {@link Wire#SHUT_WR}, {@link Wire#SHUT_RDWR}. */
    record TcpShutdown(long how) implements Tcp {
    }

    /** The connection's coming EOF is a reset, not a FIN ({@code SO_LINGER {1,0}}); no reply. */
    record TcpAbort() implements Tcp {
    }

    /**
     * {@code deadlineVt} 0: no deadline. {@code flags}: the optional trailing byte (protocol-v3 §2a),
     * {@link Wire#WAIT_IDLE} (windowed: with this wait held, no thread of the node runs) and {@link Wire#WAIT_FOREVER}
     * (plain: the whole node waits here with no deadline); a shim that sends no byte means {@link Wire#WAIT_IDLE}.
     */
    record TcpWait(long events, long localVt, long deadlineVt, int flags) implements Tcp {
        public TcpWait(long events, long localVt, long deadlineVt) {
            this(events, localVt, deadlineVt, Wire.WAIT_IDLE);
        }

        public boolean idle() {
            return (flags & Wire.WAIT_IDLE) != 0;
        }

        public boolean forever() {
            return (flags & Wire.WAIT_FOREVER) != 0;
        }

        public boolean probe() {
            return (flags & Wire.WAIT_PROBE) != 0;
        }
    }

    /** Windowed: the last close of a socket at the node's clock (Ack once applied); its EOF then only ends it. */
    record TcpClose(long localVt) implements Tcp {
    }

    record TcpUnwait() implements Tcp {
    }

    record TcpStatus() implements Tcp {
    }
}
