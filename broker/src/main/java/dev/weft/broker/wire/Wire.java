package dev.weft.broker.wire;

/** Constants of the shim ⇄ broker wire protocol (wire-and-abi.md §2). */
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

    // broker -> node tags
    public static final int ACK = 1;
    public static final int DELIVER = 2;
    public static final int EMPTY = 3;

    private Wire() {
    }
}
