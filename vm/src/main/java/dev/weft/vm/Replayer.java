package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.vm.qemu.MachineDefinition;
import dev.weft.vm.qemu.MachineRun;
import dev.weft.vm.qemu.MachineRunner;
import dev.weft.vm.qemu.QemuInstallation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code weft vm replay RUN_DIR}: checks the run directory (artifact digests, the plan against its seed) and the
 * replay environment against the recorded identity, replays the QEMU log, and compares what came out with
 * what was recorded, byte for byte.
 */
record Replayer(QemuInstallation qemu, GuestImage guest, VmOptions options, PrintStream out, PrintStream err)
        implements GuestRun {

    @Override
    public int run() throws IOException, VmCommand.VmFailure {
        Path dir = options.runDir;
        JsonNode manifest = readManifest(dir);
        checkArtifacts(dir, manifest);
        byte[] planBytes = Files.readAllBytes(dir.resolve(RunFiles.CHOICE_PLAN));
        ChoicePlan plan;
        try {
            plan = ChoicePlan.fromJson(Json.MAPPER.readTree(planBytes));
        } catch (IOException | IllegalArgumentException e) {
            throw new VmCommand.VmFailure(dir.resolve(RunFiles.CHOICE_PLAN) + ": " + e.getMessage());
        }
        String append = MachineDefinition.append(plan.kernelArgs())
                + (options.extraAppend.isEmpty() ? "" : " " + options.extraAppend);
        RunIdentity now = RunIdentity.of(qemu, guest, Digests.sha256(guest.vmlinux()), Digests.sha256(guest.initramfs()), append,
                plan.seed(), Digests.sha256(planBytes));
        List<String> differences = now.differences(manifest.path("identity"));
        if (!differences.isEmpty() && !options.allowMismatch) {
            throw new VmCommand.VmFailure("replay refused: this environment differs from the identity the log was recorded"
                    + " with (a QEMU log replays only on the exact machine, kernel, initramfs and command line):\n  "
                    + String.join("\n  ", differences) + "\n(--allow-mismatch replays anyway, marked, never as identical)");
        }
        if (!differences.isEmpty()) {
            err.print("weft vm replay: *** IDENTITY MISMATCH *** replaying anyway (--allow-mismatch); this cannot count as"
                    + " an identical replay:\n  " + String.join("\n  ", differences) + "\n");
        }

        Path scratch = Files.createTempDirectory("sf-");
        MachineRun run;
        byte[] console;
        try {
            Files.copy(dir.resolve(RunFiles.RR_LOG), scratch.resolve(RunFiles.RR_LOG));
            var command = MachineDefinition.command(qemu.binary(), MachineDefinition.Mode.REPLAY, scratch.resolve(RunFiles.RR_LOG),
                    scratch.resolve(RunFiles.CONSOLE), scratch.resolve("qmp.sock"), guest.vmlinux(), guest.initramfs(), append);
            run = new MachineRunner((long) (options.stallSeconds * 1000), (long) (options.timeBoundSeconds * 1000))
                    .run(command, scratch.resolve("qmp.sock"), scratch.resolve("qemu.stderr"));
            Path c = scratch.resolve(RunFiles.CONSOLE);
            console = Files.exists(c) ? Files.readAllBytes(c) : new byte[0];
        } finally {
            Recorder.deleteTree(scratch);
        }
        RunFiles.Outcome outcome = RunEvaluator.evaluate(console, plan, run);
        Path last = dir.resolve(RunFiles.LAST_REPLAY);
        Files.createDirectories(last);
        RunFiles.write(last, outcome);
        return compare(dir, manifest, run, outcome, !differences.isEmpty());
    }

    private int compare(Path dir, JsonNode manifest, MachineRun run, RunFiles.Outcome o, boolean mismatched) throws IOException {
        String where = " (the replay's files are in " + dir.resolve(RunFiles.LAST_REPLAY) + ")";
        if (!run.normal()) {
            String why = switch (run.ending()) {
                case STALLED -> "the replay stopped advancing: " + run.detail()
                        + "; a QEMU replay that left its log spins silently, so the watchdog stopped it";
                case OVER_TIME -> "the replay did not finish: " + run.detail();
                case QEMU_EXITED -> "QEMU ended the replay unexpectedly: " + run.detail();
                default -> "the replay could not be controlled: " + run.detail();
            };
            out.print("replay DIVERGED: " + why + "; " + o.events().size() + " events before that" + where + "\n");
            if (!run.diagnostics().isEmpty()) {
                err.print("QEMU said: " + run.diagnostics() + "\n");
            }
            return 2;
        }
        long recordedIcount = manifest.path("record").path("icount_at_stop").asLong(-1);
        byte[] recordedEvents = Files.readAllBytes(dir.resolve(RunFiles.EVENTS));
        byte[] recordedAssertions = Files.readAllBytes(dir.resolve(RunFiles.ASSERTIONS));
        String recordedDigest = Files.readString(dir.resolve(RunFiles.OUTCOME), StandardCharsets.UTF_8);
        if (!Arrays.equals(recordedEvents, o.eventsJsonl())) {
            out.print("replay DIVERGED: " + firstDifference(recordedEvents, o.eventsJsonl()) + where + "\n");
            return 2;
        }
        if (!Arrays.equals(recordedAssertions, o.assertionsJson())) {
            out.print("replay DIVERGED: same events but different assertion results" + where + "\n");
            return 2;
        }
        if (!recordedDigest.equals(o.digestLine())) {
            out.print("replay DIVERGED: outcome " + o.digestLine().strip() + ", recorded " + recordedDigest.strip() + where + "\n");
            return 2;
        }
        boolean consoleSame = Arrays.equals(Files.readAllBytes(dir.resolve(RunFiles.CONSOLE)), o.console());
        String line = o.events().size() + " events, assertions identical (" + o.assertionsHolding() + " of " + o.assertionCount()
                + " hold), outcome " + o.digestLine().strip() + ", power-off at icount " + o.finalIcount() + " (recording stopped at "
                + recordedIcount + "); raw console "
                + (consoleSame ? "byte-identical too" : "differs outside the events");
        if (mismatched) {
            out.print("replay identical under a MISMATCHED identity (not a verified replay): " + line + "\n");
            return 2;
        }
        out.print("replay identical: " + line + "\n");
        return 0;
    }

    private static String firstDifference(byte[] recorded, byte[] replayed) {
        List<String> a = new String(recorded, StandardCharsets.UTF_8).lines().toList();
        List<String> b = new String(replayed, StandardCharsets.UTF_8).lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "(none)";
            String y = i < b.size() ? b.get(i) : "(none)";
            if (!x.equals(y)) {
                return "events differ from event " + i + " on (recorded " + a.size() + ", replayed " + b.size() + "):\n  recorded: "
                        + x + "\n  replayed: " + y;
            }
        }
        return "events differ in their bytes";
    }

    private static JsonNode readManifest(Path dir) throws VmCommand.VmFailure {
        try {
            return RecordedRun.readManifest(dir);
        } catch (RecordedRun.NotARun e) {
            throw new VmCommand.VmFailure(e.getMessage());
        }
    }

    private static void checkArtifacts(Path dir, JsonNode manifest) throws IOException, VmCommand.VmFailure {
        for (String name : RunFiles.ARTIFACTS) {
            String want = manifest.path("artifacts").path(name).asText("");
            Path f = dir.resolve(name);
            if (!Files.isRegularFile(f)) {
                throw new VmCommand.VmFailure("replay refused: " + f + " is missing");
            }
            String got = Digests.sha256(f);
            if (!got.equals(want)) {
                throw new VmCommand.VmFailure("replay refused: " + f + " changed since it was recorded (sha256 " + got
                        + ", the manifest says " + (want.isEmpty() ? "nothing" : want) + ")");
            }
        }
    }
}
