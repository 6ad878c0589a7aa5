package dev.weft.io;

import dev.weft.text.OsErrorText;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one way a command writes an output file the user named ({@link OutputTarget} decides how): a new path or a
 * regular file through an {@link AtomicFile} (complete under its name, or not changed at all), a FIFO or a
 * character device directly. {@link #commit()} ends a successful write; {@link #close()} without it discards.
 *
 * <pre>
 * try (OutputFile f = OutputFile.open(path)) {
 *     write(f.stream());
 *     f.commit();
 * }
 * </pre>
 */
public final class OutputFile implements Closeable {
    private final OutputTarget target;
    private final AtomicFile atomic;
    private final OutputStream direct;

    private OutputFile(OutputTarget target, AtomicFile atomic, OutputStream direct) {
        this.target = target;
        this.atomic = atomic;
        this.direct = direct;
    }

    /** Opens {@code path} for a complete new content; the exception's message is the reason in the system's words. */
    public static OutputFile open(Path path) throws IOException {
        OutputTarget t = OutputTarget.of(path);
        if (t.kind() == OutputTarget.Kind.STREAM) {
            try {
                return new OutputFile(t, null,
                        new BufferedOutputStream(Files.newOutputStream(t.path(), StandardOpenOption.WRITE), 1 << 16));
            } catch (IOException e) {
                throw new OutputTarget.OutputRefusedException(path, OsErrorText.of(e));
            }
        }
        try {
            return new OutputFile(t, AtomicFile.create(t), null);
        } catch (OutputTarget.OutputRefusedException e) {
            throw e;
        } catch (IOException e) {
            throw new OutputTarget.OutputRefusedException(path, OsErrorText.of(e));
        }
    }

    /** Writes {@code bytes} as the complete new content of {@code path}. */
    public static void write(Path path, byte[] bytes) throws IOException {
        try (OutputFile f = open(path)) {
            f.stream().write(bytes);
            f.commit();
        }
    }

    public OutputTarget target() {
        return target;
    }

    public OutputStream stream() {
        return atomic != null ? atomic.stream() : direct;
    }

    /** The content is complete: renamed into place, or flushed into the FIFO/device. */
    public void commit() throws IOException {
        try {
            if (atomic != null) {
                atomic.commit();
            } else {
                direct.flush();
            }
        } catch (IOException e) {
            throw new OutputTarget.OutputRefusedException(target.path(), OsErrorText.of(e));
        }
    }

    @Override
    public void close() throws IOException {
        if (atomic != null) {
            atomic.close();
        } else {
            try {
                direct.close();
            } catch (IOException e) {
                // an uncommitted write to a stream: what went in cannot be taken back, and the caller reports it
            }
        }
    }
}
