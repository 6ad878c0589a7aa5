package dev.weft.launcher;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Entry point of the {@code weft} command: sets up UTF-8 output and hands over to {@link WeftCli}. */
public final class WeftMain {

    private WeftMain() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int code;
        try {
            code = WeftCli.run(args, out, err);
        } finally {
            out.flush();
            err.flush();
        }
        System.exit(code);
    }
}
