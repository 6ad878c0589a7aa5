package dev.weft.app.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads a child process's output streams line by line, each on a daemon thread of its own, so that the session that
 * started the process can wait for the last lines once it has ended. Used by the run and the shrink sessions.
 */
public final class OutputPumps {
    private final List<Thread> threads = new ArrayList<>();

    /** Starts reading in (UTF-8) on a thread named name, handing each line to onLine until the stream ends. */
    public void start(InputStream in, String name, Consumer<String> onLine) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    onLine.accept(l);
                }
            } catch (IOException e) {
                // the process is gone: its last lines were read
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Once the process has ended: waits (up to 2 s each) for the pumps to hand over the lines still buffered. */
    public void drain() throws InterruptedException {
        for (Thread t : threads) t.join(2000);
    }
}
