package dev.weft.launcher;

import dev.weft.launcher.campaign.CampaignCommand;
import dev.weft.launcher.check.CheckHelp;
import dev.weft.launcher.check.chord.ChordCheckCommand;
import dev.weft.launcher.check.chord.ChordTraceCommand;
import dev.weft.launcher.check.raft.RaftCheckCommand;
import dev.weft.launcher.convert.ConvertCommand;
import dev.weft.launcher.diff.DiffCommand;
import dev.weft.launcher.explain.ExplainCommand;
import dev.weft.launcher.fuzz.FuzzCommand;
import dev.weft.launcher.help.CompletionCommand;
import dev.weft.launcher.plan.PlanCommand;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.HostdCommand;
import dev.weft.launcher.run.RunCommand;
import dev.weft.launcher.run.RunHelp;
import dev.weft.launcher.scenario.ScenarioCommand;
import dev.weft.launcher.shrink.ShrinkCommand;
import dev.weft.launcher.state.StateCommand;
import dev.weft.vm.VmCommand;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Every {@code weft} subcommand, registered in this one place: its name, one-line summary, help text, the words
 * that may follow it (for completion) and how it runs. The top-level help, {@code weft <cmd> --help}, the shell
 * completion script and the CLI reference in docs/ are all generated from this list, so a command added here
 * appears in each of them (and a test checks it does).
 *
 * <p>Why switches instead of a map of lambdas: a {@code weft} call loads only the command it runs. Linking eleven
 * method references at start-up cost measurable milliseconds, and start-up is most of a short replay's wall time.
 *
 * <p>To add a command: add a constant named after its word (the declaration order is the help order) with its
 * summary, a case in {@link #run} that calls the command, and one in {@link #usage} that returns its help text (a
 * picocli command can return {@code new picocli.CommandLine(new X()).getUsageMessage()}). If the command's parser
 * answers {@code -h/--help} itself, pass {@code ownHelp = true}; otherwise the dispatcher answers it from
 * {@link #usage}.
 */
public enum WeftCommand {
    REPLAY("re-execute a recording and verify it replays identically", true),
    STATE("the simulated network's state after op N (pending datagrams, bindings, channels, TCP streams)", true),
    PLAN("the fault plan a recording followed: every datagram fate that differs from the baseline", true),
    RUN("run a Linux program under the deterministic shim (Linux only)", false),
    HOSTD("the host agent of multi-host runs: starts nodes for `weft run --hosts` (Linux only)", false),
    FUZZ("sweep fault seeds over a generated workload, shrink failures to reproducers", true, "merge"),
    CAMPAIGN("sweep seeds x an environment matrix of a live target, keep and dedup the hits", true,
            "merge", "compact", "verify", "shrink"),
    SHRINK("shrink a failing seed's fault plan to the few network faults that cause it, by live re-runs", true),
    CHECK("checkers: check chord <LOG> <M> | check raft <LOG> | check history <HISTORY> --model <M>", false,
            "chord", "raft", "history"),
    TRACE("protocol state traces: trace chord <LOG> <M>", false, "chord"),
    DIFF("where two recordings first part ways, and their totals: diff <A> <B> [--by op|vt]", true),
    EXPLAIN("what a recording shows, most severe first, in plain words: explain <LOG> [--json]", true),
    SCENARIO("validate a scenario file and print its time-ordered events", true),
    CONVERT("a recording as Perfetto Trace Event JSON: convert <LOG> --to perfetto <OUT.json>", true),
    VM("record/replay a small Linux guest under QEMU: vm record --seed N | vm replay RUN_DIR", true,
            "record", "replay"),
    WORKBENCH("open the desktop workbench: workbench <LOG> [--until N] [--screenshot OUT.png]", true),
    COMPLETION("print a shell completion script: completion bash | completion zsh", false,
            "bash", "zsh"),
    CHORD_CHECK("same as 'check chord'", false),
    CHORD_TRACE("same as 'trace chord'", false),
    RAFT_CHECK("same as 'check raft'", false);

    private final String summary;
    private final boolean ownHelp;
    private final List<String> subwords;

    WeftCommand(String summary, boolean ownHelp, String... subwords) {
        this.summary = summary;
        this.ownHelp = ownHelp;
        this.subwords = List.of(subwords);
    }

    /** Runs the command on the arguments after its name and returns the exit code. */
    public int run(String[] args, PrintStream out, PrintStream err) {
        if ((this == RUN || this == HOSTD) && !RunHelp.supportedHere()) {
            err.print(RunHelp.unsupportedMessage());
            return RunCommand.USAGE_ERROR;
        }
        return switch (this) {
            case REPLAY -> ReplayCommand.run(args, out, err);
            case STATE -> StateCommand.run(args, out, err);
            case PLAN -> PlanCommand.run(args, out, err);
            case RUN -> {
                out.flush();
                yield RunCommand.run(args);
            }
            case HOSTD -> HostdCommand.run(args, System.getenv(), err);
            case FUZZ -> FuzzCommand.run(args, out, err);
            case CAMPAIGN -> CampaignCommand.run(args, out, err);
            case SHRINK -> ShrinkCommand.run(args, out, err);
            case CHECK -> CheckHelp.check(args, out, err);
            case TRACE -> CheckHelp.trace(args, out, err);
            case DIFF -> DiffCommand.run(args, out, err);
            case EXPLAIN -> ExplainCommand.run(args, out, err);
            case SCENARIO -> ScenarioCommand.run(args, out, err);
            case CONVERT -> ConvertCommand.run(args, out, err);
            case VM -> VmCommand.run(args, out, err);
            case WORKBENCH -> WorkbenchLink.run(args, out, err);
            case COMPLETION -> CompletionCommand.run(args, out, err);
            case CHORD_CHECK -> ChordCheckCommand.run(args, out, err);
            case CHORD_TRACE -> ChordTraceCommand.run(args, out, err);
            case RAFT_CHECK -> RaftCheckCommand.run(args, out, err);
        };
    }

    /** The command's help text (ends with a newline); its first line is the usage line. */
    public String usage() {
        return switch (this) {
            case REPLAY -> ReplayCommand.USAGE;
            case STATE -> StateCommand.USAGE;
            case PLAN -> PlanCommand.USAGE;
            case RUN -> RunHelp.USAGE;
            case HOSTD -> HostdCommand.USAGE;
            case FUZZ -> FuzzCommand.USAGE;
            case CAMPAIGN -> CampaignCommand.USAGE;
            case SHRINK -> ShrinkCommand.USAGE;
            case CHECK -> CheckHelp.CHECK_USAGE;
            case TRACE -> CheckHelp.TRACE_USAGE;
            case DIFF -> DiffCommand.USAGE;
            case EXPLAIN -> ExplainCommand.USAGE;
            case SCENARIO -> ScenarioCommand.USAGE;
            case CONVERT -> ConvertCommand.USAGE;
            case VM -> VmCommand.USAGE;
            case WORKBENCH -> WorkbenchLink.usage();
            case COMPLETION -> CompletionCommand.USAGE;
            case CHORD_CHECK -> ChordCheckCommand.USAGE;
            case CHORD_TRACE -> ChordTraceCommand.USAGE;
            case RAFT_CHECK -> RaftCheckCommand.USAGE;
        };
    }

    /** The word that selects this command on the command line: the constant's name in lower case, '_' as '-'. */
    public String word() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String summary() {
        return summary;
    }

    /** Words that may follow the command name (a sub-subcommand or a fixed argument), for completion. */
    public List<String> subwords() {
        return subwords;
    }

    /**
     * Whether the dispatcher answers these arguments with {@link #usage} instead of running the command. A command
     * whose own parser answers {@code -h/--help} ({@code ownHelp}) keeps its exact argument rules and is always run.
     */
    boolean dispatcherAnswersHelp(String[] args) {
        return !ownHelp && helpRequested(args);
    }

    /** For commands without their own help: whether the arguments ask for help rather than a run. */
    boolean helpRequested(String[] args) {
        return switch (this) {
            case RUN -> runHelpRequested(args);
            case CHECK, TRACE -> args.length > 0 && isHelp(args[0]); // `check chord -h` is the chord checker's help
            default -> helpBeforeDashes(args);
        };
    }

    private static boolean helpBeforeDashes(String[] args) {
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

    /**
     * Only options before the program count: `weft run --seed 1 -- grep -h x` runs grep with its -h. The options
     * that take a value are those the help writes with one (`--seed <N>`).
     */
    private boolean runHelpRequested(String[] args) {
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

    static boolean isHelp(String a) {
        return a.equals("-h") || a.equals("--help");
    }

    /** The command called {@code word}, or null. */
    public static WeftCommand named(String word) {
        for (WeftCommand c : values()) {
            if (c.word().equals(word)) {
                return c;
            }
        }
        return null;
    }
}
