package dev.weft.testsupport;

import java.io.FilePermission;
import java.net.SocketPermission;
import java.security.Permission;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Assumptions;

/**
 * Records, without refusing anything, every file access, program start and socket use the JVM performs while a
 * block runs, through a permissive SecurityManager (Java 17 still lets a program install one; newer runtimes that
 * refuse make the calling test abort as skipped, saying why).
 */
public final class AccessWatcher extends SecurityManager {

    private final List<String> files = Collections.synchronizedList(new ArrayList<>());
    private final List<String> programs = Collections.synchronizedList(new ArrayList<>());
    private final List<String> sockets = Collections.synchronizedList(new ArrayList<>());

    /** Runs the block under a fresh watcher and returns the watcher with what it saw. */
    @SuppressWarnings("removal")
    public static AccessWatcher watch(Callable<?> block) throws Exception {
        AccessWatcher w = new AccessWatcher();
        try {
            System.setSecurityManager(w);
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("this Java runtime cannot install a SecurityManager to observe file access: " + e.getMessage());
        }
        try {
            block.call();
        } finally {
            System.setSecurityManager(null);
        }
        return w;
    }

    @Override
    public void checkPermission(Permission p) {
        if (p instanceof FilePermission) {
            if (p.getActions().contains("execute")) programs.add(p.getName());
            else files.add(p.getActions() + " " + p.getName());
        } else if (p instanceof SocketPermission) {
            sockets.add(p.getActions() + " " + p.getName());
        }
    }

    @Override
    public void checkPermission(Permission p, Object context) {
        checkPermission(p);
    }

    @Override
    public void checkExec(String cmd) {
        programs.add(cmd);
    }

    /** "action path" for every file access, in order. */
    public List<String> files() {
        synchronized (files) {
            return List.copyOf(files);
        }
    }

    /** Programs started (or checked for execution). */
    public List<String> programs() {
        synchronized (programs) {
            return List.copyOf(programs);
        }
    }

    public List<String> sockets() {
        synchronized (sockets) {
            return List.copyOf(sockets);
        }
    }
}
