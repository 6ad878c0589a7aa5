package dev.weft.vm.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs QEMU once under the control plane: starts it paused, attaches over QMP, checks it is paused before the
 * first instruction, {@code cont}, then polls {@code query-status} and {@code query-replay} until the guest
 * powers off (QEMU stops there because of -no-shutdown), the watchdog fires, or QEMU exits by itself.
 * QEMU is always gone when {@link #run} returns.
 */
public final class MachineRunner {

    private static final long POLL_MILLIS = 100;

    private final long stallMillis;
    private final long boundMillis;

    public MachineRunner(long stallMillis, long boundMillis) {
        this.stallMillis = stallMillis;
        this.boundMillis = boundMillis;
    }

    public MachineRun run(List<String> command, Path qmpSocket, Path stderrFile) throws IOException {
        Process qemu = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderrFile.toFile()).start();
        try {
            return supervise(qemu, qmpSocket, stderrFile);
        } finally {
            if (qemu.isAlive()) {
                qemu.destroyForcibly();
            }
            try {
                qemu.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private MachineRun supervise(Process qemu, Path qmpSocket, Path stderrFile) throws IOException {
        QmpClient qmp;
        try {
            qmp = QmpClient.connect(qmpSocket, 10_000, 5_000, qemu::isAlive);
        } catch (IOException e) {
            if (!qemu.isAlive()) {
                return ended(qemu, MachineRun.Ending.QEMU_EXITED, -1, "QEMU exited by itself with status " + qemu.exitValue()
                        + " before the run started", stderrFile);
            }
            return ended(qemu, MachineRun.Ending.CONTROL_FAILED, -1, "no QMP connection: " + e.getMessage(), stderrFile);
        }
        try (qmp) {
            String before = qmp.execute("query-status", null).path("status").asText();
            if (!before.equals("prelaunch") && !before.equals("paused")) {
                return ended(qemu, MachineRun.Ending.CONTROL_FAILED, -1,
                        "QEMU was not paused before the run (status " + before + ")", stderrFile);
            }
            qmp.execute("cont", null);
            StallWatchdog dog = new StallWatchdog(stallMillis, boundMillis, nowMillis());
            while (true) {
                sleep(POLL_MILLIS);
                if (!qemu.isAlive()) {
                    return ended(qemu, MachineRun.Ending.QEMU_EXITED, dog.lastIcount(),
                            "QEMU exited by itself with status " + qemu.exitValue(), stderrFile);
                }
                String status;
                long icount;
                try {
                    status = qmp.execute("query-status", null).path("status").asText();
                    JsonNode replay = qmp.execute("query-replay", null);
                    icount = replay.path("icount").asLong(-1);
                } catch (IOException e) {
                    if (!qemu.isAlive()) {
                        continue; // reported as an exit on the next round
                    }
                    return ended(qemu, MachineRun.Ending.CONTROL_FAILED, dog.lastIcount(), e.getMessage(), stderrFile);
                }
                if (status.equals("shutdown")) {
                    try {
                        qmp.execute("quit", null);
                    } catch (IOException e) {
                        // QEMU closes the socket while quitting; its exit is what matters
                    }
                    waitExit(qemu);
                    return new MachineRun(MachineRun.Ending.POWERED_OFF, icount, "guest powered off", diagnostics(stderrFile));
                }
                StallWatchdog.Verdict v = dog.observe(nowMillis(), icount);
                if (v == StallWatchdog.Verdict.STALLED) {
                    return ended(qemu, MachineRun.Ending.STALLED, icount, "instruction count stuck at " + icount
                            + " for more than " + dog.stallMillis() / 1000.0 + " s (QEMU status " + status + ")", stderrFile);
                }
                if (v == StallWatchdog.Verdict.OVER_TIME) {
                    return ended(qemu, MachineRun.Ending.OVER_TIME, icount,
                            "run exceeded its time bound of " + dog.boundMillis() / 1000.0 + " s", stderrFile);
                }
            }
        }
    }

    private static MachineRun ended(Process qemu, MachineRun.Ending ending, long icount, String detail, Path stderrFile) {
        qemu.destroyForcibly();
        waitExit(qemu);
        return new MachineRun(ending, icount, detail, diagnostics(stderrFile));
    }

    private static void waitExit(Process qemu) {
        try {
            if (!qemu.waitFor(10, TimeUnit.SECONDS)) {
                qemu.destroyForcibly();
                qemu.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String diagnostics(Path stderrFile) {
        try (InputStream in = Files.newInputStream(stderrFile)) {
            return new String(in.readNBytes(8192), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    private static long nowMillis() {
        return System.nanoTime() / 1_000_000L;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
