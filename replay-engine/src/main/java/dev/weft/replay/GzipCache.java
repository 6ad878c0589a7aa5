package dev.weft.replay;

import dev.weft.log.DecompressedCopy;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The plain file a gzip recording is expanded into once, for random access: the reader's decompressed bytes
 * verbatim ({@link DecompressedCopy}), so a record's stream offset is its offset here, exactly as for a plain log.
 * The reader hands bytes over only when the log is gzip, so the file is created on the first write; both happen on
 * the reader's inflating thread, and a failure there is kept and thrown by {@link #close()}. Deleted when the JVM
 * exits, or by the index.
 */
final class GzipCache implements Closeable, DecompressedCopy {

    private final Path dir;
    private Path file;
    private OutputStream out;
    private IOException failure;

    GzipCache(Path dir) {
        this.dir = dir;
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        if (failure != null) {
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(dir);
                file = Files.createTempFile(dir, "weft-index-", ".weftlog");
                file.toFile().deleteOnExit();
                out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
            }
            out.write(bytes, off, len);
        } catch (IOException e) {
            failure = e;
        }
    }

    /** The cache file, or null when nothing was written (a plain log). Read it after {@link #close()}. */
    Path file() {
        return file;
    }

    /**
     * Call once the reader is closed (its inflating thread has stopped writing, and joining it made its writes
     * visible here); throws a failed write, after deleting the file.
     */
    @Override
    public void close() throws IOException {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            delete();
            throw failure;
        }
    }

    /** Removes the file, if any (after a failed or cancelled build). */
    void delete() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // deleted on exit
            }
        }
    }
}
