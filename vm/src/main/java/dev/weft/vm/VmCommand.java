package dev.weft.vm;

import dev.weft.vm.qemu.QemuInstallation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code weft vm record --seed N [--scenario FILE] [--out DIR]} and {@code weft vm replay RUN_DIR}.
 * Exit codes: 0 the run passed / the replay is identical; 2 a property failed or the machine misbehaved (record),
 * the replay diverged or could not be verified (replay); 1 a usage error, missing QEMU or guest, unreadable or
 * refused run directory.
 */
public final class VmCommand {

    public static final String USAGE = """
            usage: weft vm record --seed N [--scenario FILE] [--out DIR]
                   weft vm replay RUN_DIR [--allow-mismatch]
            Records a small Linux guest (echo server, workload client, checker, one planned kill and restart) under
            QEMU's instruction-counted record/replay, and replays a recording exactly.
              record   runs seed N's plan, writes the run directory (default weft-vm-runs/RUN_ID) and prints the
                       run id, the assertions and the replay command; exit 0 all hold, 2 a property failed
              replay   re-executes the recorded run from its QEMU log; exit 0 only when it ends normally with
                       byte-identical events, assertions and outcome digest, 2 if not, 1 if refused
                       (a replay environment that differs from the recorded identity is refused;
                       --allow-mismatch runs it anyway, loudly marked, and never counts as identical)
            A scenario file holds 'key = value' lines: requests, pace_ms, kill_min_ms, kill_max_ms,
            restart_min_ms, restart_max_ms.
            """;

    private VmCommand() {
    }

    /** The picocli model of {@code weft vm record} or {@code weft vm replay} (for the launcher's completion). */
    public static CommandSpec spec(String verb) {
        return VmOptions.spec(verb);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 1 : 0;
        }
        String verb = args[0];
        if (!verb.equals("record") && !verb.equals("replay")) {
            err.print("weft vm: unknown operation '" + verb + "'\n" + USAGE);
            return 1;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (Arrays.asList(rest).contains("--help") || Arrays.asList(rest).contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        VmOptions options;
        try {
            options = VmOptions.parse(verb, rest);
        } catch (VmOptions.UsageException e) {
            err.print("weft vm " + verb + ": " + e.getMessage() + "\n" + USAGE);
            return 1;
        }
        if (options.out != null) {
            try {
                options.out = RunDirectoryTarget.check(options.out); // before QEMU: a bad --out costs no run
            } catch (VmFailure e) {
                err.print("weft vm " + verb + ": " + e.getMessage() + "\n");
                return 1;
            }
        }
        Optional<Path> qemuPath = QemuInstallation.find(options.qemu);
        if (qemuPath.isEmpty()) {
            err.print("weft vm: " + (options.qemu != null ? options.qemu + " is not an executable QEMU" : QemuInstallation.BINARY
                    + " not found on PATH") + "\n" + QemuInstallation.INSTALL_HINT);
            return 1;
        }
        try {
            QemuInstallation qemu = QemuInstallation.describe(qemuPath.get());
            Path guestDir = options.guest != null ? options.guest : GuestImage.defaultDir().orElse(null);
            if (guestDir == null) {
                err.print("weft vm: the guest is not built (no vm/target/guest found; build with 'mvn -pl vm -am package'"
                        + " or vm/guest/build.sh DIR and pass --guest DIR)\n");
                return 1;
            }
            GuestImage guest = GuestImage.open(guestDir);
            GuestRun run = verb.equals("record") ? new Recorder(qemu, guest, options, out, err)
                    : new Replayer(qemu, guest, options, out, err);
            return run.run();
        } catch (VmFailure | IOException e) {
            err.print("weft vm " + verb + ": " + e.getMessage() + "\n");
            return 1;
        }
    }

    /** A failure to report in one message (a bad run directory, a refused replay, a bad scenario). */
    static final class VmFailure extends Exception {
        VmFailure(String message) {
            super(message);
        }
    }
}
