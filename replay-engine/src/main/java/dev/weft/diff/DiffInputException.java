package dev.weft.diff;

import dev.weft.log.WeftLogException;
import java.nio.file.Path;

/** One of the two recordings could not be read; the message names the file and, from the reader, line and op. */
public final class DiffInputException extends Exception {

    private final Path file;

    public DiffInputException(Path file, WeftLogException cause) {
        super(file + ": " + cause.getMessage(), cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
