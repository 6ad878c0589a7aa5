package dev.weft.log;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses exactly the first member of a gzip stream (RFC 1952) and then reports end of stream,
 * ignoring whatever follows (weft-log-v2.md §11). Unlike {@link java.util.zip.GZIPInputStream} it never
 * reads on into concatenated members. A member without its trailer, a bad header, a corrupt deflate
 * stream or a CRC/size mismatch is an {@link IOException}.
 */
final class GzipMemberInputStream extends InputStream {

    private static final int FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16;

    private final InputStream in;
    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final byte[] inBuf = new byte[1 << 16];
    private int inPos;
    private int inLen;
    private long size;
    private boolean done;

    GzipMemberInputStream(InputStream in) throws IOException {
        this.in = in;
        readHeader();
        inflater.setInput(inBuf, inPos, inLen - inPos);
    }

    private int nextByte() throws IOException {
        if (inPos >= inLen) {
            inLen = in.read(inBuf, 0, inBuf.length);
            inPos = 0;
            if (inLen <= 0) {
                inLen = 0;
                throw new EOFException("unexpected end of file");
            }
        }
        return inBuf[inPos++] & 0xff;
    }

    private void readHeader() throws IOException {
        if (nextByte() != 0x1f || nextByte() != 0x8b) {
            throw new IOException("invalid gzip header");
        }
        if (nextByte() != 8) {
            throw new IOException("invalid gzip header (compression method is not deflate)");
        }
        int flags = nextByte();
        for (int i = 0; i < 6; i++) { // mtime, xfl, os
            nextByte();
        }
        if ((flags & FEXTRA) != 0) {
            int xlen = nextByte() | (nextByte() << 8);
            for (int i = 0; i < xlen; i++) {
                nextByte();
            }
        }
        if ((flags & FNAME) != 0) {
            while (nextByte() != 0) {
                // skip the zero-terminated file name
            }
        }
        if ((flags & FCOMMENT) != 0) {
            while (nextByte() != 0) {
                // skip the zero-terminated comment
            }
        }
        if ((flags & FHCRC) != 0) {
            nextByte();
            nextByte();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (done) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        try {
            for (;;) {
                int n = inflater.inflate(b, off, len);
                if (n > 0) {
                    crc.update(b, off, n);
                    size += n;
                    return n;
                }
                if (inflater.finished()) {
                    readTrailer();
                    done = true;
                    return -1;
                }
                if (inflater.needsDictionary()) {
                    throw new IOException("corrupt deflate stream (preset dictionary)");
                }
                if (inflater.needsInput()) {
                    inLen = in.read(inBuf, 0, inBuf.length);
                    inPos = 0;
                    if (inLen <= 0) {
                        inLen = 0;
                        throw new EOFException("unexpected end of file (gzip member truncated)");
                    }
                    inflater.setInput(inBuf, 0, inLen);
                }
            }
        } catch (DataFormatException e) {
            throw new IOException("corrupt deflate stream", e);
        }
    }

    private void readTrailer() throws IOException {
        inPos = inLen - inflater.getRemaining();
        long storedCrc = 0;
        for (int i = 0; i < 4; i++) {
            storedCrc |= (long) nextByte() << (8 * i);
        }
        long storedSize = 0;
        for (int i = 0; i < 4; i++) {
            storedSize |= (long) nextByte() << (8 * i);
        }
        if (storedCrc != crc.getValue()) {
            throw new IOException("corrupt gzip stream does not have a matching checksum");
        }
        if (storedSize != (size & 0xFFFF_FFFFL)) {
            throw new IOException("corrupt gzip stream does not have a matching size");
        }
    }

    @Override
    public void close() throws IOException {
        inflater.end();
        in.close();
    }
}
