package dev.weft.broker;

import dev.weft.broker.wire.ReplyWriter;
import dev.weft.log.VAddr;
import java.io.IOException;

/**
 * The broker's answer to one TCP request (docs/tcp.md), decided under the ordering lock and written to the node
 * outside it, by the connection's own thread or — for a held request — by the thread whose operation resolved it.
 */
sealed interface TcpAnswer {

    /** Writes this answer as one reply frame. */
    void writeTo(ReplyWriter out) throws IOException;

    /** How many of the connection's outstanding requests this answer ends (a TakenBack ends the wait and the unwait). */
    default int ends() {
        return 1;
    }

    /**
     * Windowed: a TcpWait that does not make its node idle is held aside (protocol-v3 §2a): this Ack says it was
     * taken in program order; the wait stays outstanding (its Ready, or TcpUnwait, comes later).
     */
    record SetAside(long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.ack(vt);
        }

        @Override
        public int ends() {
            return 0;
        }
    }

    /** Two answers written back to back, in this order (a SetAside and the Ready of a wait that held at once). */
    record Both(TcpAnswer first, TcpAnswer second) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            first.writeTo(out);
            second.writeTo(out);
        }

        @Override
        public int ends() {
            return first.ends() + second.ends();
        }
    }

    record Ack(long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.ack(vt);
        }
    }

    record Empty(long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.empty(vt);
        }
    }

    /** {@code errno}: a Linux errno. */
    record Error(int errno, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.error(errno, vt);
        }
    }

    record Bound(VAddr local, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.bound(local, vt);
        }
    }

    record Connected(VAddr src, VAddr dst, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.connected(src, dst, vt);
        }
    }

    record Accepted(long sid, VAddr peer, VAddr local, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.accepted(sid, peer, local, vt);
        }
    }

    record Wrote(long n, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.wrote(n, vt);
        }
    }

    record Data(byte[] bytes, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.data(bytes, 0, bytes.length, vt);
        }
    }

    record Eof(long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.eof(vt);
        }
    }

    record Ready(long revents, long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.ready(revents, vt);
        }
    }

    record UnwaitAck(long vt) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.unwaitAck(vt);
        }
    }

    /** TcpUnwait that took a held TcpWait back: its Ready (revents as they are), then the UnwaitAck. */
    record TakenBack(TcpAnswer ready, TcpAnswer unwaitAck) implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            ready.writeTo(out);
            unwaitAck.writeTo(out);
        }

        @Override
        public int ends() {
            return 2;
        }
    }

    record Status(long state, long soError, VAddr local, VAddr peer, long unread, long room, long vt)
            implements TcpAnswer {
        @Override
        public void writeTo(ReplyWriter out) throws IOException {
            out.status(state, soError, local, peer, unread, room, vt);
        }
    }
}
