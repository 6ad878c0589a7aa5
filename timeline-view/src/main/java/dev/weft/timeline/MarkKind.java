package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;

/**
 * What a mark on the timeline stands for: the event kind, split by outcome where the outcome changes how
 * the mark must look (a dropped send is not an enqueued one). Stored per event as one byte (the ordinal).
 */
public enum MarkKind {
    CONNECT, HELLO, BIND, SEND, SEND_DROPPED, SEND_NO_RECEIVER, RECV, RECV_EMPTY, DISCONNECT, VIOLATION, END;

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
            case END -> "end";
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
        VIOLATION, SEND_DROPPED, SEND_NO_RECEIVER, SEND, RECV, END, RECV_EMPTY, CONNECT, HELLO, BIND, DISCONNECT
    };
}
