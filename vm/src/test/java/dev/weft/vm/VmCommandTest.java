package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command's answers that need no QEMU: missing QEMU, usage mistakes. */
class VmCommandTest {

    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int code;
        try (PrintStream out = new PrintStream(o, true, StandardCharsets.UTF_8);
                PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8)) {
            code = VmCommand.run(args, out, err);
        }
        return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    @Test
    void missingQemuSaysWhatToInstall() {
        Result r = run("record", "--seed", "1", "--qemu", "/nonexistent/qemu-system-x86_64");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("/nonexistent/qemu-system-x86_64 is not an executable QEMU"), r.err());
        assertTrue(r.err().contains("apt-get install qemu-system-x86 busybox-static"), r.err());
        assertTrue(r.err().contains("macOS/Windows: not supported"), r.err());
    }

    @Test
    void usageMistakesAreNamed() {
        Result r = run("record");
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("weft vm record: record needs --seed N\n"), r.err());
        r = run("record", "--seed", "12x");
        assertTrue(r.err().startsWith("weft vm record: --seed needs an unsigned 64-bit number (decimal or 0x-hex), got '12x'"),
                r.err());
        r = run("replay");
        assertTrue(r.err().startsWith("weft vm replay: replay needs the run directory"), r.err());
        r = run("replay", "dir", "--seed", "3");
        assertTrue(r.err().startsWith("weft vm replay: replay takes its seed, scenario and files from the run directory"),
                r.err());
        r = run("rewind");
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("weft vm: unknown operation 'rewind'"), r.err());
        r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("usage: weft vm record --seed N"), r.out());
    }

    /** Issue 28 item 1: --out is checked before QEMU, a file or non-empty directory is refused, a link followed. */
    @Test
    void anOutputThatCannotBeARunDirectoryIsRefusedBeforeAnythingRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("f"), "mine");
        Result r = run("record", "--seed", "1", "--qemu", "/nonexistent/qemu", "--out", file.toString());
        assertEquals(1, r.code());
        assertEquals("weft vm record: " + file + ": exists and is not a directory (a run is a directory of files)\n", r.err());
        assertEquals("mine", java.nio.file.Files.readString(file));
        java.nio.file.Path full = java.nio.file.Files.createDirectory(dir.resolve("full"));
        java.nio.file.Files.writeString(full.resolve("x"), "");
        r = run("record", "--seed", "1", "--qemu", "/nonexistent/qemu", "--out", full.toString());
        assertEquals("weft vm record: " + full + ": exists and is not an empty directory\n", r.err());
        java.nio.file.Path empty = java.nio.file.Files.createDirectory(dir.resolve("empty"));
        java.nio.file.Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("link"), empty);
        assertEquals(empty.toRealPath(), RunDirectoryTarget.check(link));
        assertTrue(java.nio.file.Files.isSymbolicLink(link));
    }
}
