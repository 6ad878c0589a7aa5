package dev.weft.app.vm;

import dev.weft.app.run.LogTail;
import dev.weft.app.run.RunSession;
import dev.weft.app.source.PlanEdit;
import dev.weft.launcher.run.RunRecipe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * "What if?" on one datagram of a windowed recording (docs/workbench.md): the plan the recording followed with that
 * datagram dropped, at the baseline or delayed, written to a new file; the recording's own command
 * ({@link RunRecipe}, beside it) re-run live with it ({@code weft run --plan EDITED --record NEW …}, off the UI
 * thread, with progress and cancel); the new recording then handed on to be compared with this one. Nothing of the
 * user's is overwritten: the edited plan and the new recording get names no file has yet.
 */
public final class WhatIfViewModel {

    /** Where a what-if's edited plan and its recording go. */
    public record Outputs(Path plan, Path log) {
    }

    private final DocumentViewModel doc;
    private final TaskRunner runner;
    private final Map<String, String> env;
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(this, "running", false);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private BiConsumer<DocumentViewModel, Path> onRecorded = (d, p) -> { };
    private volatile RunSession session;
    private volatile boolean cancelled;

    public WhatIfViewModel(DocumentViewModel doc, TaskRunner runner, Map<String, String> env) {
        this.doc = doc;
        this.runner = runner;
        this.env = env;
    }

    /** Who compares the original with the new recording once it is written (on the UI thread). */
    public void setOnRecorded(BiConsumer<DocumentViewModel, Path> onRecorded) {
        this.onRecorded = onRecorded;
    }

    /** The datagram at op (a send, or the receive that delivered one), or null. */
    public PlanEdit.Datagram datagramAt(int op) {
        PlanEdit.Datagram d = PlanEdit.datagramAt(doc.source(), op);
        if (d == null && op >= 0 && op < doc.size()) {
            int partner = doc.timeline().partner(op);
            if (partner >= 0) d = PlanEdit.datagramAt(doc.source(), partner);
        }
        return d;
    }

    /** "datagram #3 a → b, delivered after 12.4 µs" (or ", dropped"): what the menu offers to change. */
    public String describe(PlanEdit.Datagram d) {
        return d.text() + (d.dropped() ? ", dropped" : ", delivered after " + PlanViewModel.Durations.ns(d.latencyNs()));
    }

    /** Why What if? cannot re-run from op, in a few words, or null when it can. */
    public String unavailable(int op) {
        if (running.get()) return "a what-if run is going";
        if (!System.getProperty("os.name", "").startsWith("Linux")) return "re-runs are live: Linux only";
        if (!doc.source().header().windowed()) return "only a windowed recording (--window) re-runs the same";
        if (doc.source().header().meta() != null && doc.source().header().meta().hosts() != null) {
            return "a run placed on host agents is not re-run from here";
        }
        if (!Files.isRegularFile(RunRecipe.of(doc.path()))) {
            return "no " + RunRecipe.of(doc.path()).getFileName() + " beside it: how it was made is unknown";
        }
        if (datagramAt(op) == null) return "not a datagram that was delivered or dropped";
        return null;
    }

