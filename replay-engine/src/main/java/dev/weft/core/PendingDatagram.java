package dev.weft.core;

import dev.weft.log.VAddr;
import dev.weft.text.Hex;
import java.util.Arrays;
import java.util.Objects;

/** A queued datagram: delivery time and tie (u64), addresses and payload. Immutable (the payload is copied). */
public record PendingDatagram(long delivNs, long tie, VAddr src, VAddr dst, byte[] payload) {

    public PendingDatagram {
        payload = payload.clone();
    }

    /** A copy of the payload bytes. */
    @Override
    public byte[] payload() {
        return payload.clone();
    }

    public String payloadHex() {
        return Hex.encodeLower(payload);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PendingDatagram p && delivNs == p.delivNs && tie == p.tie
                && src.equals(p.src) && dst.equals(p.dst) && Arrays.equals(payload, p.payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(delivNs, tie, src, dst) * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
        return "PendingDatagram[delivNs=" + Long.toUnsignedString(delivNs) + ", tie=" + Long.toUnsignedString(tie)
                + ", src=" + src + ", dst=" + dst + ", payload=" + payloadHex() + "]";
    }
}
