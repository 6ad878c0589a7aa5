package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.text.Hex;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code stream-integrity} ({@code --check stream}, docs/tcp.md "Invariant"): per TCP stream and direction, the bytes
 * read are a prefix of the bytes written, in order, and nothing is read twice or skipped (a peek reads without
 * consuming). Written segments must follow one another without gaps. The direction of a send or read is the side
 * its connection is of the stream: the connector's ({@code tcp_connect}) or the acceptor's ({@code tcp_adopt}).
 * Keeps the bytes written and not yet read, per direction.
 */
public final class StreamIntegrity implements Invariant {

    public static final String NAME = "stream-integrity";

    /** One direction: the bytes written and not yet read ({@code buf[head, tail)}), and the totals. */
    private static final class Direction {
        byte[] buf = new byte[64];
        int head;
        int tail;
        long written;
        long read;

        void append(byte[] b) {
            if (tail + b.length > buf.length) {
                int live = tail - head;
                byte[] bigger = new byte[Math.max(buf.length, 2 * (live + b.length))];
                System.arraycopy(buf, head, bigger, 0, live);
                buf = bigger;
                head = 0;
                tail = live;
            }
            System.arraycopy(b, 0, buf, tail, b.length);
            tail += b.length;
            written += b.length;
        }

        /** Index of the first byte of got that differs from the next unread bytes, or -1 when all match. */
        int mismatch(byte[] got) {
            return Arrays.mismatch(buf, head, head + got.length, got, 0, got.length);
        }

        void consume(int n) {
            head += n;
            read += n;
        }
    }

    /** conn → (sid, side) of the stream end it is. */
    private final Map<Long, long[]> ends = new HashMap<>();
    /** (sid, direction) → its bytes; direction d carries what side d writes. */
    private final Map<Long, Direction[]> streams = new HashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String offer(long op, long vt, Event event) {
        if (event instanceof Event.TcpConnect c) {
            ends.put(c.conn(), new long[] {c.sid(), 0});
        } else if (event instanceof Event.TcpAdopt a) {
            ends.put(a.conn(), new long[] {a.sid(), 1});
        } else if (event instanceof Event.TcpSend s
                && (s.outcome() instanceof TcpSendOutcome.Segment || s.outcome() instanceof TcpSendOutcome.Stalled)) {
            return written(s);
        } else if (event instanceof Event.TcpRecv r && r.outcome() instanceof TcpRecvOutcome.Data d) {
            return read(r, d);
        }
        return null;
    }

    private String written(Event.TcpSend s) {
        long[] end = ends.get(s.conn());
        if (end == null) return null; // a connection this check never saw connect or adopt: nothing to judge
        int dir = (int) end[1];
        Direction d = direction(end[0], dir);
        if (s.offset() != d.written) {
            return where(end[0], dir) + ": segment written at offset " + Long.toUnsignedString(s.offset()) + " but "
                    + Long.toUnsignedString(d.written) + " bytes were written before it (a gap or an overlap)";
        }
        byte[] bytes = Hex.decode(s.payload());
        if (bytes == null) return where(end[0], dir) + ": segment at offset " + Long.toUnsignedString(s.offset())
                + " has a payload that is not hex";
        d.append(bytes);
        return null;
    }

    private String read(Event.TcpRecv r, TcpRecvOutcome.Data data) {
        long[] end = ends.get(r.conn());
        if (end == null) return null;
        int dir = 1 - (int) end[1];
        Direction d = direction(end[0], dir);
        byte[] got = Hex.decode(data.payload());
        String at = where(end[0], dir);
        if (got == null) return at + ": bytes read at offset " + Long.toUnsignedString(data.offset()) + " are not hex";
        if (data.offset() != d.read) {
            return at + ": bytes read at offset " + Long.toUnsignedString(data.offset()) + " but "
                    + Long.toUnsignedString(d.read) + " were read before (" + (Long.compareUnsigned(data.offset(), d.read) < 0
                    ? "read twice" : "skipped") + ")";
        }
        long end2 = d.read + got.length;
        if (Long.compareUnsigned(end2, d.written) > 0) {
            return at + ": bytes " + range(d.read, end2) + " read but only " + Long.toUnsignedString(d.written)
                    + " were written";
        }
        int i = d.mismatch(got);
        if (i >= 0) {
            return at + ": bytes " + range(d.read, end2) + " read differ from those written (first at offset "
                    + Long.toUnsignedString(d.read + i) + ")";
        }
        if (!r.peek()) d.consume(got.length);
        return null;
    }

    private Direction direction(long sid, int dir) {
        return streams.computeIfAbsent(sid, k -> new Direction[] {new Direction(), new Direction()})[dir];
    }

    private static String where(long sid, int dir) {
        return "stream sid=" + Long.toUnsignedString(sid) + (dir == 0 ? " connector \u2192 acceptor" : " acceptor \u2192 connector");
    }

    private static String range(long from, long to) {
        return Long.toUnsignedString(from) + ".." + Long.toUnsignedString(to);
    }
}
