package dev.weft.io;

import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What an output path names, decided once for every command that writes a file (convert, fuzz, campaign, vm,
 * run --record, the workbench's exports): a new path or a regular file is written beside and renamed into place;
 * a FIFO or a character device ({@code /dev/stdout}, {@code /dev/null}, {@code /dev/full}) is written into
 * directly, never replaced; a directory, a block device or a socket is refused. A symbolic link is followed to
 * what it names (the link itself stays), a loop of links is refused. docs/security.md lists the refusals.
 */
public final class OutputTarget {
    /** How many links are followed before a chain counts as a loop (Linux's limit, ELOOP). */
    private static final int MAX_LINKS = 40;

    /** What the resolved path is. */
    public enum Kind {
        /** Nothing there yet: created beside, then renamed. */
        NEW_FILE,
        /** An existing regular file: replaced by a rename, so a failure leaves it as it was. */
        REGULAR_FILE,
        /** A FIFO or a character device: opened and written, never replaced. */
        STREAM
    }

    private final Path requested;
    private final Path path;
    private final Kind kind;

    private OutputTarget(Path requested, Path path, Kind kind) {
        this.requested = requested;
        this.path = path;
        this.kind = kind;
    }

    /** Where the bytes go: {@code requested} with its symbolic links followed. */
    public Path path() {
        return path;
    }

    public Kind kind() {
        return kind;
    }

    /** True if a symbolic link was followed to get to {@link #path()}. */
    public boolean throughLink() {
        return !path.equals(requested.toAbsolutePath().normalize());
    }

    /**
     * Classifies {@code requested}; a path that cannot take an output is an {@link OutputRefusedException} whose
     * message says why in the system's words ({@code Is a directory (os error 21)}).
     */
    public static OutputTarget of(Path requested) throws IOException {
        Path p = requested.toAbsolutePath().normalize();
        for (int hops = 0; ; hops++) {
            BasicFileAttributes a;
            try {
                a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException e) {
                return new OutputTarget(requested, p, Kind.NEW_FILE);
            } catch (FileSystemException e) {
                throw new OutputRefusedException(requested, OsErrorText.of(e));
            }
            if (a.isSymbolicLink()) {
                if (hops >= MAX_LINKS) {
                    throw new OutputRefusedException(requested, "Too many levels of symbolic links (os error 40)");
                }
                Path link = Files.readSymbolicLink(p);
                p = p.resolveSibling(link).toAbsolutePath().normalize();
                continue;
            }
            if (a.isRegularFile()) {
                return new OutputTarget(requested, p, Kind.REGULAR_FILE);
            }
            if (a.isDirectory()) {
                throw new OutputRefusedException(requested, "Is a directory (os error 21)");
            }
            String type = SpecialFiles.type(p);
            switch (type) {
                case "fifo", "character device" -> {
                    return new OutputTarget(requested, p, Kind.STREAM);
                }
                default -> throw new OutputRefusedException(requested, "is a " + type + ", not a file weft can write into"
                        + " (only a regular file, a new path, a FIFO or a character device)");
            }
        }
    }

    /**
     * A path that cannot take an output. {@link #getMessage()} is {@code path: reason}, like the JDK's file
     * exceptions; {@link #reason()} (and {@code OsErrorText.of}) is the reason alone, for callers that name the path.
     */
    public static final class OutputRefusedException extends IOException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        public OutputRefusedException(Path path, String reason) {
            super(path + ": " + reason);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }
}
