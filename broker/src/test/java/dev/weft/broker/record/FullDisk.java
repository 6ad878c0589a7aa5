package dev.weft.broker.record;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A recording file that may grow to {@code quota} bytes only, then fails every write like a full disk (truncating
 * frees space).
 */
public final class FullDisk extends CommittingFileOutput {
    private final long quota;

    public FullDisk(Path p, long quota) throws IOException {
        super(CommittingFileOutput.openTruncated(p));
        this.quota = quota;
    }

    @Override
    protected int writeSome(byte[] b, int off, int len) throws IOException {
        long left = quota - size();
        if (left <= 0) {
            throw new IOException("No space left on device");
        }
        return super.writeSome(b, off, (int) Math.min(left, len));
    }
}
