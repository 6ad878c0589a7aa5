package dev.weft.broker.record;

import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * Streams the broker's operations to a weft-log v2 through the engine's {@link LogWriter} (canonical form, one
 * flushed line per record, gzip for {@code .gz}). When the file cannot be written any more (a full disk, a
 * quota, a vanished device) it cuts the file back to the last whole record — so the log stays a chain-valid
 * prefix — prints one clear line, and stops recording while the run goes on.
 */
public final class LogRecorder implements Recorder {
    /** {@code meta.weft_version} of live recordings (weft-log-v2.md §3). */
    public static final String WEFT_VERSION = "0.0.2";

    private final Path path;
    private final CommittingFileOutput file;
    private final SealableGzipOutput gzip;
    private final LogWriter writer;
    private final Consumer<String> diagnostics;
    private boolean failed;
    private boolean finished;

    private LogRecorder(Path path, CommittingFileOutput file, SealableGzipOutput gzip, LogWriter writer,
            Consumer<String> diagnostics) {
        this.path = path;
        this.file = file;
        this.gzip = gzip;
        this.writer = writer;
        this.diagnostics = diagnostics;
    }

    /** Creates (truncates) the log and writes its header; gzip iff the file name ends in {@code .gz}. */
    public static LogRecorder create(Path path, long seed, String net, Consumer<String> diagnostics)
            throws IOException {
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        return create(path, new CommittingFileOutput(ch), seed, net, diagnostics);
    }

    /** As {@link #create(Path, long, String, Consumer)} over a given file output (tests simulate a full disk). */
    public static LogRecorder create(Path path, CommittingFileOutput file, long seed, String net,
            Consumer<String> diagnostics) throws IOException {
        boolean gz = path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
        SealableGzipOutput gzip = gz ? new SealableGzipOutput(file) : null;
        OutputStream target = gz ? gzip : file;
        try {
            LogWriter w = LogWriter.create(target, false, seed, net, 0, new LogMeta(null, WEFT_VERSION, null));
            return new LogRecorder(path, file, gzip, w, diagnostics);
        } catch (IOException e) {
            file.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** Records written and kept so far. */
    public long count() {
        return writer.count();
    }

    @Override
    public void record(long vt, Event e) {
        if (failed || finished) {
            return;
        }
        try {
            writer.append(vt, e);
        } catch (IOException ex) {
            fail(ex);
        }
    }

    @Override
    public void finish(long vt, long sent, long dropped) {
        if (failed || finished) {
            return;
        }
        record(vt, new Event.End(writer.count() + 1, sent, dropped));
        finished = true;
    }

    @Override
    public boolean healthy() {
        return !failed;
    }

    private void fail(IOException cause) {
        failed = true;
        String why = OsErrorText.of(cause);
        String repaired;
        try {
            if (gzip != null) {
                gzip.seal();
            } else {
                file.rollBack();
            }
            repaired = "it keeps the first " + writer.count() + " record(s), a chain-valid prefix";
        } catch (IOException again) {
            repaired = "cutting it back to the last whole record failed too (" + OsErrorText.of(again)
                    + "); it may end in a partial line";
        }
        diagnostics.accept("weft: recording stopped: " + path + ": " + why + "; " + repaired
                + " (verify: weft replay " + path + ")");
    }

    @Override
    public void close() {
        try {
            if (failed) {
                if (gzip != null) {
                    gzip.abandon();
                } else {
                    file.close();
                }
            } else {
                writer.close();
            }
        } catch (IOException ex) {
            if (!failed) {
                fail(ex);
            }
            try {
                file.close();
            } catch (IOException ignored) {
                // the failure was reported above; nothing more can be done with this file
            }
        }
    }
}
