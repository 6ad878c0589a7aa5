package dev.weft.io;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file that appears under its final name only complete: bytes go to a temporary file in the same directory,
 * which {@link #commit()} flushes, fsyncs and renames over the target (then fsyncs the directory, where the OS
 * allows it). A process killed at any point leaves either the previous file or the complete new one under the
 * final name, never a prefix; an abandoned temporary file is deleted by {@link #close()} or, after a kill, by
 * {@link #removeStale(Path)}.
 *
 * <pre>
 * try (AtomicFile f = AtomicFile.create(path)) {
 *     f.stream().write(bytes);
 *     f.commit();
 * }
 * </pre>
 */
public final class AtomicFile implements Closeable {

    /** Temporary names: {@code .<final name>.<pid>-<n>.weft-tmp}; the pid lets a later run tell a dead writer's leftovers. */
    private static final String SUFFIX = ".weft-tmp";
    private static final Pattern TEMP_NAME = Pattern.compile("^\\..+\\.(\\d+)-\\d+" + Pattern.quote(SUFFIX) + "$");
    private static final AtomicLong COUNTER = new AtomicLong();

    private final Path target;
    private final Path temp;
    private final FileChannel channel;
    private final TempStream stream;
    private boolean committed;
    private boolean closed;

    private AtomicFile(Path target, Path temp, FileChannel channel) {
        this.target = target;
        this.temp = temp;
        this.channel = channel;
        this.stream = new TempStream(channel);
    }

    /**
     * Opens a temporary file next to {@code target} (which is not touched until {@link #commit()}). A symbolic link
     * is followed (the file it names is replaced, the link stays); a directory, FIFO or device is refused with an
     * {@link OutputTarget.OutputRefusedException}: a rename would replace it (a FIFO or device is written directly
     * through {@link OutputFile}, for outputs that may go to one).
     */
    public static AtomicFile create(Path target) throws IOException {
        OutputTarget t = OutputTarget.of(target);
        if (t.kind() == OutputTarget.Kind.STREAM) {
            throw new OutputTarget.OutputRefusedException(target, "is a " + SpecialFiles.type(t.path())
                    + ", not a file this output can replace (it is written whole, then renamed into place)");
        }
        return create(t);
    }

    /** As {@link #create(Path)} for a target already classified as a new path or a regular file. */
    static AtomicFile create(OutputTarget t) throws IOException {
        Path abs = t.path();
        Path temp = tempBeside(abs);
        FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new AtomicFile(abs, temp, ch);
    }

    /**
     * A fresh temporary name beside {@code target} ({@code .<name>.<pid>-<n>.weft-tmp}), for a writer that renames
     * its own file into place (a live recording); {@link #removeStale} knows these names.
     */
    public static Path tempBeside(Path target) {
        Path abs = target.toAbsolutePath();
        return abs.resolveSibling("." + abs.getFileName() + "." + ProcessHandle.current().pid() + "-"
                + COUNTER.incrementAndGet() + SUFFIX);
    }

    /** Writes {@code bytes} as the complete new content of {@code target}. */
    public static void write(Path target, byte[] bytes) throws IOException {
        try (AtomicFile f = create(target)) {
            f.stream().write(bytes);
            f.commit();
        }
    }

    /** Where the content goes; its flush() and close() do nothing (see {@link #commit()}). */
    public OutputStream stream() {
        return stream;
    }

    /** Flushes, fsyncs, renames the temporary file to the target and fsyncs the directory. */
    public void commit() throws IOException {
        if (committed || closed) throw new IllegalStateException("already " + (committed ? "committed" : "closed"));
        stream.drain();
        channel.force(true);
        channel.close();
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            // Same directory, so only an exotic file system gets here; a plain replace is the best it offers.
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        committed = true;
        syncDirectory(target.getParent());
    }

    /** Without a prior {@link #commit()}: discards the temporary file and leaves the target as it was. */
    @Override
    public void close() throws IOException {
        if (closed) return;
        closed = true;
        if (committed) return;
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Deletes temporary files in {@code dir} left by writers that no longer run (killed before commit or close).
     * Files of live processes are kept: another run may be writing into the same directory. Returns the count.
     */
    public static int removeStale(Path dir) {
        int removed = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path p : files) {
                Matcher m = TEMP_NAME.matcher(p.getFileName().toString());
                if (!m.matches()) continue;
                long pid;
                try {
                    pid = Long.parseLong(m.group(1));
                } catch (NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).isPresent()) continue;
                try {
                    if (Files.deleteIfExists(p)) removed++;
                } catch (IOException e) {
                    // best effort: a leftover we cannot delete harms nothing but disk space
                }
            }
        } catch (IOException e) {
            // no directory or unreadable: nothing to clean
        }
        return removed;
    }

    /**
     * Makes a rename or a new file's directory entry durable (fsync of the directory). For writers that cannot use
     * a temporary name (a recording followed live while it is written): force the file, then call this. Not every
     * platform can open a directory (Windows cannot), which is harmless.
     */
    public static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the file itself is synced; the directory entry's durability is up to the OS here
        }
    }

    /**
     * Buffered, and deaf to flush() and close(): nobody can see the bytes before commit, so the per-record
     * flushes of a writer stacked on it (LogWriter flushes every line) would only cost system calls, and closing
     * that writer must not close the file before commit.
     */
    private static final class TempStream extends OutputStream {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(1 << 16);

        TempStream(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            if (!buffer.hasRemaining()) drain();
            buffer.put((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                if (!buffer.hasRemaining()) drain();
                int n = Math.min(len, buffer.remaining());
                buffer.put(b, off, n);
                off += n;
                len -= n;
            }
        }

        @Override
        public void flush() {
            // deliberately nothing: commit() drains the buffer
        }

        @Override
        public void close() {
            // deliberately nothing: commit() or AtomicFile.close() ends the file
        }

        void drain() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) channel.write(buffer);
            buffer.clear();
        }
    }
}
