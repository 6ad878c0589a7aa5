package dev.weft.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One in-process run of a command with its standard output and error captured as UTF-8 text. */
public record CapturedRun(int code, String out, String err) {

    /** A command writing to the two given streams and returning its exit code. */
    @FunctionalInterface
    public interface Command {
        int run(PrintStream out, PrintStream err);
    }

    public static CapturedRun of(Command command) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = command.run(o, e);
        }
        return new CapturedRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
