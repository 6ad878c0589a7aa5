package dev.weft.app;

import javafx.application.Application;

import java.io.PrintStream;
import java.nio.file.Files;

/**
 * Entry point of `weft workbench` (not an Application subclass, so it starts from a plain jar on the
 * class path). Checks the command line and the display before any JavaFX class loads.
 */
public final class WorkbenchMain {

    /**
     * JavaFX warns "Unsupported JavaFX configuration" when started from the class path, which is how the plain-jar
     * launch works on purpose; held strongly so the level sticks.
     */
    private static final java.util.logging.Logger JAVAFX_LOG = java.util.logging.Logger.getLogger("javafx");

    private WorkbenchMain() { }

    /** For the launcher's {@code weft workbench}, which finds this class at run time (the app sits above it). */
    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        System.exit(code);
    }

    /** Runs the workbench and returns the process exit code (0 ok, 1 cannot run / cannot open, 2 usage). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Headless.hasDisplay());
    }

    static int run(String[] args, PrintStream out, PrintStream err, boolean display) {
        try {
            return launch(LaunchOptions.parse(args), out, err, display);
        } catch (LaunchOptions.UsageException e) {
            err.println("weft workbench: " + e.getMessage());
            err.println(LaunchOptions.USAGE);
            return 2;
        }
    }

    /** Acts on a parsed command line: help, or the file checked and the workbench (or a tool) launched. */
    private static int launch(LaunchOptions o, PrintStream out, PrintStream err, boolean display) {
        if (o.help()) {
            out.println(LaunchOptions.USAGE);
            return 0;
        }
        if (o.tool() != null && o.file() != null) {
            boolean folder = o.tool().equals("campaign");
            if (folder ? !Files.isDirectory(o.file()) : !Files.isRegularFile(o.file())) {
                err.println("weft workbench: " + o.file() + ": " + (!Files.exists(o.file()) ? "no such file"
                        : folder ? "not a folder (--tool campaign opens a weft campaign output folder)" : "not a regular file"));
                return 1;
            }
        } else if (o.file() != null && !Files.isRegularFile(o.file()) && !dev.weft.app.source.RunDirectorySource.isRunDirectory(o.file())) {
            err.println("weft workbench: " + o.file() + ": " + (Files.exists(o.file()) ? "not a regular file" : "no such file"));
            return 1;
        }
        if (o.screenshot() != null) {
            if (!display) Headless.useMonocle(o.width(), o.height());
        } else if (!display) {
            err.println("weft workbench: no display available (DISPLAY is not set), so the window cannot open.");
            err.println("  Without a display use:  weft replay " + (o.file() == null ? "FILE" : o.file()) + " --check fifo,dup");
            err.println("  or render the workbench to an image:  weft workbench "
                    + (o.file() == null ? "FILE" : o.file()) + " --screenshot OUT.png");
            return 1;
        }
        JAVAFX_LOG.setLevel(java.util.logging.Level.SEVERE);
        WorkbenchApp.options = o;
        Application.launch(WorkbenchApp.class);
        return WorkbenchApp.exitCode;
    }
}
