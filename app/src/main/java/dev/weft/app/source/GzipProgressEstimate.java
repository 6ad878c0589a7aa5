package dev.weft.app.source;

import dev.weft.log.CanonicalJson;
import dev.weft.log.LogRecord;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * A determinate progress fraction for a gzip recording, whose reader cannot say how far it is: the gzip
 * trailer holds the uncompressed size (mod 2^32, of the last member), and the first records give the bytes
 * per record, so records read / estimated records is the fraction (capped below 1 until the end). When the
 * trailer cannot be right (a multi-member file, more than 4 GiB) the estimate is dropped and the bar says
 * "unknown" as before.
 */
final class GzipProgressEstimate {

    static final int SAMPLE = 2048;
    /** Per-line bytes the canonical JSON does not hold: the chain member and the newline. */
    static final int LINE_OVERHEAD = 27;

    private final long uncompressed;
    private volatile long sampledBytes;   // one writer (the record sink); read by the progress callback
    private volatile int sampled;

    private GzipProgressEstimate(long uncompressed) {
        this.uncompressed = uncompressed;
    }

    /** The estimate for a gzip file, or null when the file is not gzip or its trailer is unreadable. */
    static GzipProgressEstimate of(Path file) {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            if (f.length() < 18) return null;
            if (f.readUnsignedByte() != 0x1f || f.readUnsignedByte() != 0x8b) return null;
            f.seek(f.length() - 4);
            long isize = Integer.toUnsignedLong(Integer.reverseBytes(f.readInt()));
            return isize > f.length() ? new GzipProgressEstimate(isize) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Feeds the first records' sizes (cheap: stops after {@link #SAMPLE}). */
    void sample(LogRecord r) {
        if (sampled >= SAMPLE) return;
        sampledBytes += CanonicalJson.record(r.op(), r.vt(), r.event()).length() + LINE_OVERHEAD;
        sampled++;
    }

    /** Fraction done after records, in [0, 0.99], or -1 while there is no sample yet or the estimate broke. */
    double fraction(long records) {
        if (sampled == 0) return -1;
        double perRecord = (double) sampledBytes / sampled;
        double total = uncompressed / perRecord;
        if (records > total * 1.5) return -1;    // the trailer was not the whole file's size
        return Math.min(0.99, records / total);
    }
}
