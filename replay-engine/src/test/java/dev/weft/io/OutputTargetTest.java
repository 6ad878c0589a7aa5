package dev.weft.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one rule for output paths: replace only a regular file (or create one); write FIFOs/devices directly; refuse the rest. */
class OutputTargetTest {

    static void mkfifo(Path p) throws Exception {
        Process m = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertEquals(0, m.waitFor());
    }

    @Test
    void aDirectoryIsRefusedAndLeftAlone(@TempDir Path dir) throws Exception {
        Path d = Files.createDirectory(dir.resolve("out"));
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(d, "x".getBytes()));
        assertEquals("Is a directory (os error 21)", dev.weft.text.OsErrorText.of(e));
        assertThrows(IOException.class, () -> AtomicFile.write(d, "x".getBytes()));
        assertTrue(Files.isDirectory(d));
    }

    @Test
    void aFifoIsWrittenIntoAndStaysAFifo(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("pipe");
        mkfifo(fifo);
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = Files.newInputStream(fifo)) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        OutputFile.write(fifo, "through the pipe".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("through the pipe".getBytes(StandardCharsets.UTF_8), read.get());
        assertEquals("fifo", SpecialFiles.type(fifo));
        // a file written whole and renamed (a fuzz reproducer) refuses a FIFO rather than replace it
        IOException e = assertThrows(IOException.class, () -> AtomicFile.write(fifo, "x".getBytes()));
        assertTrue(dev.weft.text.OsErrorText.of(e).startsWith("is a fifo"), e.getMessage());
        assertTrue(e.getMessage().startsWith(fifo + ": is a fifo"), e.getMessage());
        assertEquals("fifo", SpecialFiles.type(fifo));
    }

    @Test
    void aCharacterDeviceIsWrittenNotReplacedAndItsErrorIsNamed(@TempDir Path dir) throws Exception {
        Path toNull = Files.createSymbolicLink(dir.resolve("null"), Path.of("/dev/null"));
        OutputFile.write(toNull, "gone".getBytes());
        assertTrue(Files.isSymbolicLink(toNull));
        Path toFull = Files.createSymbolicLink(dir.resolve("full"), Path.of("/dev/full"));
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(toFull, new byte[1 << 17]));
        assertTrue(dev.weft.text.OsErrorText.of(e).startsWith("No space left on device"), e.getMessage());
        assertTrue(Files.isSymbolicLink(toFull));
        assertEquals("character device", SpecialFiles.type(Path.of("/dev/full")));
    }

    @Test
    void aSymlinkIsFollowedAndKeptALoopIsRefused(@TempDir Path dir) throws Exception {
        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), Path.of("real.json"));
        OutputFile.write(link, "new".getBytes(StandardCharsets.UTF_8));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new", Files.readString(real));
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        IOException e = assertThrows(IOException.class, () -> OutputFile.write(a, "x".getBytes()));
        assertEquals("Too many levels of symbolic links (os error 40)", dev.weft.text.OsErrorText.of(e));
        assertTrue(Files.isSymbolicLink(a) && Files.isSymbolicLink(b));
        // a dangling link creates what it names, as a shell's redirection does
        Path dangling = Files.createSymbolicLink(dir.resolve("d"), Path.of("made.json"));
        OutputFile.write(dangling, "made".getBytes(StandardCharsets.UTF_8));
        assertEquals("made", Files.readString(dir.resolve("made.json")));
        assertTrue(Files.isSymbolicLink(dangling));
    }

    @Test
    void aMissingDirectoryIsNamedInTheSystemsWords(@TempDir Path dir) {
        IOException e = assertThrows(IOException.class,
                () -> OutputFile.write(dir.resolve("no/such/out.json"), "x".getBytes()));
        assertEquals("No such file or directory (os error 2)", dev.weft.text.OsErrorText.of(e));
    }

    @Test
    void inputProblemsAreNamedAsWhatTheyAre(@TempDir Path dir) throws Exception {
        assertEquals("No such file or directory (os error 2)", InputFile.problem(dir.resolve("none")));
        assertEquals("Is a directory (os error 21)", InputFile.problem(dir));
        assertEquals("is a character device, not a regular file", InputFile.problem(Path.of("/dev/zero")));
        Path a = dir.resolve("a");
        Files.createSymbolicLink(a, dir.resolve("b"));
        Files.createSymbolicLink(dir.resolve("b"), a);
        assertEquals("Too many levels of symbolic links (os error 40)", InputFile.problem(a));
        Path fifo = dir.resolve("p");
        mkfifo(fifo);
        assertEquals("is a fifo, not a regular file", InputFile.problem(fifo));
        assertEquals(null, InputFile.problem(Files.writeString(dir.resolve("ok"), "x")));
        assertTrue(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS));
    }
}
