package dev.weft.replay;

import dev.weft.log.CanonicalJson;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The plain file a gzip recording is expanded into once, for random access: the header verbatim, then each record in
 * its canonical form with its chain (which parses to the same values). Deleted when the JVM exits, or by the index.
 */
final class GzipCache implements Closeable {

    private final Path file;
    private final BufferedWriter out;
    private long offset;

    private GzipCache(Path file, BufferedWriter out, long offset) {
        this.file = file;
        this.out = out;
        this.offset = offset;
    }

    static GzipCache create(Path cacheDir, LogHeader header) throws IOException {
        Files.createDirectories(cacheDir);
        Path plain = Files.createTempFile(cacheDir, "weft-index-", ".weftlog");
        plain.toFile().deleteOnExit();
        BufferedWriter out = Files.newBufferedWriter(plain, StandardCharsets.UTF_8);
        out.write(header.rawLine());
        out.write('\n');
        return new GzipCache(plain, out, header.rawLine().getBytes(StandardCharsets.UTF_8).length + 1);
    }

    /** Appends {@code r}'s line; returns its offset in the cache file. */
    long append(LogRecord r) {
        String canon = CanonicalJson.record(r.op(), r.vt(), r.event());
        String line = canon.substring(0, canon.length() - 1) + ",\"chain\":\"" + Fnv1a.hex16(r.chain()) + "\"}";
        long at = offset;
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        offset += line.getBytes(StandardCharsets.UTF_8).length + 1;
        return at;
    }

    Path file() {
        return file;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
