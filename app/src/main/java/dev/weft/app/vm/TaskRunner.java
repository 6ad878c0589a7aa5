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
        };
    }
}
