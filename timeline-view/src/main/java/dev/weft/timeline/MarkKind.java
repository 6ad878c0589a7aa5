package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;

/**
 * What a mark on the timeline stands for: the event kind, split by outcome where the outcome changes how
 * the mark must look (a dropped send is not an enqueued one). Stored per event as one byte (the ordinal).
 */
public enum MarkKind {
    CONNECT, HELLO, BIND, SEND, SEND_DROPPED, SEND_NO_RECEIVER, RECV, RECV_EMPTY, DISCONNECT, VIOLATION,
    /**
     * A record about the run rather than a connection: end, ext, signal, tcp_partition (one mark kind, since masks
     * have no bit to spare; {@link TimelineModel#kindLabel} names which).
     */
    END,
    /** TCP records (docs/tcp.md): setting a stream up (bind, listen, connect, established, accept, adopt). */
    TCP_OPEN,
    /** A tcp_send: bytes written to a stream (its arrow goes to the read that takes its first byte). */
    TCP_SEND,
    /** A tcp_recv: bytes read, the end of the stream, or nothing yet. */
    TCP_RECV,
    /** A tcp_shutdown or tcp_close. */
    TCP_CLOSE,
    /** A tcp_reset, or a write or read that met one. */
    TCP_RESET;

    private static final MarkKind[] VALUES = values();

    /** Bit of this kind in a kind mask (masks fit in 16 bits). */
    public int bit() {
        return 1 << ordinal();
    }

    public static MarkKind ofOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    /** Mask holding every kind. */
    public static final int ALL = (1 << VALUES.length) - 1;

    /** Kinds of connection housekeeping (drawn small and grey). */
    public static final int LIFECYCLE = CONNECT.bit() | HELLO.bit() | BIND.bit() | DISCONNECT.bit();

    public boolean isSend() {
        return this == SEND || this == SEND_DROPPED || this == SEND_NO_RECEIVER;
    }

    public boolean isRecv() {
        return this == RECV || this == RECV_EMPTY;
    }

    /** The one of a linked pair that carries the bytes out (a datagram's send, a stream's write). */
    public boolean startsFlow() {
        return this == SEND || this == TCP_SEND;
    }

    public boolean isTcp() {
        return ordinal() >= TCP_OPEN.ordinal();
    }

    public static MarkKind of(Event e) {
        if (e instanceof Event.Connect) return CONNECT;
        if (e instanceof Event.Hello) return HELLO;
        if (e instanceof Event.Bind) return BIND;
        if (e instanceof Event.Send s) {
            if (s.outcome() instanceof SendOutcome.Dropped) return SEND_DROPPED;
            if (s.outcome() instanceof SendOutcome.NoReceiver) return SEND_NO_RECEIVER;
            return SEND;
        }
        if (e instanceof Event.Recv r) return r.outcome() instanceof RecvOutcome.Delivered ? RECV : RECV_EMPTY;
        if (e instanceof Event.Disconnect) return DISCONNECT;
        if (e instanceof Event.Violation) return VIOLATION;
        if (e instanceof Event.TcpSend s) return s.outcome() instanceof dev.weft.log.TcpSendOutcome.Reset ? TCP_RESET : TCP_SEND;
        if (e instanceof Event.TcpRecv r) return r.outcome() instanceof dev.weft.log.TcpRecvOutcome.Reset ? TCP_RESET : TCP_RECV;
        if (e instanceof Event.TcpShutdown || e instanceof Event.TcpClose) return TCP_CLOSE;
        if (e instanceof Event.TcpReset) return TCP_RESET;
        if (e.isTcp() && !(e instanceof Event.TcpPartition)) return TCP_OPEN;
        return END;
    }

    /** Human name as shown in legends and filters. */
    public String label() {
        return switch (this) {
            case CONNECT -> "connect";
            case HELLO -> "hello";
            case BIND -> "bind";
            case SEND -> "send (enqueued)";
            case SEND_DROPPED -> "send (dropped)";
            case SEND_NO_RECEIVER -> "send (no receiver)";
            case RECV -> "recv (delivered)";
            case RECV_EMPTY -> "recv (empty)";
            case DISCONNECT -> "disconnect";
            case VIOLATION -> "violation";
            case END -> "run record";
            case TCP_OPEN -> "tcp open";
            case TCP_SEND -> "tcp write";
            case TCP_RECV -> "tcp read";
            case TCP_CLOSE -> "tcp close";
            case TCP_RESET -> "tcp reset";
        };
    }

    /**
     * Which kind represents a mixed pixel column: the one a person most needs to see. Violations first,
     * then losses, then traffic, then housekeeping.
     */
    public static MarkKind dominant(int mask) {
        for (MarkKind k : PRIORITY) {
            if ((mask & k.bit()) != 0) return k;
        }
        return null;
    }

    private static final MarkKind[] PRIORITY = {
        VIOLATION, SEND_DROPPED, SEND_NO_RECEIVER, TCP_RESET, SEND, TCP_SEND, RECV, TCP_RECV, END, TCP_CLOSE, TCP_OPEN,
        RECV_EMPTY, CONNECT, HELLO, BIND, DISCONNECT
    };
}
