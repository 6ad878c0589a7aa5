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
import java.util.function.BiFunction;
import java.util.function.Consumer;

/** What the checker commands share: reading a whole verified recording, and UTF-8 output. */
public final class Recordings {

    private Recordings() {
    }

    /** The recording could not be read; the message is the reader's error text (weft-log-v2.md). */
    static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** What a checker prints once it has seen every record, and the command's exit code. */
    public record Report(String text, int exitCode) { }

    /**
     * The shape of every checker command (a protocol's {@code weft check} and {@code weft trace}): LOG is the
     * first argument; every record goes to {@code sink}; then {@code report} (given LOG and the header) says what to
     * print and the exit code. A missing LOG prints {@code usage: NAME <recording.weftlog>ARGS}, an unreadable one
     * {@code NAME: LOG: why}; both exit 1.
     */
    public static int readThenReport(String name, String moreArgs, String[] args, PrintStream out, PrintStream err,
                              Consumer<LogRecord> sink, BiFunction<String, LogHeader, Report> report) {
        if (args.length < 1) {
            print(err, "usage: " + name + " <recording.weftlog>" + moreArgs + "\n");
            return 1;
        }
        String log = args[0];
        LogHeader header;
        try {
            header = forEach(log, sink);
        } catch (Unreadable e) {
            print(err, name + ": " + log + ": " + e.getMessage() + "\n");
            return 1;
        }
        Report r = report.apply(log, header);
        print(out, r.text());
        return r.exitCode();
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