    /** Re-runs with the datagram at op changed (extraNs: for DELAY, how much later than it was). */
    public void start(int op, PlanEdit.Change change, long extraNs) {
        PlanEdit.Datagram d = datagramAt(op);
        if (d == null || running.get()) return;
        running.set(true);
        cancelled = false;
        String what = d.text() + " " + switch (change) {
            case DROP -> "dropped";
            case BASELINE -> "at the baseline";
            case DELAY -> "delayed by " + PlanViewModel.Durations.ns(extraNs) + " more";
        };
        status.set("what if " + what + ": writing the edited plan…");
        Path log = doc.path();
        runner.background(() -> {
            try {
                RunRecipe recipe = RunRecipe.readBeside(log);
                if (recipe == null) throw new IOException(RunRecipe.of(log) + ": missing");
                String plan = PlanEdit.edited(log, d, change, extraNs);
                Outputs out = outputsFor(log);
                // CREATE_NEW: a name taken meanwhile fails rather than being overwritten
                Files.writeString(out.plan(), plan, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                List<String> args = new ArrayList<>(List.of("--plan", out.plan().toString(), "--record", out.log().toString()));
                args.addAll(recipe.args());
                if (cancelled) {
                    finish("what if " + what + ": cancelled", null);
                    return;
                }
                // the recording's PATH: its program may be a bare name, found as it was then
                Map<String, String> runEnv = new java.util.HashMap<>(env);
                if (recipe.path() != null) runEnv.put("PATH", recipe.path());
                session = RunSession.start(args, out.log(), recipe.cwd(), runEnv, listener(what, out));
            } catch (IOException | RunRecipe.Problem | PlanEdit.Problem e) {
                finish("what if: ✗ " + e.getMessage(), null);
            }
        });
    }

    private RunSession.Listener listener(String what, Outputs out) {
        String[] lastWeftLine = {""};
        return new RunSession.Listener() {
            @Override
            public void line(long node, boolean stderr, String text) {
                if (node < 0 && stderr) lastWeftLine[0] = text;
            }

            @Override
            public void progress(LogTail.Counts c) {
                runner.ui(() -> {
                    if (running.get()) status.set("what if " + what + ": re-running… " + c.records() + " records");
                });
            }

            @Override
            public void finished(int exitStatus, Path recording, boolean stoppedByUser) {
                if (stoppedByUser) {
                    finish("what if " + what + ": cancelled (" + out.log().getFileName() + " is cut short)", null);
                } else if (recording == null || exitStatus == 2 || exitStatus == 127) {
                    // refused, or a node could not start: there is no run to compare
                    finish("what if: ✗ weft run exited " + exitStatus + " (" + RunSession.meaning(exitStatus, false) + "): "
                            + lastWeftLine[0], null);
                } else {
                    finish("what if " + what + ": " + recording.getFileName() + " (" + RunSession.meaning(exitStatus, false)
                            + "), compared with " + doc.path().getFileName(), recording);
                }
            }
        };
    }

    private void finish(String text, Path recording) {
        runner.ui(() -> {
            session = null;
            running.set(false);
            status.set(text);
            if (recording != null) onRecorded.accept(doc, recording);
        });
    }

    /** Stops a re-run (its log is finished, cut short); off the UI thread, since stopping waits for the run. */
    public void cancel() {
        cancelled = true;
        RunSession s = session;
        if (s != null) runner.background(() -> s.stop(5));
    }

    /**
     * New names beside the recording ({@code STEM.whatif-N.weftlog} and {@code STEM.whatif-N.plan-edit.json}, the
     * first N that names no existing file), or in a temporary folder when that folder cannot be written to.
     */
    public static Outputs outputsFor(Path log) throws IOException {
        Path dir = log.toAbsolutePath().getParent();
        if (dir == null || !Files.isWritable(dir)) dir = Files.createTempDirectory("weft-whatif");
        String name = log.getFileName().toString();
        String stem = name.endsWith(".weftlog.gz") ? name.substring(0, name.length() - 11)
                : name.endsWith(".weftlog") ? name.substring(0, name.length() - 8) : name;
        for (int n = 1; ; n++) {
            Path newLog = dir.resolve(stem + ".whatif-" + n + ".weftlog");
            Path plan = dir.resolve(stem + ".whatif-" + n + ".plan-edit.json");
            if (!Files.exists(newLog) && !Files.exists(plan) && !Files.exists(RunRecipe.of(newLog))
                    && !Files.exists(dev.weft.app.source.PlanBeside.sidecarOf(newLog))) {
                return new Outputs(plan, newLog);
            }
        }
    }

    public ReadOnlyBooleanProperty runningProperty() { return running.getReadOnlyProperty(); }
    /** What the last what-if is doing or did ("" before the first). */
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }
}
