package dev.weft.launcher.run;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks at a target program for the ways an LD_PRELOAD shim cannot reach it: a static binary
 * (no dynamic loader), a setuid/setgid file (the loader ignores LD_PRELOAD), or a Go binary (Go
 * makes its own system calls). Each finding is one warning line; nothing here refuses to run.
 */
public final class BinaryInspector {
    private BinaryInspector() {
    }

    /**
     * What was found about the file the kernel would load: {@code file} is the target or the
     * interpreter of its {@code #!} line; {@code staticLinked} and {@code go} hold for ELF files only.
     */
    public record Findings(Path file, boolean setuid, boolean staticLinked, boolean go) {
        static final Findings NOTHING = new Findings(null, false, false, false);

        /** One warning line per way the preload cannot reach the file. */
        public List<String> warnings() {
            List<String> out = new ArrayList<>();
            if (setuid) {
                out.add("weft run: warning: " + file + " is setuid/setgid; the loader ignores LD_PRELOAD, so it runs"
                        + " unsimulated");
            }
            if (staticLinked) {
                out.add("weft run: warning: " + file + " is statically linked; LD_PRELOAD cannot reach it, so it"
                        + " runs unsimulated");
            }
            if (go) {
                out.add("weft run: warning: " + file + " is a Go binary; Go makes its own system calls, so clocks,"
                        + " randomness and goroutine scheduling escape the shim");
            }
            return out;
        }
    }

    public static List<String> warnings(Path program) {
        return inspect(program).warnings();
    }

    public static Findings inspect(Path program) {
        Path p = program;
        try {
            String interp = scriptInterpreter(p);
            if (interp != null) {
                p = Path.of(interp);
            }
            if (!Files.isRegularFile(p)) {
                return Findings.NOTHING;
            }
            Object mode = Files.getAttribute(p, "unix:mode");
            boolean setuid = mode instanceof Integer m && (m & 06000) != 0;
            return inspectElf(p, setuid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            // unreadable or unusual files: nothing to warn about with certainty
            return Findings.NOTHING;
        }
    }

    private static String scriptInterpreter(Path p) throws IOException {
        if (!Files.isRegularFile(p)) {
            return null;
        }
        byte[] head = new byte[256];
        int n;
        try (var in = Files.newInputStream(p)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (n < 3 || head[0] != '#' || head[1] != '!') {
            return null;
        }
        String line = new String(head, 2, n - 2, StandardCharsets.ISO_8859_1).split("\n", 2)[0].strip();
        String first = line.split("\\s+", 2)[0];
        return first.isEmpty() ? null : first;
    }

    private static Findings inspectElf(Path p, boolean setuid) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            ByteBuffer eh = read(ch, 0, 64);
            if (eh.remaining() < 64 || eh.getInt(0) != 0x464c457f || eh.get(4) != 2) {
                return new Findings(p, setuid, false, false); // not a 64-bit ELF file
            }
            long phoff = eh.getLong(32);
            long shoff = eh.getLong(40);
            int phentsize = Short.toUnsignedInt(eh.getShort(54));
            int phnum = Short.toUnsignedInt(eh.getShort(56));
            int shentsize = Short.toUnsignedInt(eh.getShort(58));
            int shnum = Short.toUnsignedInt(eh.getShort(60));
            int shstrndx = Short.toUnsignedInt(eh.getShort(62));
            boolean hasInterp = false;
            ByteBuffer ph = read(ch, phoff, phentsize * phnum);
            for (int i = 0; i < phnum && (i + 1) * phentsize <= ph.limit(); i++) {
                if (ph.getInt(i * phentsize) == 3) { // PT_INTERP
                    hasInterp = true;
                }
            }
            return new Findings(p, setuid, !hasInterp, isGo(ch, shoff, shentsize, shnum, shstrndx));
        }
    }

    private static boolean isGo(FileChannel ch, long shoff, int shentsize, int shnum, int shstrndx) throws IOException {
        if (shoff == 0 || shnum == 0 || shstrndx >= shnum || shentsize < 64) {
            return false;
        }
        ByteBuffer sh = read(ch, shoff, shentsize * shnum);
        if (sh.limit() < shentsize * shnum) {
            return false;
        }
        long strOff = sh.getLong(shstrndx * shentsize + 24);
        long strSize = sh.getLong(shstrndx * shentsize + 32);
        ByteBuffer names = read(ch, strOff, (int) Math.min(strSize, 1 << 20));
        for (int i = 0; i < shnum; i++) {
            int nameOff = sh.getInt(i * shentsize);
            String name = cString(names, nameOff);
            if (name.equals(".go.buildinfo") || name.equals(".gopclntab") || name.equals(".note.go.buildid")) {
                return true;
            }
        }
        return false;
    }

    private static String cString(ByteBuffer b, int off) {
        StringBuilder sb = new StringBuilder();
        for (int i = off; i >= 0 && i < b.limit() && b.get(i) != 0; i++) {
            sb.append((char) b.get(i));
        }
        return sb.toString();
    }

    private static ByteBuffer read(FileChannel ch, long pos, int len) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(Math.max(0, len)).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            int n = ch.read(b, pos + b.position());
            if (n < 0) {
                break;
            }
        }
        b.flip();
        return b;
    }
}
