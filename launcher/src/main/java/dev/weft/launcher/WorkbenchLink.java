package dev.weft.launcher;

import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * {@code weft workbench}: the desktop app sits above the launcher in the dependency picture, so the launcher finds
 * it at run time (present when started from the app's class path, as the {@code weft} script and the installed
 * packages do) instead of depending on it.
 */
final class WorkbenchLink {

    static final String MAIN = "dev.weft.app.WorkbenchMain";
    static final String OPTIONS = "dev.weft.app.LaunchOptions";

    /** The app's help when the app is not on the class path (same options as dev.weft.app.LaunchOptions). */
    static final String FALLBACK_USAGE = "usage: weft workbench [FILE] [--until N] [--screenshot OUT.png] [--size WxH]\n"
            + "  FILE              a .weftlog or .weftlog.gz recording to open\n"
            + "  --until N         open at op N (default: the first violation, else op 0)\n"
            + "  --screenshot OUT  render one frame to OUT (PNG) and exit; works without a display\n"
            + "  --size WxH        window size (default 1400x900)\n";

    private WorkbenchLink() {
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
