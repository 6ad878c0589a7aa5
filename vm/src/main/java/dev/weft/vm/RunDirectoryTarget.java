package dev.weft.vm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Where {@code weft vm record --out DIR} may put its run directory: a new path or an empty directory (a symbolic
 * link is followed, so the run lands in what it names and the link stays); anything else is refused before QEMU
 * starts, and never replaced.
 */
final class RunDirectoryTarget {
    private RunDirectoryTarget() {
    }

    /** {@code out} with its links resolved; a {@link VmCommand.VmFailure} names what is there instead. */
    static Path check(Path out) throws VmCommand.VmFailure {
        Path p = out;
        try {
            if (Files.isSymbolicLink(p)) {
                if (!Files.exists(p)) {
                    throw new VmCommand.VmFailure(out + ": a symbolic link to nothing");
                }
                p = p.toRealPath();
            }
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                return p;
            }
            if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new VmCommand.VmFailure(out + ": exists and is not a directory (a run is a directory of files)");
            }
            try (Stream<Path> s = Files.list(p)) {
                if (s.findAny().isPresent()) {
                    throw new VmCommand.VmFailure(out + ": exists and is not an empty directory");
                }
            }
            return p;
        } catch (IOException e) {
            throw new VmCommand.VmFailure(out + ": " + dev.weft.text.OsErrorText.of(e));
        }
    }
}
