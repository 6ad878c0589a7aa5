package dev.weft.app.bench;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.RecordingSource;
import dev.weft.app.view.MainWindow;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.Settings;
import dev.weft.app.vm.TaskRunner;
import dev.weft.app.vm.WorkbenchViewModel;
import dev.weft.timeline.TimelineView;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens the corpus' ~1M-record log in the real window (headless under Monocle when there is no display)
 * and prints: time to the first timeline paint, time until any op is reachable, frame times while
 * scrubbing at several zoom levels (p50/p99), go-to-op times, and heap after load. A main, not a test:
 *
 * <pre>
 * app/run-benchmark.sh [FILE]
 * </pre>
 * Without FILE: the reference corpus' large/bigflow-1m-fixed1000-s7.weftlog.gz when {@code -Dweft.shared.dir} names
 * it (the script passes {@code WEFT_SHARED_DIR}), else our own corpus' 2,726-op Chord log.
 * Figures include JVM warm-up effects (first run of every code path); say so when quoting them.
 */
public final class WorkbenchBenchmark {

    public static void main(String[] args) throws Exception {
        Path file = args.length > 0 ? Path.of(args[0])
                : System.getProperty("weft.shared.dir") != null
                        ? dev.weft.testcorpus.SharedCorpus.conformance().resolve("large/bigflow-1m-fixed1000-s7.weftlog.gz")
                        : dev.weft.testcorpus.OwnCorpus.dir().resolve("chord/chord-fix2-s3.weftlog");
        if (System.getenv("DISPLAY") == null) {
            System.setProperty("glass.platform", "Monocle");
            System.setProperty("monocle.platform", "Headless");
            System.setProperty("prism.order", "sw");
            System.setProperty("prism.text", "t2k");
            System.setProperty("headless.geometry", "1600x1000-32");
        }
        CompletableFuture<Void> started = new CompletableFuture<>();
        Platform.startup(() -> started.complete(null));
        started.get();
        Platform.setImplicitExit(false);

        TaskRunner runner = TaskRunner.of(Platform::runLater);
        WorkbenchViewModel vm = new WorkbenchViewModel(IndexedRecordingSource::open, runner, new Settings(null));
        CompletableFuture<MainWindow> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            MainWindow w = new MainWindow(vm);
            Stage stage = new Stage();
            Scene scene = w.createScene(1600, 1000);
            stage.setScene(scene);
            w.attach(stage);
            stage.show();
            shown.complete(w);
        });
        MainWindow window = shown.get();
        long heapBefore = usedHeapAfterGc();

        // Open, watching every pulse for the first painted timeline (the partial preview or the document's).
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        long[] firstPaint = {-1};
        long[] firstPreview = {-1};
        Platform.runLater(() -> vm.previewProperty().addListener((o, a, m) -> {
            if (m != null && firstPreview[0] < 0) firstPreview[0] = System.nanoTime() - t0;
        }));
        // The progress bar: when it first moves, and the phases it names on the way.
        long[] firstProgress = {-1};
        java.util.Set<String> phases = new java.util.LinkedHashSet<>();
        Platform.runLater(() -> {
            vm.progressProperty().addListener((o, a, v) -> {
                if (v.doubleValue() > 0 && v.doubleValue() < 1 && firstProgress[0] < 0) firstProgress[0] = System.nanoTime() - t0;
            });
            vm.progressTextProperty().addListener((o, a, text) -> {
                if (text != null && text.contains(" — ")) phases.add(text.substring(0, text.indexOf(" — ")));
            });
        });
        CompletableFuture<DocumentViewModel> ready = new CompletableFuture<>();
        Platform.runLater(() -> {
            new AnimationTimer() {
                @Override
                public void handle(long now) {
                    TimelineView t = window.previewTimeline() != null ? window.previewTimeline()
                            : window.timeline();
                    if (t != null && t.frameCount() > 0 && firstPaint[0] < 0) {
                        firstPaint[0] = System.nanoTime() - t0;
                        stop();
                    }
                }
            }.start();
            vm.open(file, null, ready::complete);
        });
        DocumentViewModel doc = ready.get(10, TimeUnit.MINUTES);
        long reachable = System.nanoTime() - t0;
        long reachableCpu = os.getProcessCpuTime() - cpu0;   // on a loaded machine, the figure that compares
        RecordingSource src = doc.source();
        int n = src.size();
        Thread.sleep(200);
        long heapAfter = usedHeapAfterGc();
        // The search index: built on its own thread from the moment the log loaded (the heap above holds part of it);
        // wait for it, so the figures below do not share the CPU with it.
        CompletableFuture<dev.weft.app.vm.SearchIndex> indexed = new CompletableFuture<>();
        Platform.runLater(() -> doc.searchIndex().whenReady(indexed::complete));
        dev.weft.app.vm.SearchIndex searchIndex = indexed.get(10, TimeUnit.MINUTES);
        long indexReady = System.nanoTime() - t0;
        long heapWithIndex = usedHeapAfterGc();



        System.out.printf(Locale.ROOT, "file                     %s (%d records)%n", file, n);
        System.out.printf(Locale.ROOT, "first timeline paint     %.0f ms after open%s%n", firstPaint[0] / 1e6,
                firstPaint[0] < reachable ? " (partial preview while indexing)" : "");
        System.out.printf(Locale.ROOT, "first partial model      %.0f ms after open (published to the UI thread)%n", firstPreview[0] / 1e6);
        System.out.printf(Locale.ROOT, "any op reachable         %.0f ms after open (index built, checks done); %.0f ms CPU of this process, %.1f cores%n",
                reachable / 1e6, reachableCpu / 1e6, (double) reachableCpu / reachable);
        System.out.printf(Locale.ROOT, "progress bar first moved %.0f ms after open; phases shown: %s%n", firstProgress[0] / 1e6, phases);
        System.out.printf(Locale.ROOT, "heap after load          %.1f MB total, %.1f MB for the recording = %.0f bytes/record%n",
                heapAfter / 1e6, (heapAfter - heapBefore) / 1e6, (double) (heapAfter - heapBefore) / Math.max(1, n));
        System.out.printf(Locale.ROOT, "search index ready       %.0f ms after open (%.0f ms after the load), %.1f MB = %.1f bytes/record; heap now %.1f MB%n",
                indexReady / 1e6, (indexReady - reachable) / 1e6, searchIndex.bytesUsed() / 1e6,
                (double) searchIndex.bytesUsed() / Math.max(1, n), heapWithIndex / 1e6);
        System.out.printf(Locale.ROOT, "timeline model           %.1f MB = %.1f bytes/record%n",
                src.timeline().bytesUsed() / 1e6, (double) src.timeline().bytesUsed() / Math.max(1, n));

        // Scrubbing: the cursor moves every frame; the timeline follows it; time each repaint.
        TimelineView timeline = window.timeline();
        int[] spans = {n, 100_000, 10_000, 1_000, 100};
        for (int span : spans) {
            long[] paint = new long[240];
            long[] raster = new long[12];
            CompletableFuture<Void> done = new CompletableFuture<>();
            Platform.runLater(() -> {
                int from = Math.max(0, n / 2 - span / 2);
                timeline.showOps(from, from + span);
                for (int i = 0; i < paint.length; i++) {
                    doc.goTo(from + (long) i * Math.max(1, span / paint.length));
                    long s = System.nanoTime();
                    timeline.paintNow();
                    paint[i] = System.nanoTime() - s;
                }
                for (int i = 0; i < raster.length; i++) {
                    doc.step(1);
                    long s = System.nanoTime();
                    timeline.paintNow();
                    timeline.snapshot(null, null);
                    raster[i] = System.nanoTime() - s;
                }
                done.complete(null);
            });
            done.get(5, TimeUnit.MINUTES);
            System.out.printf(Locale.ROOT, "scrub, %9d ops shown  paint p50 %6.2f ms  p99 %6.2f ms  | with sw rasterization p50 %6.1f ms%n",
                    span, pct(paint, 50), pct(paint, 99), pct(raster, 50));
        }

        // Range selection over the whole log: the statistics the range bar shows (UI thread, as in the app).
        long[] rangeStats = new long[20];
        CompletableFuture<String> rangeText = new CompletableFuture<>();
        Platform.runLater(() -> {
            String first = null;
            for (int i = 0; i < rangeStats.length; i++) {
                long s = System.nanoTime();
                var st = dev.weft.app.vm.RangeViewModel.stats(doc, 0, n - 1);
                String text = dev.weft.app.vm.RangeViewModel.describe(st);
                rangeStats[i] = System.nanoTime() - s;
                if (i == 0) first = text;
            }
            rangeText.complete(first);   // after all runs: the figures below read every sample
        });
        String rt = rangeText.get(5, TimeUnit.MINUTES);
        System.out.printf(Locale.ROOT, "range stats, whole log    first %.1f ms  p50 %.2f ms  max %.2f ms  (%s)%n",
                rangeStats[0] / 1e6, pct(rangeStats, 50),
                Arrays.stream(rangeStats).max().orElse(0) / 1e6, rt.length() > 90 ? rt.substring(0, 90) + "…" : rt);

        // Go to op: what a jump costs until the record and its state are in hand.
        SplittableRandom rnd = new SplittableRandom(7);
        long[] go = new long[200];
        for (int i = 0; i < go.length; i++) {
            int op = rnd.nextInt(n);
            long s = System.nanoTime();
            src.record(op);
            src.stateAt(op);
            go[i] = System.nanoTime() - s;
        }
        System.out.printf(Locale.ROOT, "go to op (record + state) p50 %.2f ms  p99 %.2f ms  max %.2f ms%n",
                pct(go, 50), pct(go, 99), Arrays.stream(go).max().orElse(0) / 1e6);
        // Go to op as a person does it: the cursor moves, the timeline repaints at it (UI thread), then the record and
        // its state arrive (background).
        long[] goUi = new long[50];
        for (int i = 0; i < goUi.length; i++) {
            int op = rnd.nextInt(n);
            CompletableFuture<Long> t = new CompletableFuture<>();
            long s = System.nanoTime();
            Platform.runLater(() -> {
                doc.goTo(op);
                timeline.paintNow();
                t.complete(System.nanoTime());
            });
            t.get(1, TimeUnit.MINUTES);
            src.record(op);
            src.stateAt(op);
            goUi[i] = System.nanoTime() - s;
        }
        System.out.printf(Locale.ROOT, "go to op (cursor + repaint + record + state) p50 %.2f ms  p99 %.2f ms  max %.2f ms%n",
                pct(goUi, 50), pct(goUi, 99), Arrays.stream(goUi).max().orElse(0) / 1e6);

        // Search: the whole log for a word every send line holds, a payload's text, then for one nothing holds
        // (answered when the status stops saying "searching").
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        for (String query : new String[] {"send", "hello", "5000 seq 4242:", "no such text", "send"}) {
            CompletableFuture<dev.weft.app.vm.SearchViewModel> made = new CompletableFuture<>();
            Platform.runLater(() -> made.complete(new dev.weft.app.vm.SearchViewModel(doc,
                    new dev.weft.app.vm.FilterViewModel(doc, runner), runner)));
            dev.weft.app.vm.SearchViewModel search = made.get();
            java.util.List<String> progress = new java.util.concurrent.CopyOnWriteArrayList<>();
            CompletableFuture<String> answered = new CompletableFuture<>();
            long s = System.nanoTime();
            Platform.runLater(() -> {
                search.statusProperty().addListener((o, a, st) -> {
                    if (st.startsWith("searching… ")) progress.add(st);
                    else if (!st.isEmpty() && !st.startsWith("searching") && !st.startsWith("indexing")) answered.complete(st);
                });
                search.queryProperty().set(query);
                search.next();
            });
            String st = answered.get(10, TimeUnit.MINUTES);
            long wall = System.nanoTime() - s;
            System.out.printf(Locale.ROOT, "search \"%s\" over the whole log  %.0f ms  (%s; %d progress updates)%n",
                    query, wall / 1e6, st, progress.size());
            long c = cpu.getCurrentThreadCpuTime();
            long w = System.nanoTime();
            int[] direct = searchIndex.find(query, f -> { }, () -> false);
            System.out.printf(Locale.ROOT, "  the scan alone, on this thread: %.0f ms wall, %.0f ms CPU, %d ops%n",
                    (System.nanoTime() - w) / 1e6, (cpu.getCurrentThreadCpuTime() - c) / 1e6, direct.length);
        }
        System.out.println("targets: first paint <= 1000 ms, all ops reachable <= 2500 ms, scrub p99 frame <= 16 ms, "
                + "range stats for the whole log <= 100 ms, heap <= 200 bytes/record, go to op <= 200 ms, search <= 1000 ms");
        Platform.runLater(() -> src.close());
        Thread.sleep(300);
        Platform.exit();
        System.exit(0);
    }

    private static double pct(long[] nanos, int p) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        int i = (int) Math.ceil(p / 100.0 * s.length) - 1;
        return s[Math.max(0, Math.min(s.length - 1, i))] / 1e6;
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
