package dev.weft.diff;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.WeftLogException;
import dev.weft.text.Hex;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code weft diff} on TCP streams (docs/tcp.md "Where TCP shows"): what each node read from each stream (the data
 * of its non-peek tcp_recv records, in order; the node from its connection's hello), compared between two
 * recordings. The first node-visible stream divergence is the (node, sid) whose read bytes first differ, first by
 * the op of A's read that holds the differing byte (a side that read fewer bytes differs where it stops). Holds
 * every stream's read bytes of both recordings in memory.
 */
public final class StreamDiff {

    /** Bytes around a divergence shown each side. */
    static final int SHOWN = 16;

    /** The first stream divergence: node, sid, offset in the stream, and from there up to 16 bytes read by each side. */
    public record Divergence(long node, long sid, long offset, long opA, long opB, byte[] a, byte[] b) {

        /** Two lines: where, then each side's bytes as escaped text and hex. */
        public String text() {
            return "first stream divergence: node " + Long.toUnsignedString(node) + ", sid " + Long.toUnsignedString(sid)
                    + ", offset " + Long.toUnsignedString(offset) + "\n"
                    + "  A: " + side(opA, a) + "\n"
                    + "  B: " + side(opB, b);
        }

        private static String side(long op, byte[] bytes) {
            if (op < 0) return "(read nothing more)";
            return "op " + Long.toUnsignedString(op) + " read \"" + escaped(bytes) + "\" (" + Hex.encodeLower(bytes) + ")";
        }
    }

    /** The bytes one node read from one stream, with the op of each read and where it began. */
    private static final class Read {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final TreeMap<Long, Long> opAt = new TreeMap<>();   // offset of a read's first byte -> its op

        long opOf(long offset) {
            Map.Entry<Long, Long> e = opAt.floorEntry(offset);
            return offset < bytes.size() && e != null ? e.getValue() : -1;
        }
    }

    private record Key(long node, long sid) implements Comparable<Key> {
        public int compareTo(Key o) {
            int c = Long.compareUnsigned(node, o.node);
            return c != 0 ? c : Long.compareUnsigned(sid, o.sid);
        }
    }

    private StreamDiff() { }

    /** The first stream divergence of two recordings, or null when every node read the same stream bytes. */
    public static Divergence compare(Path a, Path b) throws DiffInputException {
        Map<Key, Read> ra = reads(a), rb = reads(b);
        TreeSet<Key> keys = new TreeSet<>(ra.keySet());
        keys.addAll(rb.keySet());
        Divergence first = null;
        long firstOp = Long.MAX_VALUE;
        for (Key k : keys) {
            Read x = ra.getOrDefault(k, new Read()), y = rb.getOrDefault(k, new Read());
            byte[] bx = x.bytes.toByteArray(), by = y.bytes.toByteArray();
            int i = 0;
            while (i < bx.length && i < by.length && bx[i] == by[i]) i++;
            if (i == bx.length && i == by.length) continue;
            long opA = x.opOf(i), opB = y.opOf(i);
            long order = opA >= 0 ? opA : opB;
            if (first == null || order < firstOp) {
                firstOp = order;
                first = new Divergence(k.node(), k.sid(), i, opA, opB, slice(bx, i), slice(by, i));
            }
        }
        return first;
    }

    private static Map<Key, Read> reads(Path p) throws DiffInputException {
        Map<Long, Long> nodeOfConn = new HashMap<>();   // lookups only
        Map<Key, Read> out = new HashMap<>();            // iterated only through a sorted copy
        try (LogReader r = LogReader.open(p)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                Event e = rec.event();
                if (e instanceof Event.Hello h) nodeOfConn.putIfAbsent(h.conn(), h.node());
                if (e instanceof Event.TcpRecv rv && !rv.peek() && rv.outcome() instanceof TcpRecvOutcome.Data d) {
                    Long node = nodeOfConn.get(rv.conn());
                    Read read = out.computeIfAbsent(new Key(node != null ? node : rv.conn(), rv.sid()), k -> new Read());
                    byte[] bytes = Hex.decode(d.payload());
                    if (bytes == null) continue;   // replay names a non-hex payload; here it has no bytes to compare
                    read.opAt.put((long) read.bytes.size(), rec.op());
                    read.bytes.writeBytes(bytes);
                }
            }
        } catch (WeftLogException e) {
            throw new DiffInputException(p, e);
        } catch (IOException e) {
            throw new DiffInputException(p, WeftLogException.io(String.valueOf(e.getMessage()), 0, e));
        }
        return new TreeMap<>(out);
    }

    private static byte[] slice(byte[] b, int from) {
        return java.util.Arrays.copyOfRange(b, Math.min(from, b.length), Math.min(b.length, from + SHOWN));
    }

    /** Printable ASCII as is, \r \n \t \\ \" escaped, other bytes as \xNN. */
    static String escaped(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            int c = x & 0xff;
            switch (c) {
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                default -> sb.append(c >= 0x20 && c < 0x7f ? String.valueOf((char) c) : String.format("\\x%02x", c));
            }
        }
        return sb.toString();
    }
}
