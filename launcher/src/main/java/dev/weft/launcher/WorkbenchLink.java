package dev.weft.launcher;

import java.io.PrintStream;
import java.lang.reflect.Method;

/**
 * {@code weft workbench}: the desktop app sits above the launcher in the dependency picture, so the launcher finds
 * it at run time (present when started from the app's class path, as the {@code weft} script does) instead of
 * depending on it.
 */
final class WorkbenchLink {

    static final String MAIN = "dev.weft.app.WorkbenchMain";

    private WorkbenchLink() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Method run;
        try {
            run = Class.forName(MAIN).getMethod("run", String[].class);
        } catch (ReflectiveOperationException e) {
            err.print("weft workbench: the desktop workbench is not on this class path; start it with the 'weft' script"
                    + " of a source checkout (./weft workbench LOG), which builds the app module.\n");
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
