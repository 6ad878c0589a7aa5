package dev.weft.launcher;

import dev.weft.launcher.check.ChordCheckCommand;
import dev.weft.launcher.check.ChordTraceCommand;
import dev.weft.launcher.check.CheckHelp;
import dev.weft.launcher.check.RaftCheckCommand;
import dev.weft.launcher.convert.ConvertCommand;
import dev.weft.launcher.diff.DiffCommand;
import dev.weft.launcher.fuzz.FuzzCommand;
import dev.weft.launcher.help.CompletionCommand;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.RunCommand;
import dev.weft.launcher.run.RunHelp;
import dev.weft.launcher.scenario.ScenarioCommand;
import dev.weft.launcher.state.StateCommand;
import dev.weft.vm.VmCommand;
import java.io.PrintStream;
import java.util.List;

/**
 * Every {@code weft} subcommand, registered in this one place: its name, one-line summary, help text, the words
 * that may follow it (for completion) and how it runs. The top-level help, {@code weft <cmd> --help}, the shell
 * completion script and the CLI reference in docs/ are all generated from this list, so a command added here
 * appears in each of them (and a test checks it does).
 *
 * <p>Why constant-specific bodies instead of a map of lambdas: a {@code weft} call loads only the command it runs.
 * Linking eleven method references at start-up cost measurable milliseconds, and start-up is most of a short
 * replay's wall time.
 *
 * <p>To add a command: add a constant (the declaration order is the help order) with its summary, override
 * {@link #run} to call the command, and {@link #usage} to return its help text (a picocli command can return
 * {@code new picocli.CommandLine(new X()).getUsageMessage()}). If the command's parser answers
 * {@code -h/--help} itself, pass {@code ownHelp = true}; otherwise the dispatcher answers it from {@link #usage}.
 */
