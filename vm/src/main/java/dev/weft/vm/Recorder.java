package dev.weft.vm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.qemu.MachineDefinition;
import dev.weft.vm.qemu.MachineRun;
import dev.weft.vm.qemu.MachineRunner;
import dev.weft.vm.qemu.QemuInstallation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

/** {@code weft vm record}: plan, run under QEMU's recorder, judge, and write the run directory. */
record Recorder(QemuInstallation qemu, GuestImage guest, VmOptions options, PrintStream out, PrintStream err)
        implements GuestRun {

    @Override
    public int run() throws IOException, VmCommand.VmFailure {
        Scenario scenario = Scenario.DEFAULT;
        if (options.scenario != null) {
            try {
                scenario = ScenarioFile.read(options.scenario);
            } catch (ScenarioFile.ScenarioException e) {
                throw new VmCommand.VmFailure(e.getMessage());
            }
        }
        // The plan exists, and is on disk, before QEMU starts.
        ChoicePlan plan = ChoicePlan.draw(options.seed, scenario);
        byte[] planBytes = Json.pretty(plan.toJson()).getBytes(StandardCharsets.UTF_8);
        String append = MachineDefinition.append(plan.kernelArgs());
        RunIdentity identity = RunIdentity.of(qemu, guest, Digests.sha256(guest.vmlinux()), Digests.sha256(guest.initramfs()),
                append, plan.seed(), Digests.sha256(planBytes));

        Path parent = options.out != null ? options.out.toAbsolutePath().getParent() : Path.of("weft-vm-runs").toAbsolutePath();
        if (options.out != null && Files.exists(options.out) && !isEmptyDir(options.out)) {
            throw new VmCommand.VmFailure(options.out + ": exists and is not an empty directory");
        }
        Files.createDirectories(parent);
        Path staging = Files.createTempDirectory(parent, ".recording-");
        Path scratch = Files.createTempDirectory("sf-");
        try {
            Files.write(staging.resolve(RunFiles.CHOICE_PLAN), planBytes);
            MachineRun run = runMachine(append, scratch);
            byte[] console = Files.exists(scratch.resolve(RunFiles.CONSOLE)) ? Files.readAllBytes(scratch.resolve(RunFiles.CONSOLE))
                    : new byte[0];
            RunFiles.Outcome outcome = RunEvaluator.evaluate(console, plan, run);
            if (Files.exists(scratch.resolve(RunFiles.RR_LOG))) {
                Files.move(scratch.resolve(RunFiles.RR_LOG), staging.resolve(RunFiles.RR_LOG));
            } else {
                Files.write(staging.resolve(RunFiles.RR_LOG), new byte[0]); // QEMU died before writing one
            }
            RunFiles.write(staging, outcome);
            String rrSha = Digests.sha256(staging.resolve(RunFiles.RR_LOG));
            String runId = "sf-" + Long.toUnsignedString(plan.seed()) + "-" + rrSha.substring(0, 10);
            Files.writeString(staging.resolve(RunFiles.MANIFEST), Json.pretty(manifest(runId, identity, run, outcome, staging)),
                    StandardCharsets.UTF_8);
            Path finalDir = shortest(options.out != null ? options.out : parent.resolve(runId));
            if (Files.exists(finalDir)) {
                Files.delete(finalDir); // an empty directory (checked above) or an earlier run with this exact log
            }
            Files.move(staging, finalDir, StandardCopyOption.ATOMIC_MOVE);
            report(runId, plan, run, outcome, finalDir);
            return outcome.passed() ? 0 : 2;
        } finally {
            deleteTree(scratch);
            if (Files.exists(staging)) {
                deleteTree(staging);
            }
        }
    }

    private MachineRun runMachine(String append, Path scratch) throws IOException {
        var command = MachineDefinition.command(qemu.binary(), MachineDefinition.Mode.RECORD, scratch.resolve(RunFiles.RR_LOG),
                scratch.resolve(RunFiles.CONSOLE), scratch.resolve("qmp.sock"), guest.vmlinux(), guest.initramfs(), append);
        return new MachineRunner((long) (options.stallSeconds * 1000), (long) (options.timeBoundSeconds * 1000))
                .run(command, scratch.resolve("qmp.sock"), scratch.resolve("qemu.stderr"));
    }

    private static ObjectNode manifest(String runId, RunIdentity identity, MachineRun run, RunFiles.Outcome outcome, Path dir)
            throws IOException {
        ObjectNode m = Json.MAPPER.createObjectNode();
        m.put("format", "simferret-run/1");
        m.put("run_id", runId);
        m.set("identity", identity.json());
        ObjectNode rec = m.putObject("record");
        rec.put("ending", run.ending().word);
        // In record mode the stop lands a few thousand instructions after the guest's power-off request.
        rec.put("icount_at_stop", run.finalIcount());
        rec.put("events", outcome.events().size());
        rec.put("assertions_passed", outcome.passed());
        var excluded = m.putArray("excluded_from_events");
        EventNormalizer.EXCLUDED.forEach(excluded::add);
        ObjectNode artifacts = m.putObject("artifacts");
        for (String name : RunFiles.ARTIFACTS) {
            artifacts.put(name, Digests.sha256(dir.resolve(name)));
        }
        return m;
    }

    private void report(String runId, ChoicePlan plan, MachineRun run, RunFiles.Outcome outcome, Path dir) {
        out.print("run " + runId + ": seed " + Long.toUnsignedString(plan.seed()) + ", server killed " + plan.killAtMs()
                + " ms after the client started and restarted " + plan.restartAfterMs() + " ms later; " + outcome.events().size()
                + " events, machine " + run.ending().word + " (stopped at icount " + run.finalIcount() + ")\n");
        out.print(RunEvaluator.summary(outcome));
        out.print("artifacts: " + dir + " (" + RunFiles.MANIFEST + ", " + String.join(", ", RunFiles.ARTIFACTS) + ")\n");
        out.print("replay:    weft vm replay " + dir + "\n");
        if (!run.normal()) {
            err.print("weft vm record: the machine did not end normally: " + run.detail() + "\n");
            if (!run.diagnostics().isEmpty()) {
                err.print("QEMU said: " + run.diagnostics() + "\n");
            }
        }
    }

    /** The directory as the user would type it: relative to the working directory when below it. */
    private static Path shortest(Path p) {
        Path cwd = Path.of("").toAbsolutePath();
        Path abs = p.toAbsolutePath().normalize();
        return abs.startsWith(cwd) && !abs.equals(cwd) ? cwd.relativize(abs) : p;
    }

    private static boolean isEmptyDir(Path p) throws IOException {
        if (!Files.isDirectory(p)) {
            return false;
        }
        try (Stream<Path> s = Files.list(p)) {
            return s.findAny().isEmpty();
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort for scratch files
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
