package dev.weft.diff;

/**
 * One thing node {@code node} saw or did, in its own order: its {@code index}-th such event (from 0), which is its
 * {@code kindIndex}-th delivery or send, at op {@code op}. {@code text} is what the node saw: the peer address and the
 * payload ("from A payload HEX" for a delivery, "to A payload HEX" for a send), whatever the network did with it.
 */
public record NodeDelivery(long node, long index, long op, long vt, String text, Kind kind, long kindIndex, String payloadHex) {

    /** A datagram the node received, or one it sent. */
    public enum Kind {
        DELIVERY("delivery"), SEND("send");

        private final String word;

        Kind(String word) { this.word = word; }

        public String word() { return word; }
    }
}
