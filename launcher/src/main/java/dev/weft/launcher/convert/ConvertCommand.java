package dev.weft.launcher.convert;

import dev.weft.export.PerfettoTrace;
import dev.weft.log.WeftLogException;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * {@code weft convert LOG --to perfetto OUT.json}: the recording as Trace Event JSON for the Perfetto UI
 * (ui.perfetto.dev, "Open trace file") or chrome://tracing. Exit 0 written, 1 unreadable log or unwritable
 * output, 2 usage. The output is written to a temporary file beside OUT and moved into place, so a failed
 * conversion never leaves half a trace.
 */
public final class ConvertCommand {

    public static final String USAGE = "usage: weft convert <recording.weftlog> --to perfetto <OUT.json>\n";

    private ConvertCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        String log = null, to = null, file = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                out.print(USAGE + "  writes a track per node, a flow from each send to its delivery and the violations as instant events\n");
                return 0;
            } else if (a.equals("--to")) {
                if (i + 1 >= args.length) return usage(err, "--to needs a format (perfetto)");
                to = args[++i];
            } else if (a.startsWith("--to=")) {
                to = a.substring(5);
            } else if (a.startsWith("-") && !a.equals("-")) {
                return usage(err, "unknown option " + a);
            } else if (log == null) {
                log = a;
            } else if (file == null) {
                file = a;
            } else {
                return usage(err, "unexpected argument \"" + a + "\"");
            }
        }
        if (log == null || file == null) return usage(err, "needs a recording and an output file");
        if (to == null) return usage(err, "say which format with --to perfetto");
        if (!to.equals("perfetto")) return usage(err, "unknown format \"" + to + "\" (supported: perfetto)");
        Path in = Path.of(log);
        if (!Files.isRegularFile(in)) {
            err.print("weft convert: " + log + ": " + (Files.exists(in) ? "not a regular file" : "no such file") + "\n");
            return 1;
        }
        Path target = Path.of(file).toAbsolutePath();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".part");
            PerfettoTrace.Summary s;
            try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                s = PerfettoTrace.write(in, o);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            out.print("wrote " + file + ": " + s.records() + " records on " + s.tracks() + " tracks, " + s.flows() + " flows, "
                    + s.violations() + " violation(s); open it at https://ui.perfetto.dev\n");
            return 0;
        } catch (WeftLogException e) {
            err.print("weft convert: " + log + ": " + e.getMessage() + "\n");
            return 1;
        } catch (IOException e) {
            err.print("weft convert: cannot write " + file + ": " + e.getMessage() + "\n");
            return 1;
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // Best effort: the temporary file sits beside the output and says what it is.
                }
            }
        }
    }

    private static int usage(PrintStream err, String why) {
        err.print("weft convert: " + why + "\n" + USAGE);
        return 2;
    }
}
