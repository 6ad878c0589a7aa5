package dev.weft.app.source;

import java.nio.file.Path;

/** Opens a recording file into a source (slow: indexes the whole file), reporting progress. */
public interface RecordingOpener {

    /**
     * Opens the file. A log that fails verification part-way still opens (up to the problem, see
     * {@link Verification}); only a file that cannot be read at all throws.
     */
    RecordingSource open(Path file, Progress progress) throws OpenException, InterruptedException;

    /** A file that cannot be shown at all; the message names the file and what is wrong. */
    final class OpenException extends Exception {
        public OpenException(String message) {
            super(message);
        }
    }
}
