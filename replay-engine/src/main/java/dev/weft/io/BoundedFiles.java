package dev.weft.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a whole input file that has a sane size (a scenario, a fuzz or campaign config, a regression list) without
 * trusting it to: at most the limit plus one byte is ever read, so {@code /dev/zero}, a FIFO or a 10 GB file is a
 * one-line refusal instead of an OutOfMemoryError.
 */
public final class BoundedFiles {
    private BoundedFiles() {
    }

    /** The file's bytes, or a {@link TooLargeException} once it holds more than {@code maxBytes}. */
    public static byte[] read(Path file, int maxBytes) throws IOException {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new TooLargeException(maxBytes);
        }
        return bytes;
    }

    /** A file past its kind's limit; the message says the limit ({@code more than 1048576 bytes (1 MiB)}). */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        TooLargeException(int maxBytes) {
            super("more than " + maxBytes + " bytes (" + human(maxBytes) + ")");
        }

        private static String human(int bytes) {
            return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes % 1024 == 0 ? (bytes >> 10) + " KiB"
                    : bytes + " bytes";
        }
    }
}
