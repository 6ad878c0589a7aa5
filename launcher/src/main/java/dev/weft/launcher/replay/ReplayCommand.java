package dev.weft.launcher.replay;

import dev.weft.check.Invariants;
import dev.weft.check.Violation;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.net.FaultPlan;
import dev.weft.replay.PlanSidecar;
import dev.weft.log.WeftLogException;
import dev.weft.replay.Divergence;
import dev.weft.replay.ReplayException;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import dev.weft.replay.ViolationReport;
import dev.weft.text.RustText;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code weft replay <LOG> [--until <OP>] [--check <LIST>]}: argument rules, output lines and exit codes of
 * core-and-replay.md §5. Scripts parse these lines, so every text here is a public contract.
 */
public final class ReplayCommand {

    public static final String USAGE = String.join("\n",
            "Usage: weft replay <LOG> [OPTIONS]",
            "",
            "Re-executes a weft-log against the seeded fault model and checks that every recorded",
            "outcome, and the stream digest, is reproduced exactly. A recording made with",
            "`weft run --plan` replays against its plan, read from LOG.plan.json beside it.",
            "",
            "Arguments:",
            "  <LOG>  a weft-log v2 recording (.weftlog, or gzip-compressed .weftlog.gz)",
            "",
            "Options:",
            "  --until <OP>     stop after op OP (prints the digest of the prefix)",
            "  --check <LIST>   comma-separated invariants to check while replaying:",
            "                   fifo (per-channel-fifo), dup (no-duplicate-delivery), all (fifo,dup),",
            "                   stream (stream-integrity: TCP bytes read = bytes written, in order)",
            "  --follow         replay a recording while it is being written: wait for new records",
            "                   (and at a half-written last line) until its end record arrives",
            "  --idle-timeout <SEC>  with --follow: take the writer as gone after SEC seconds without",
            "                   growth (default: wait for ever); a log without end record is then truncated",
            "  -h, --help       print this help",
            "",
            "Exit status: 0 identical and invariants hold, 2 invariant violation(s), 1 unreadable log or divergence.",
            "");

