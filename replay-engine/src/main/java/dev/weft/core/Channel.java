package dev.weft.core;

import dev.weft.log.VAddr;
import java.util.Comparator;

/** A directed channel: the full source and destination addresses (both ip and port matter). */
public record Channel(VAddr src, VAddr dst) implements Comparable<Channel> {

    private static final Comparator<Channel> ORDER =
            Comparator.comparing(Channel::src).thenComparing(Channel::dst);

    @Override
    public int compareTo(Channel o) {
        return ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return src.text() + "->" + dst.text();
    }
}
