package dev.weft.fuzz;

import dev.weft.log.VAddr;
import dev.weft.text.Hex;
import java.util.Arrays;

/**
 * One input operation of a fuzz workload: the shapes of the log events without their outcomes
 * (fuzz.md §3). The executor turns each into a core call and the event the log would hold.
 */
public sealed interface Op {

    /** The connection the op belongs to. */
    long conn();

    record Connect(long conn) implements Op {
    }

    record Hello(long conn, long node) implements Op {
    }

    record Bind(long conn, VAddr addr) implements Op {
    }

    /**
     * A send; the payload array is never mutated. Its hex text is made when an event needs it rather than kept:
     * a workload of 100,000 sends of 10,000 bytes would otherwise hold 2 GB of hex next to 1 GB of payloads.
     */
    record Send(long conn, VAddr src, VAddr dst, byte[] payload) implements Op {

        /** The payload as lowercase hex, as the log's send event holds it. */
        public String payloadHex() {
            return Hex.encodeLower(payload);
        }

        /** The same send with its payload cut to the first {@code len} bytes. */
        public Send withPayloadPrefix(int len) {
            return new Send(conn, src, dst, Arrays.copyOf(payload, len));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Send s && conn == s.conn && src.equals(s.src) && dst.equals(s.dst)
                    && Arrays.equals(payload, s.payload);
        }

        @Override
        public int hashCode() {
            return ((Long.hashCode(conn) * 31 + src.hashCode()) * 31 + dst.hashCode()) * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return "Send[conn=" + conn + ", " + src.text() + " \u2192 " + dst.text() + ", payload=" + payloadHex() + "]";
        }
    }

    /** A receive poll; the blocking flag is copied into the event, never interpreted. */
    record Recv(long conn, boolean blocking) implements Op {
    }

    record Disconnect(long conn) implements Op {
    }
}
