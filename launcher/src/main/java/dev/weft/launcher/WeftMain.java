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
        int code = run(args);
        if (code == 0 && noOtherUserThreads()) {
            // Returning lets the JVM exit 0 the ordinary way (shutdown hooks run as with System.exit). Why not always
            // System.exit: since JDK 21, Runtime.exit asks the platform logging for a "java.lang.Runtime" logger first,
            // which looks for logger services on the class path by opening every jar there; on the installed package
            // that was about half the CPU time of `weft --help` (docs/benchmarks.md, "Start-up").
            return;
        }
        System.exit(code);
    }

    /** Runs one {@code weft} command line on the process's stdout/stderr (UTF-8) and returns its exit code. */
    static int run(String[] args) {
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
        return code;
    }

    /**
     * True if no thread other than this one would keep the JVM alive after {@code main} returns (a command that left
     * a worker running still ends here, as System.exit always ended it).
     */
    static boolean noOtherUserThreads() {
        Thread self = Thread.currentThread();
        Thread[] threads = new Thread[Thread.activeCount() + 8];
        int n = Thread.enumerate(threads);
        if (n == threads.length) {
            return false; // more threads than we could list: do not guess
        }
        for (int i = 0; i < n; i++) {
            Thread t = threads[i];
            if (t != self && t.isAlive() && !t.isDaemon()) {
                return false;
            }
        }
        return true;
    }
}