    private ReplayCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Path.of(""));
    }

    /** As {@link #run(String[], PrintStream, PrintStream)}, resolving the log path against {@code workingDir}. */
    public static int run(String[] args, PrintStream out, PrintStream err, Path workingDir) {
        String log = null;
        Long until = null;
        boolean follow = false;
        long idleSeconds = 0;
        List<String> checks = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "--help" -> {
                    out.print(USAGE);
                    return 0; // help is not an error (product decision; the reference exits 1)
                }
                case "--until", "--idle-timeout" -> {
                    boolean isUntil = a.equals("--until");
                    if (i + 1 >= args.length) {
                        return fail(err, a + (isUntil ? " requires an op index" : " requires seconds"));
                    }
                    String v = args[++i];
                    try {
                        long n = RustText.parseU64(v);
                        if (isUntil) {
                            until = n;
                        } else {
                            idleSeconds = n;
                        }
                    } catch (NumberFormatException e) {
                        return fail(err, a + " " + RustText.debugQuote(v) + (isUntil ? ": not a u64" : ": not seconds"));
                    }
                }
                case "--follow" -> follow = true;
                case "--check" -> {
                    if (i + 1 >= args.length) {
                        return fail(err, "--check requires a list");
                    }
                    try {
                        Invariants.appendCheckList(args[++i], checks);
                    } catch (Invariants.UnknownInvariantException e) {
                        return fail(err, "--check: unknown invariant " + RustText.debugQuote(e.name()));
                    }
                }
                default -> {
                    if (log != null) {
                        err.print("weft replay: unexpected argument " + RustText.debugQuote(a) + "\n\n" + USAGE);
                        return 1;
                    }
                    log = a;
                }
            }
        }
        if (log == null) {
            err.print("weft replay: no log file given\n\n" + USAGE);
            return 1;
        }
        if (idleSeconds != 0 && !follow) {
            return fail(err, "--idle-timeout needs --follow");
        }
        long idleMillis = Long.compareUnsigned(idleSeconds, Long.MAX_VALUE / 1000) > 0 ? Long.MAX_VALUE : idleSeconds * 1000;
        return replay(log, workingDir, new ReplayOptions(until, checks), follow ? idleMillis : -1, out, err);
    }

    /**
     * The options with the recording's fault plan when its header names one (docs/fault-plans.md). A log whose
     * header cannot be read yet (a followed log not yet written) is left to the replay to report.
     */
    private static ReplayOptions withRecordingsPlan(Path log, ReplayOptions options) throws PlanSidecar.Problem {
        LogHeader header;
        try (LogReader reader = LogReader.open(log)) {
            header = reader.header();
        } catch (WeftLogException | java.io.IOException | RuntimeException e) {
            return options;
        }
        FaultPlan plan = PlanSidecar.forRecording(log, header);
        return plan == null ? options : options.withFates(plan);
    }

    /** How often a followed log is looked at for new records. */
    private static final long FOLLOW_POLL_MILLIS = 20;

    /** {@code followIdleMillis} &lt; 0: read the file as it is; else follow it (0 = no idle limit). */
    private static int replay(String log, Path workingDir, ReplayOptions options, long followIdleMillis, PrintStream out,
                              PrintStream err) {
        ReplayReport report;
        try {
            options = withRecordingsPlan(workingDir.resolve(log), options);
        } catch (PlanSidecar.Problem e) {
            return fail(err, log + ": " + e.getMessage());
        }
        try {
            report = followIdleMillis < 0 ? Replayer.replay(workingDir.resolve(log), options)
                    : Replayer.follow(workingDir.resolve(log), options, FOLLOW_POLL_MILLIS, followIdleMillis);
        } catch (WeftLogException e) {
            return fail(err, log + ": " + e.getMessage());
        } catch (ReplayException e) {
            return fail(err, e.getMessage());
        } catch (java.nio.file.InvalidPathException e) {
            return fail(err, log + ": I/O error: " + e.getMessage());
        }
        Divergence d = report.divergence();
        if (d != null) {
            err.print("weft replay: DIVERGED at op " + Long.toUnsignedString(d.op()) + "\n"
                    + "  recorded: " + d.recorded() + "\n"
                    + "  replayed: " + d.replayed() + "\n"
                    + "  (the log, seed, and code no longer agree \u2014 was the log produced by a different weft version?)\n");
            return 1;
        }
        StringBuilder sb = new StringBuilder(256);
        sb.append("replay identical: ").append(Long.toUnsignedString(report.count())).append(" op(s), stream digest ")
                .append(Fnv1a.hex16(report.digest()));
        if (options.until() != null) {
            sb.append(" (partial: --until)");
        }
        sb.append('\n');
        for (Violation v : report.violations()) {
            ViolationReport.append(sb, v, report, log);
        }
        if (!report.violations().isEmpty()) {
            sb.append(report.violations().size()).append(" invariant violation(s)\n");
        }
        out.print(sb);
        if (followIdleMillis >= 0 && !report.sawEnd()) {
            err.print("weft replay: note: " + log + ": the recording is truncated (its writer stopped without an end record)\n");
        } else if (followIdleMillis < 0 && options.until() == null && !report.sawEnd()) {
            // Product decision: the reference is silent here, but a user must learn that a crashed or cut-off
            // recording was verified only as far as it goes. stderr only: stdout and the exit code stay the contract.
            err.print(PREFIX_NOTE.formatted(log));
        }
        if (report.acceptedWindowedEmpties() > 0) {
            // Product decision (docs/spec/README.md): windowed logs replay. Say so, off the parsed stdout contract.
            err.print("weft replay: note: windowed recording (window_ns=" + Long.toUnsignedString(report.header().windowNs())
                    + "): " + report.acceptedWindowedEmpties()
                    + " non-blocking empty recv(s) accepted as replay inputs (the live pop horizon is not recorded)\n");
        }
        return report.violations().isEmpty() ? 0 : 2;
    }

    /** The stderr line for a log without an end record (a prefix); %s is the path as given. */
    public static final String PREFIX_NOTE =
            "weft replay: note: %s has no end record: a verified prefix of a recording that did not finish\n";

    private static int fail(PrintStream err, String message) {
        err.print("weft replay: " + message + "\n");
        return 1;
    }
}
