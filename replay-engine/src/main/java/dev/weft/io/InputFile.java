package dev.weft.io;

import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Why a path the user named as an input file cannot be read, in the system's words: a missing file, a loop of
 * symbolic links, a directory, a device or a FIFO, a file in a directory we may not enter are each named as
 * what they are (not all "no such file").
 */
public final class InputFile {
    private InputFile() {
    }

    /** Null if {@code p} is a regular file we can open for reading, else the reason. */
    public static String problem(Path p) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException e) {
            return OsErrorText.of(e);
        }
        if (a.isDirectory()) {
            return "Is a directory (os error 21)";
        }
        if (!a.isRegularFile()) {
            Path real;
            try {
                real = p.toRealPath();
            } catch (IOException e) {
                return OsErrorText.of(e);
            }
            return "is a " + SpecialFiles.type(real) + ", not a regular file";
        }
        try (FileChannel c = FileChannel.open(p, StandardOpenOption.READ)) {
            return null;
        } catch (IOException e) {
            return OsErrorText.of(e);
        }
    }
}
