package dev.weft.broker.wire;

import dev.weft.log.VAddr;
import java.util.Arrays;

/**
 * Decodes one message (the bytes of a frame after its length prefix). Bytes after the last field are
 * ignored; an unknown tag or a message too short for its fields is a {@link ProtocolException}.
 */
public final class RequestDecoder {
    private final byte[] buf;
    private final int end;
    private int pos;
    private String what = "message";

    private RequestDecoder(byte[] buf, int offset, int length) {
        this.buf = buf;
        this.pos = offset;
        this.end = offset + length;
    }

    public static Request decode(byte[] buf, int offset, int length) throws ProtocolException {
        return new RequestDecoder(buf, offset, length).message();
    }

    private Request message() throws ProtocolException {
        if (end - pos < 1) {
            throw new ProtocolException("empty message (a frame of length 0 has no tag)");
        }
        int tag = buf[pos++] & 0xFF;
        switch (tag) {
            case Wire.HELLO -> {
                what = "Hello";
                return new Request.Hello(u32(), u32());
            }
            case Wire.BIND -> {
                what = "Bind";
                return new Request.Bind(addr());
            }
            case Wire.SEND -> {
                what = "Send";
                VAddr src = addr();
                VAddr dst = addr();
                byte[] payload = bytes();
                return new Request.Send(src, dst, payload, u64());
            }
            case Wire.RECV -> {
                what = "Recv";
                VAddr a = addr();
                boolean blocking = bool();
                long localVt = u64();
                // optional: a trailing byte 1 says the node waits here with no deadline (older shims send none)
                boolean forever = blocking && end - pos >= 1 && buf[pos] == 1;
                return new Request.Recv(a, blocking, localVt, forever);
            }
            case Wire.FRONTIER -> {
                what = "Frontier";
                return new Request.Frontier(u64());
            }
            case Wire.GOODBYE -> {
                return new Request.Goodbye();
            }
            case Wire.TCP_BIND -> {
                what = "TcpBind";
                return new Request.TcpBind(addr());
            }
            case Wire.TCP_LISTEN -> {
                what = "TcpListen";
                return new Request.TcpListen(u32());
            }
            case Wire.TCP_CONNECT -> {
                what = "TcpConnect";
                VAddr dst = addr();
                long vt = u64();
                return new Request.TcpConnect(dst, vt, bool());
            }
            case Wire.TCP_ACCEPT -> {
                what = "TcpAccept";
                long vt = u64();
                return new Request.TcpAccept(vt, bool());
            }
            case Wire.TCP_ADOPT -> {
                what = "TcpAdopt";
                return new Request.TcpAdopt(u64());
            }
            case Wire.TCP_WRITE -> {
                what = "TcpWrite";
                byte[] payload = bytes();
                long vt = u64();
                return new Request.TcpWrite(payload, vt, bool());
            }
            case Wire.TCP_READ -> {
                what = "TcpRead";
                long max = u32();
                long flags = u32();
                long vt = u64();
                return new Request.TcpRead(max, flags, vt, bool());
            }
            case Wire.TCP_SHUTDOWN -> {
                what = "TcpShutdown";
                long how = u32();
                if (how > Wire.SHUT_RDWR) {
                    throw new ProtocolException("TcpShutdown how " + how + " is not 0 (rd), 1 (wr) or 2 (rdwr)");
                }
                return new Request.TcpShutdown(how);
            }
            case Wire.TCP_ABORT -> {
                return new Request.TcpAbort();
            }
            case Wire.TCP_WAIT -> {
                what = "TcpWait";
                long events = u32();
                long vt = u64();
                long deadline = u64();
                // optional trailing flags byte (protocol-v3 §2a); older shims send none: every wait counts as idle
                int flags = end - pos >= 1 ? buf[pos] & 0xFF : Wire.WAIT_IDLE;
                return new Request.TcpWait(events, vt, deadline, flags);
            }
            case Wire.TCP_UNWAIT -> {
                return new Request.TcpUnwait();
            }
            case Wire.TCP_STATUS -> {
                return new Request.TcpStatus();
            }
            case Wire.LEASE -> {
                what = "Lease";
                VAddr a = addr();
                need(1);
                int mode = buf[pos++] & 0xFF;
                if (mode > Wire.LEASE_BLOCKING) {
                    throw new ProtocolException("Lease mode " + mode + " is not 0 (non-blocking), 1 (timed) or 2 (blocking)");
                }
                return new Request.Lease(a, mode, u64());
            }
            case Wire.TCP_CLOSE -> {
                what = "TcpClose";
                return new Request.TcpClose(u64());
            }
            default -> throw new ProtocolException("unknown message tag " + tag);
        }
    }

    private void need(int n) throws ProtocolException {
        if (end - pos < n) {
            throw new ProtocolException(what + " message too short for its fields");
        }
    }

    private long u32() throws ProtocolException {
        need(4);
        long v = (buf[pos] & 0xFFL) | (buf[pos + 1] & 0xFFL) << 8 | (buf[pos + 2] & 0xFFL) << 16
                | (buf[pos + 3] & 0xFFL) << 24;
        pos += 4;
        return v;
    }

    private int u16() throws ProtocolException {
        need(2);
        int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    private long u64() throws ProtocolException {
        need(8);
        long lo = u32();
        long hi = u32();
        return lo | hi << 32;
    }

    private boolean bool() throws ProtocolException {
        need(1);
        return buf[pos++] != 0; // any non-zero byte reads as true
    }

    private VAddr addr() throws ProtocolException {
        long ip = u32();
        return new VAddr(ip, u16());
    }

    private byte[] bytes() throws ProtocolException {
        long n = u32();
        if (n > end - pos) { // checked before the copy is allocated
            throw new ProtocolException(what + " payload length " + n + " exceeds the frame");
        }
        byte[] b = Arrays.copyOfRange(buf, pos, pos + (int) n);
        pos += (int) n;
        return b;
    }
}