public enum WeftCommand {
    REPLAY("replay", "re-execute a recording and verify it replays identically", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return ReplayCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return ReplayCommand.USAGE;
        }
    },
    STATE("state", "the simulated network's state after op N (pending datagrams, bindings, channels)", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return StateCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return StateCommand.USAGE;
        }
    },
    RUN("run", "run a Linux program under the deterministic shim (Linux only)", false) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            if (!RunHelp.supportedHere()) {
                err.print(RunHelp.unsupportedMessage());
                return RunCommand.USAGE_ERROR;
            }
            out.flush();
            return RunCommand.run(args);
        }

        @Override
        public String usage() {
            return RunHelp.USAGE;
        }

        @Override
        boolean helpRequested(String[] args) {
            // Only options before the program count: `weft run --seed 1 -- grep -h x` runs grep with its -h. The
            // options that take a value are those the help writes with one (`--seed <N>`).
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--") || !a.startsWith("-")) {
                    return false;
                }
                if (isHelp(a)) {
                    return true;
                }
                if (!a.contains("=") && usage().contains("  " + a + " <")) {
                    i++; // skip the option's value
                }
            }
            return false;
        }
    },
    HOSTD("hostd", "the host agent of multi-host runs: starts nodes for `weft run --hosts` (Linux only)", false) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            if (!RunHelp.supportedHere()) {
                err.print(RunHelp.unsupportedMessage());
                return RunCommand.USAGE_ERROR;
            }
            return dev.weft.launcher.run.HostdCommand.run(args, System.getenv(), err);
        }

        @Override
        public String usage() {
            return dev.weft.launcher.run.HostdCommand.USAGE;
        }
    },
    FUZZ("fuzz", "sweep fault seeds over a generated workload, shrink failures to reproducers", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return FuzzCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return FuzzCommand.USAGE;
        }
    },
    CAMPAIGN("campaign", "sweep seeds x an environment matrix of a live target, keep and dedup the hits", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return dev.weft.launcher.campaign.CampaignCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return dev.weft.launcher.campaign.CampaignCommand.USAGE;
        }
    },
    CHECK("check", "protocol checkers over a recording: check chord <LOG> <M> | check raft <LOG>", false,
            "chord", "raft") {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return CheckHelp.check(args, out, err);
        }

        @Override
        public String usage() {
            return CheckHelp.CHECK_USAGE;
        }

        @Override
        boolean helpRequested(String[] args) {
            return args.length > 0 && isHelp(args[0]); // `check chord -h` is the chord checker's help
        }
    },
    TRACE("trace", "protocol state traces: trace chord <LOG> <M>", false, "chord") {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return CheckHelp.trace(args, out, err);
        }

        @Override
        public String usage() {
            return CheckHelp.TRACE_USAGE;
        }

        @Override
        boolean helpRequested(String[] args) {
            return args.length > 0 && isHelp(args[0]);
        }
    },
    DIFF("diff", "where two recordings first part ways, and their totals: diff <A> <B> [--by op|vt]", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return DiffCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return DiffCommand.USAGE;
        }
    },
    SCENARIO("scenario", "validate a scenario file and print its time-ordered events", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return ScenarioCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return ScenarioCommand.USAGE;
        }
    },
    CONVERT("convert", "a recording as Perfetto Trace Event JSON: convert <LOG> --to perfetto <OUT.json>", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return ConvertCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return ConvertCommand.USAGE;
        }
    },
    VM("vm", "record/replay a small Linux guest under QEMU: vm record --seed N | vm replay RUN_DIR", true,
            "record", "replay") {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return VmCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return VmCommand.USAGE;
        }
    },
    WORKBENCH("workbench", "open the desktop workbench: workbench <LOG> [--until N] [--screenshot OUT.png]", true) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return WorkbenchLink.run(args, out, err);
        }

        @Override
        public String usage() {
            return WorkbenchLink.usage();
        }
    },
    COMPLETION("completion", "print a shell completion script: completion bash | completion zsh", false,
            "bash", "zsh") {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return CompletionCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return CompletionCommand.USAGE;
        }
    },
    CHORD_CHECK("chord-check", "same as 'check chord'", false) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return ChordCheckCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return CheckHelp.CHORD_CHECK_USAGE;
        }
    },
    CHORD_TRACE("chord-trace", "same as 'trace chord'", false) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return ChordTraceCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return CheckHelp.CHORD_TRACE_USAGE;
        }
    },
    RAFT_CHECK("raft-check", "same as 'check raft'", false) {
        @Override
        public int run(String[] args, PrintStream out, PrintStream err) {
            return RaftCheckCommand.run(args, out, err);
        }

        @Override
        public String usage() {
            return CheckHelp.RAFT_CHECK_USAGE;
        }
    };

    private final String word;
    private final String summary;
    private final boolean ownHelp;
    private final List<String> subwords;

    WeftCommand(String word, String summary, boolean ownHelp, String... subwords) {
        this.word = word;
        this.summary = summary;
        this.ownHelp = ownHelp;
        this.subwords = List.of(subwords);
    }

    /** Runs the command on the arguments after its name and returns the exit code. */
    public abstract int run(String[] args, PrintStream out, PrintStream err);

    /** The command's help text (ends with a newline); its first line is the usage line. */
    public abstract String usage();

    /** The word that selects this command on the command line. */
    public String word() {
        return word;
    }

    public String summary() {
        return summary;
    }

    /** Words that may follow the command name (a sub-subcommand or a fixed argument), for completion. */
    public List<String> subwords() {
        return subwords;
    }

    /** True if the command's own parser answers {@code -h/--help} (so its exact argument rules stay intact). */
    public boolean ownHelp() {
        return ownHelp;
    }

    /** For commands without their own help: whether the arguments ask for help rather than a run. */
    boolean helpRequested(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (isHelp(a)) {
                return true;
            }
        }
        return false;
    }

    static boolean isHelp(String a) {
        return a.equals("-h") || a.equals("--help");
    }

    /** The command called {@code word}, or null. */
    public static WeftCommand named(String word) {
        for (WeftCommand c : values()) {
            if (c.word.equals(word)) {
                return c;
            }
        }
        return null;
    }
}
