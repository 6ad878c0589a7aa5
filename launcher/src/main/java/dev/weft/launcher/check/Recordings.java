package dev.weft.launcher.check;

import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.function.Consumer;

/** What the checker commands share: reading a whole verified recording, and UTF-8 output. */
final class Recordings {

    private Recordings() {
    }

    /** The recording could not be read; the message is the reader's error text (weft-log-v2.md). */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** Feeds every record of the log, in order, each verified (op order, chain); returns the header. */
    static LogHeader forEach(String log, Consumer<LogRecord> sink) throws Unreadable {
        Path path;
        try {
            path = Path.of(log);
        } catch (InvalidPathException e) {
            throw new Unreadable("I/O error: " + e.getMessage());
        }
        LogReader reader;
        try {
            reader = LogReader.open(path);
        } catch (WeftLogException e) {
            throw new Unreadable(e.getMessage());
        }
        try {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                sink.accept(r);
            }
            return reader.header();
        } catch (WeftLogException e) {
            throw new Unreadable(e.getMessage());
        } finally {
            try {
                reader.close();
            } catch (IOException ignored) {
                // every record was already read (or a read error is being reported): nothing is lost
            }
        }
    }

    /** Writes text as UTF-8 whatever the stream's own charset (→ ✗ — must survive any platform default). */
    static void print(PrintStream stream, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        stream.write(bytes, 0, bytes.length);
        stream.flush();
    }
}
