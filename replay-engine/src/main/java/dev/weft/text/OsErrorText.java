package dev.weft.text;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Short operating-system error texts for messages ({@code No such file or directory (os error 2)}),
 * in the style the reference prints, instead of Java's exception strings that repeat the path.
 */
public final class OsErrorText {

    private OsErrorText() {
    }

    public static String of(IOException e) {
        if (e instanceof dev.weft.io.OutputTarget.OutputRefusedException r) return r.reason();
        if (e instanceof NoSuchFileException) return "No such file or directory (os error 2)";
        if (e instanceof AccessDeniedException) return "Permission denied (os error 13)";
        if (e instanceof FileAlreadyExistsException) return "File exists (os error 17)";
        if (e instanceof NotDirectoryException) return "Not a directory (os error 20)";
        if (e instanceof DirectoryNotEmptyException) return "Directory not empty (os error 39)";
        if (e instanceof FileSystemException f && f.getReason() != null) {
            String reason = f.getReason();
            if (reason.equals("Is a directory")) return "Is a directory (os error 21)";
            if (reason.equals("Not a directory")) return "Not a directory (os error 20)";
            if (reason.startsWith("Too many levels of symbolic links")) return "Too many levels of symbolic links (os error 40)";
            if (reason.equals("No space left on device")) return "No space left on device (os error 28)";
            return reason;
        }
        String m = e.getMessage();
        if (m == null) return e.getClass().getSimpleName();
        if (m.equals("Is a directory")) return "Is a directory (os error 21)";
        return m;
    }
}
