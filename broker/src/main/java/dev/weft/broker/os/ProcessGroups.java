package dev.weft.broker.os;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * Signals a whole process group — what a terminal's Ctrl-C does — which {@link ProcessHandle} cannot (it only
 * signals one pid). A node is started as the leader of its own group (see the launcher), so {@code kill(-pid)}
 * reaches everything it forked. Uses libc through JNA; when that is unavailable the caller falls back to killing
 * the process and its known descendants one by one.
 */
public final class ProcessGroups {
    public static final int SIGINT = 2;
    public static final int SIGKILL = 9;
    public static final int SIGTERM = 15;

    private interface LibC extends Library {
        int kill(int pid, int sig);

        int getpgid(int pid);
    }

    private static final LibC LIBC = load();

    private ProcessGroups() {
    }

    private static LibC load() {
        try {
            return Native.load("c", LibC.class);
        } catch (LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** True when process groups can be signalled on this platform. */
    public static boolean available() {
        return LIBC != null;
    }

    /** The process group of pid, or -1 if unknown (no such process, or no libc). */
    public static long groupOf(long pid) {
        return LIBC == null ? -1 : LIBC.getpgid((int) pid);
    }

    /** Sends sig to every process of group pgid; false if nothing could be signalled. */
    public static boolean signalGroup(long pgid, int sig) {
        if (LIBC != null && pgid > 1) {
            return LIBC.kill((int) -pgid, sig) == 0;
        }
        return false;
    }

    /** Sends sig to one process; false if it could not be signalled. */
    public static boolean signal(long pid, int sig) {
        return LIBC != null && pid > 1 && LIBC.kill((int) pid, sig) == 0;
    }

    /** Kills the group led by p (or, without libc, p and its descendants). */
    public static void killTree(ProcessHandle p) {
        if (!(available() && groupOf(p.pid()) == p.pid() && signalGroup(p.pid(), SIGKILL))) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
