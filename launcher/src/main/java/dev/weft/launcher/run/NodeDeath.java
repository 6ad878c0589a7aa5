package dev.weft.launcher.run;

/**
 * The one line for a node that a signal ended without the run asking (a kill -9 from outside, a crash): on Linux
 * a process ended by signal N reports status 128 + N, which is how its death is told from an exit.
 */
final class NodeDeath {
    private static final String[] NAMES = {null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
            "SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM",
            "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
            "SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS"};

    private NodeDeath() {
    }

    /** The signal's name for a status 128 + N (SIGRTMIN+K for real-time signals), or null for an exit. */
    static String signalOf(int status) {
        int sig = status - 128;
        if (sig <= 0 || sig > 64) {
            return null;
        }
        return sig < NAMES.length ? NAMES[sig] : "SIGRTMIN+" + (sig - 34);
    }

    /** The line for node {@code id} ended with {@code status}, or null if that is an exit and not a signal. */
    static String line(long id, int status) {
        String sig = signalOf(status);
        return sig == null ? null : "weft run: node " + id + " was killed by " + sig + " (status " + status
                + "), not by the run; the other nodes go on until they end or the watchdog stops the run";
    }
}
