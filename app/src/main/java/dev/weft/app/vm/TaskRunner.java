package dev.weft.app.vm;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Where view models run slow work and where they publish results. The application uses a background
 * thread and Platform::runLater; tests use {@link #direct()} so everything happens synchronously.
 */
public interface TaskRunner {

    void background(Runnable work);

    void ui(Runnable update);

    /**
     * Long work (seconds) that must not hold up the one worker's queue of short reads, e.g. the search index of a
     * big recording: its own thread in the application, the caller's thread in tests.
     */
    default void aside(Runnable work) { background(work); }

    static TaskRunner direct() {
        return new TaskRunner() {
            @Override public void background(Runnable work) { work.run(); }
            @Override public void ui(Runnable update) { update.run(); }
        };
    }

    /** A single daemon worker thread (work is serialized, so results arrive in submission order). */
    static TaskRunner of(Consumer<Runnable> uiExecutor) {
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "workbench-worker");
            t.setDaemon(true);
            return t;
        });
        return new TaskRunner() {
            @Override public void background(Runnable work) { worker.execute(work); }
            @Override public void ui(Runnable update) { uiExecutor.accept(update); }
            @Override public void aside(Runnable work) {
                Thread t = new Thread(work, "workbench-aside");
                t.setDaemon(true);
                t.setPriority(Thread.NORM_PRIORITY - 1);   // the UI and the worker's short reads come first
                t.start();
            }
        };
    }
}
