package dev.weft.app.fuzz;

import dev.weft.app.vm.Settings;
import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the fuzz panel shows and does, without the toolkit: the config file and its text (checked as typed by the
 * engine's own loader), the seed, job and output overrides, one run at a time ({@link FuzzSession}) with its progress,
 * and the finished run's result. The sweep's threads hand their news to {@code ui} (Platform::runLater in the
 * workbench); the counts shown while sweeping are progress, the result comes from the finished run only.
 */
public final class FuzzViewModel {

    /** The config's text, as in the editor. */
    public final StringProperty configText = new SimpleStringProperty(this, "configText", "");
    /** {@code START:COUNT}; empty: the config's. */
    public final StringProperty seeds = new SimpleStringProperty(this, "seeds", "");
    /** A job count; empty: the config's. */
    public final StringProperty jobs = new SimpleStringProperty(this, "jobs", "");
    /** Where reproducers and report.txt go. */
    public final StringProperty outDir = new SimpleStringProperty(this, "outDir", "");

    private final ReadOnlyStringWrapper configPath = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper configError = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper optionsError = new ReadOnlyStringWrapper("");
    private final ReadOnlyObjectWrapper<FuzzConfig> config = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyStringWrapper progressText = new ReadOnlyStringWrapper("not started");
    private final ReadOnlyObjectWrapper<FuzzSession.Result> result = new ReadOnlyObjectWrapper<>();
    private final BooleanBinding canStart;

    private final Settings settings;
    private final Consumer<Runnable> ui;
    private final Consumer<Path> openRecording;
    private volatile FuzzSession session;

    public FuzzViewModel(Settings settings, Consumer<Runnable> ui, Consumer<Path> openRecording) {
        this.settings = settings;
        this.ui = ui;
        this.openRecording = openRecording;
        configText.addListener(o -> validate());
        for (StringProperty f : new StringProperty[] {seeds, jobs, outDir}) f.addListener(o -> validate());
        canStart = Bindings.createBooleanBinding(() -> !running.get() && config.get() != null
                && optionsError.get().isEmpty(), running, config, optionsError);
        String last = settings.get("fuzz.config", "");
        if (!last.isEmpty() && Files.isRegularFile(Path.of(last))) load(Path.of(last));
        else validate();
    }

    /** Loads a config file into the editor; the output folder defaults to {@link #defaultOutDir}. */
    public void load(Path file) {
        try {
            // bounded like weft fuzz's own read: /dev/zero or a huge file is a message, not a frozen window
            String text = new String(dev.weft.io.BoundedFiles.read(file, dev.weft.fuzz.FuzzConfigLoader.MAX_CONFIG_BYTES),
                    StandardCharsets.UTF_8);
            configPath.set(file.toAbsolutePath().toString());
            configText.set(text);
            validate();
            outDir.set(defaultOutDir(file, config.get()).toString());
            settings.put("fuzz.config", file.toAbsolutePath().toString());
        } catch (IOException e) {
            configError.set("cannot read " + file + ": " + dev.weft.text.OsErrorText.of(e));
        }
    }

    /** Writes the editor's text to {@code target} (the view asks where when there is no config file yet). */
    public void save(Path target) {
        try {
            Files.writeString(target, configText.get(), StandardCharsets.UTF_8);
            configPath.set(target.toAbsolutePath().toString());
            settings.put("fuzz.config", target.toAbsolutePath().toString());
        } catch (IOException e) {
            configError.set("✗ cannot write " + target + ": " + e.getMessage());
        }
    }

    /**
     * Where a config's reproducers go unless the form says otherwise: its out_dir when that is absolute, otherwise a
     * folder of its own under ~/weft-fuzz named after the config ("sample-weft-fuzz-out"), never beside the config:
     * a config read from the source tree (examples/) must not fill the source tree.
     */
    static Path defaultOutDir(Path config, FuzzConfig c) {
        String out = c != null ? c.outDir() : FuzzConfig.DEFAULT_OUT_DIR;
        if (Path.of(out).isAbsolute()) return Path.of(out).normalize();
        String stem = config.getFileName().toString().replaceFirst("\\.json$", "");
        return Path.of(System.getProperty("user.home"), "weft-fuzz", stem + "-" + Path.of(out).getFileName()).normalize();
    }

    /** Overrides: {@code START:COUNT} (empty: the config's), jobs (empty: the config's), the output folder. */
    public void setOptions(String seedRange, String jobCount, Path out) {
        seeds.set(seedRange);
        jobs.set(jobCount);
        outDir.set(out.toString());
    }

    private void validate() {
        try {
            if (configText.get().isBlank()) {
                // The loader's words for no input ("EOF while parsing … column 0") say nothing to a person.
                config.set(null);
                configError.set("✗ the config is empty: open one (Open config…) or write one here, e.g. examples/fuzz/sample.json");
            } else {
                config.set(FuzzSession.parse(configText.get()));
                configError.set("");
            }
        } catch (FuzzConfigException e) {
            config.set(null);
            configError.set("✗ " + e.getMessage());
        }
        String opt = optionsProblem();
        optionsError.set(opt == null ? "" : "✗ " + opt);
    }

    private String optionsProblem() {
        String s = seeds.get().strip();
        if (!s.isEmpty() && !s.matches("[0-9]{1,19}:[0-9]{1,19}")) return "seeds \"" + s + "\": expected START:COUNT, e.g. 0:1000";
        String j = jobs.get().strip();
        if (!j.isEmpty() && !j.matches("[0-9]{1,3}")) return "jobs \"" + j + "\": expected a count";
        if (outDir.get().isBlank()) return "an output folder for the reproducers";
        return null;
    }

    /** Starts a run of the editor's config (nothing while one runs or the form has a problem). */
    public void start() {
        if (!canStart.get()) return;
        FuzzConfig c = config.get();
        Long seedStart = null;
        Long seedCount = null;
        String s = seeds.get().strip();
        if (!s.isEmpty()) {
            seedStart = Long.parseUnsignedLong(s.substring(0, s.indexOf(':')));
            seedCount = Long.parseUnsignedLong(s.substring(s.indexOf(':') + 1));
        }
        Long j = jobs.get().isBlank() ? null : Long.parseLong(jobs.get().strip());
        Path out = Path.of(outDir.get().strip()).toAbsolutePath();
        running.set(true);
        result.set(null);
        progress.set(0);
        progressText.set("starting…");
        long t0 = System.nanoTime();
        FuzzSession fs = new FuzzSession();
        session = fs;
        fs.start(c, out, seedStart, seedCount, j, new FuzzSession.Listener() {
            // called per seed from the sweep's workers: keep only the latest figures and have at most one update
            // waiting on the UI thread, however fast seeds are done
            private final AtomicReference<long[]> latest = new AtomicReference<>();

            @Override public void sweeping(long tested, long queued, long failing) {
                if (latest.getAndSet(new long[] {tested, queued, failing}) != null) return;
                ui.accept(() -> {
                    long[] v = latest.getAndSet(null);
                    if (!running.get() || v == null || !progressText.get().matches("starting…|sweeping.*")) return;
                    progress.set(v[1] == 0 ? 1 : (double) v[0] / v[1]);
                    progressText.set(String.format(Locale.ROOT, "sweeping: %,d / %,d seeds · %,d failing · %s",
                            v[0], v[1], v[2], elapsed(t0)));
                });
            }

            @Override public void swept(long tested, long failing, int distinct) {
                ui.accept(() -> {
                    progress.set(distinct == 0 ? 1 : 0);
                    progressText.set(String.format(Locale.ROOT, "swept %,d seeds · %,d failing · %d distinct violation(s)%s",
                            tested, failing, distinct, distinct > 0 ? " · shrinking…" : ""));
                });
            }

            @Override public void shrunk(int done, int of) {
                ui.accept(() -> {
                    progress.set(of == 0 ? 1 : (double) done / of);
                    progressText.set("shrinking: " + done + " / " + of + " violation(s) shrunk · " + elapsed(t0));
                });
            }

            @Override public void finished(FuzzSession.Result r, String message) {
                ui.accept(() -> ended(r, message));
            }
        });
    }

    /** Stops the sweep at its next seed; the run ends as cancelled and writes nothing more. */
    public void cancel() {
        FuzzSession s = session;
        if (s != null && running.get()) {
            progressText.set("cancelling…");
            s.cancel();
        }
    }

    private void ended(FuzzSession.Result r, String message) {
        running.set(false);
        session = null;
        if (r == null) {
            progress.set(0);
            progressText.set(message);
        } else {
            progress.set(1);
            progressText.set(String.format(Locale.ROOT, "done: %,d seeds swept (%s to %s) · %,d failing · %d distinct violation(s)%s%s",
                    r.tested(), Long.toUnsignedString(r.seedStart()), Long.toUnsignedString(r.seedStart() + r.seedCount() - 1),
                    r.failing(), r.findings().size(), r.budgetHit() ? " · time budget hit" : "",
                    message == null ? " · report.txt in " + r.outDir() : " · " + message));
        }
        result.set(r);
        validate();
    }

    /** Opens a finding's reproducer in the main window (nothing when it has none). */
    public void openReproducer(FuzzSession.Finding f) {
        if (f != null && f.reproducer() != null) openRecording.accept(f.reproducer());
    }

    /** The finished run's failing seeds as the "Failing seeds" tab shows them. */
    public static String failingSeedsText(FuzzSession.Result r) {
        return r.failingSeeds().isEmpty() ? "none" : seedList(r.failingSeeds(), Integer.MAX_VALUE);
    }

    /** Shrunk size as a percentage of the original, one decimal (a string that sorts as the number does). */
    public static String ratio(FuzzSession.Finding f) {
        return f.opsBefore() == 0 ? "–" : String.format(Locale.ROOT, "%5.1f %%", 100.0 * f.opsAfter() / f.opsBefore());
    }

    /** Up to {@code max} seeds, comma-separated, then how many there are in all. */
    public static String seedList(List<Long> s, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.size() && i < max; i++) sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(s.get(i)));
        if (s.size() > max) sb.append(", … (").append(s.size()).append(" in all)");
        return sb.toString();
    }

    /** Progress words only (never in a result): how long the run has taken so far. */
    private static String elapsed(long t0) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
    }

    public ReadOnlyStringProperty configPath() { return configPath.getReadOnlyProperty(); }
    public ReadOnlyStringProperty configError() { return configError.getReadOnlyProperty(); }
    public ReadOnlyStringProperty optionsError() { return optionsError.getReadOnlyProperty(); }
    /** The config the editor's text parses to, or null while it has an error. */
    public ReadOnlyObjectProperty<FuzzConfig> config() { return config.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty running() { return running.getReadOnlyProperty(); }
    /** From 0 to 1 within the current phase (sweep, then shrink). */
    public ReadOnlyDoubleProperty progress() { return progress.getReadOnlyProperty(); }
    public ReadOnlyStringProperty progressText() { return progressText.getReadOnlyProperty(); }
    /** The last finished run's result (null before one finished, or after a cancel). */
    public ReadOnlyObjectProperty<FuzzSession.Result> result() { return result.getReadOnlyProperty(); }
    public BooleanBinding canStart() { return canStart; }
}
