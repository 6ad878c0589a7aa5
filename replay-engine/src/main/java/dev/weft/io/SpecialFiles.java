package dev.weft.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** Names the type of a file that is neither regular nor a directory nor a link, from its Unix mode bits. */
final class SpecialFiles {
    private SpecialFiles() {
    }

    /** {@code fifo}, {@code character device}, {@code block device}, {@code socket} or {@code special file}. */
    static String type(Path p) {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "special file";
        }
        return switch (mode & 0170000) {
            case 0010000 -> "fifo";
            case 0020000 -> "character device";
            case 0060000 -> "block device";
            case 0140000 -> "socket";
            default -> "special file";
        };
    }
}
