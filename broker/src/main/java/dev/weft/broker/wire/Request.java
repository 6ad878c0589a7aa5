package dev.weft.broker.wire;

import dev.weft.log.VAddr;

/** One node → broker message (wire-and-abi.md §2). Integers are unsigned values held in Java longs. */
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

    record Frontier(long localVt) implements Request {
    }

    record Goodbye() implements Request {
    }
}
