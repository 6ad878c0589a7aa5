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
 * Written on the reader's inflating thread; a write failure is kept and thrown by {@link #close()}. Deleted when the
 * JVM exits, or by the index.
 */
final class GzipCache implements Closeable, DecompressedCopy {

    private final Path file;
    private final OutputStream out;
    private IOException failure;

    private GzipCache(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    static GzipCache create(Path cacheDir) throws IOException {
        Files.createDirectories(cacheDir);
        Path plain = Files.createTempFile(cacheDir, "weft-index-", ".weftlog");
        plain.toFile().deleteOnExit();
        return new GzipCache(plain, new BufferedOutputStream(Files.newOutputStream(plain), 1 << 16));
    }

    @Override
    public void write(byte[] bytes, int off, int len) {
        if (failure != null) {
            return;
        }
        try {
            out.write(bytes, off, len);
        } catch (IOException e) {
            failure = e;
        }
    }

    Path file() {
        return file;
    }

    /** Call once the reader is closed (its inflating thread has stopped writing); throws a failed write. */
    @Override
    public void close() throws IOException {
        try {
            out.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        if (failure != null) {
            Files.deleteIfExists(file);
            throw failure;
        }
    }
}
