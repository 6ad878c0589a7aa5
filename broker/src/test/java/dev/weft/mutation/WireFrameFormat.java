package dev.weft.mutation;

import dev.weft.broker.wire.FrameReader;
import dev.weft.broker.wire.ProtocolException;
import dev.weft.broker.wire.RequestDecoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The broker's wire frames (wire-and-abi.md §2): a connection's byte stream of length-prefixed requests, read by the
 * broker's own FrameReader and RequestDecoder exactly as a connection does. Seeds are valid request streams; the
 * mutants are what a broken or hostile client sends.
 */
final class WireFrameFormat extends SeededFormat {

    /** Every protocol error names the frame field or the message kind it is about. */
    private static final Pattern LOCATED = Pattern.compile("^(frame length \\d+ exceeds the 16 MiB limit"
            + "|connection closed in the middle of a frame"
            + "|empty message \\(a frame of length 0 has no tag\\)"
            + "|unknown message tag \\d+"
            + "|(Hello|Bind|Send|Recv|Lease|Frontier|TcpBind|TcpListen|TcpConnect|TcpAccept|TcpAdopt|TcpWrite|TcpRead"
            + "|TcpShutdown|TcpWait) message too short for its fields"
            + "|(Send|TcpWrite) payload length \\d+ exceeds the frame"
            + "|TcpShutdown how \\d+ is not 0 \\(rd\\), 1 \\(wr\\) or 2 \\(rdwr\\)"
            + "|Lease is served by a windowed broker only"
            + "|Lease mode \\d+ is not 0 \\(non-blocking\\), 1 \\(timed\\) or 2 \\(blocking\\))$");

    WireFrameFormat() {
        super("wire-frames", new ByteMutator(List.of(
                stream(hello(0, 0), bind(0, 4000), send(0, 4000, 1, 4001, "PING:7", 1000), recv(0, 4000, true, 2000)),
                stream(hello(1, 2), recv(1, 4001, false, 0), frontier(5000), goodbye()),
                stream(send(2, 50000, 0, 4000, "", 0), send(2, 50000, 0, 4000, "x".repeat(300), -1L)),
                stream(bind(6, 65535), recv(6, 65535, true, Long.MAX_VALUE), goodbye(), hello(6, 0))),
                ByteMutator.bytes("\u0001", "\u0002", "\u0003", "\u0004", "\u0005", "\u0006", "\u0007", "\u0000\u0000\u0000\u0000",
                        "\u00ff\u00ff\u00ff\u00ff", "\u0001\u0000\u0000\u007f", "\u00a0\u000f", "\u0000\u0000\u0000\u0001")));
    }

    @Override
    public String feed(byte[] input) throws Exception {
        FrameReader frames = new FrameReader(Channels.newChannel(new ByteArrayInputStream(input)));
        int frame = 0;
        try {
            while (frames.next()) {
                RequestDecoder.decode(frames.message(), frames.messageOffset(), frames.messageLength());
                frame++;
            }
            return null;
        } catch (ProtocolException e) {
            return "frame " + frame + ": " + locatedOrThrow(e.getMessage(), LOCATED, "");
        }
    }

    // ---- valid requests, encoded from the spec's tables (tag, then little-endian fields) ----

    private static byte[] stream(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.writeBytes(le(4).putInt(m.length).array());
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] hello(int node, int host) {
        return le(9).put((byte) 1).putInt(node).putInt(host).array();
    }

    private static byte[] bind(int node, int port) {
        return le(7).put((byte) 2).putInt(0x7F000001 + node).putShort((short) port).array();
    }

    private static byte[] send(int srcNode, int srcPort, int dstNode, int dstPort, String payload, long localVt) {
        byte[] p = payload.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return le(1 + 6 + 6 + 4 + p.length + 8).put((byte) 3).putInt(0x7F000001 + srcNode).putShort((short) srcPort)
                .putInt(0x7F000001 + dstNode).putShort((short) dstPort).putInt(p.length).put(p).putLong(localVt).array();
    }

    private static byte[] recv(int node, int port, boolean blocking, long localVt) {
        return le(16).put((byte) 4).putInt(0x7F000001 + node).putShort((short) port).put((byte) (blocking ? 1 : 0))
                .putLong(localVt).array();
    }

    private static byte[] frontier(long localVt) {
        return le(9).put((byte) 5).putLong(localVt).array();
    }

    private static byte[] goodbye() {
        return new byte[] {6};
    }
}
