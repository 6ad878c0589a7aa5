package dev.weft.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code weft workbench}: the desktop app sits above the launcher in the dependency picture, so the launcher finds
 * it at run time (present when started from the app's class path, as the {@code weft} script and the installed
 * packages do) instead of depending on it.
 */
final class WorkbenchLink {

    static final String MAIN = "dev.weft.app.WorkbenchMain";
    static final String OPTIONS = "dev.weft.app.LaunchOptions";

    /** The app's help when the app is not on the class path (same options as dev.weft.app.LaunchOptions). */
    static final String FALLBACK_USAGE = "usage: weft workbench [FILE] [--follow] [--until N] [--compare B] [--screenshot OUT.png] [--size WxH]\n"
            + "       weft workbench --tool run|fuzz|campaign [FILE] [--screenshot OUT.png] [--size WxH] [-- RUN-ARGS]\n"
            + "  FILE              a .weftlog or .weftlog.gz recording (or a weft vm run directory) to open\n"
            + "  --follow          FILE is still being written (weft run --record): show it as it grows\n"
            + "  --until N         open at op N (default: the first violation, else op 0)\n"
            + "  --compare B       compare FILE with recording B, aligned by op, at their first divergence\n"
            + "  --screenshot OUT  render one frame to OUT (PNG) and exit; works without a display\n"
            + "  --size WxH        window size (default 1400x900)\n"
            + "  --tool T          open the run, fuzz or campaign tool window; with --screenshot, render it instead:\n"
            + "                    run: `weft run` RUN-ARGS after `--` fill the form; the run is started and shown ended\n"
            + "                    fuzz: FILE is a fuzz config, run to the end (output in a temporary folder)\n"
            + "                    campaign: FILE is a `weft campaign` output folder\n";

    private WorkbenchLink() {
    }

    /**
     * In an installed package, the desktop launcher next to this one ({@code jpackage.app-path} is set by the
     * package's launchers). The command-line launcher starts without JavaFX's module options so that its start-up
     * can use the archived module graph; the workbench runs in its own launcher, which has them.
     */
    static Path installedWorkbench() {
        String self = System.getProperty("jpackage.app-path");
        if (self == null) {
            return null;
        }
        Path here = Path.of(self);
        String name = here.getFileName().toString().endsWith(".exe") ? "weft-workbench.exe" : "weft-workbench";
        Path gui = here.resolveSibling(name);
        return Files.isExecutable(gui) && !gui.equals(here) ? gui : null;
    }

    private static int runInstalled(Path gui, String[] args, PrintStream out, PrintStream err) {
        List<String> command = new ArrayList<>();
        command.add(gui.toString());
        command.addAll(Arrays.asList(args));
        out.flush();
        err.flush();
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            err.print("weft workbench: cannot start " + gui + ": " + e.getMessage() + "\n");
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** The workbench's help text: the app's own when it is present. */
    static String usage() {
        try {
            Object text = Class.forName(OPTIONS).getField("USAGE").get(null);
            return text + "\n";
        } catch (ReflectiveOperationException | ClassCastException e) {
            return FALLBACK_USAGE;
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path gui = installedWorkbench();
        if (gui != null) {
            return runInstalled(gui, args, out, err);
        }
        Method run;
        try {
            run = Class.forName(MAIN).getMethod("run", String[].class);
        } catch (ReflectiveOperationException e) {
            if (WeftCommand.WORKBENCH.helpRequested(args)) {
                out.print(FALLBACK_USAGE);
                return 0;
            }
            err.print("weft workbench: the desktop workbench is not on this class path; start it with the 'weft' script"
                    + " of a source checkout (./weft workbench LOG), which builds the app module, or from an installed"
                    + " package.\n");
            return 1;
        }
        out.flush();
        try {
            return (Integer) run.invoke(null, (Object) args);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            err.print("weft workbench: " + cause + "\n");
            return 1;
        }
    }
}
