package dev.weft.launcher.help;

import dev.weft.launcher.WeftCommand;
import dev.weft.launcher.campaign.CampaignCommand;
import dev.weft.launcher.check.HistoryCheckCommand;
import dev.weft.launcher.convert.ConvertCommand;
import dev.weft.launcher.diff.DiffCommand;
import dev.weft.launcher.explain.ExplainCommand;
import dev.weft.launcher.fuzz.FuzzCommand;
import dev.weft.launcher.plan.PlanCommand;
import dev.weft.launcher.run.HostdCommand;
import dev.weft.launcher.scenario.ScenarioCommand;
import dev.weft.launcher.shrink.CampaignShrinkCommand;
import dev.weft.launcher.shrink.ShrinkCommand;
import dev.weft.launcher.state.StateCommand;
import dev.weft.vm.VmCommand;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The whole {@code weft} command line as one picocli model: every {@link WeftCommand} as a subcommand, with its
 * summary as description and its fixed next words as sub-subcommands. The completion scripts are generated from it.
 *
 * <p>A command that parses with picocli contributes the very model it parses with (its {@code spec()}), so its
 * completion offers exactly what it accepts. A command still parsed by hand contributes the options its help text
 * names ({@link #documentedOptions}); such a model is for completion only and parses nothing.
 *
 * <p>Only completion and docs build this model: {@code weft --help} and a command's run never load it.
 */
public final class CommandModel {

    /** An option as help texts write it: {@code --until}, {@code -h}; not a dash inside a word or a range. */
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z])(?![\\w-])");

    private CommandModel() {
    }

    /** {@code weft} with every command, then {@code help}, in the order of the top-level help. */
    public static CommandSpec weft() {
        CommandSpec weft = CommandSpec.create().name("weft");
        weft.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).arity("0").type(boolean.class).build());
        weft.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).arity("0").type(boolean.class).build());
        for (WeftCommand c : WeftCommand.values()) {
            weft.addSubcommand(c.word(), new CommandLine(of(c)));
        }
        CommandSpec help = CommandSpec.create().name("help");
        help.usageMessage().description("a command's help: help <COMMAND>");
        weft.addSubcommand("help", new CommandLine(help));
        return weft;
    }

    /** One command's model, described by its summary, with its fixed next words as subcommands. */
    public static CommandSpec of(WeftCommand command) {
        CommandSpec spec = switch (command) {
            case DIFF -> DiffCommand.spec();
            case EXPLAIN -> ExplainCommand.spec();
            case PLAN -> PlanCommand.spec();
            case STATE -> StateCommand.spec();
            case CONVERT -> ConvertCommand.spec();
            case SCENARIO -> ScenarioCommand.spec();
            case COMPLETION -> CompletionCommand.spec();
            case FUZZ -> FuzzCommand.spec();
            case SHRINK -> ShrinkCommand.spec();
            case HOSTD -> HostdCommand.spec();
            case CAMPAIGN -> CampaignCommand.spec();
            default -> documentedOptions(command);
        };
        spec.usageMessage().description(command.summary());
        for (String sub : command.subwords()) {
            if (!CompletionCommand.SHELLS.contains(sub)) { // the shells are the completion command's operand
                spec.addSubcommand(sub, new CommandLine(subcommand(command, sub)));
            }
        }
        return spec;
    }

    /** The model of a command's fixed next word: its parser's where it has one, else just the word. */
    private static CommandSpec subcommand(WeftCommand command, String sub) {
        return switch (command.word() + " " + sub) {
            case "check history" -> HistoryCheckCommand.spec();
            case "campaign compact" -> CampaignCommand.compactSpec();
            case "campaign shrink" -> CampaignShrinkCommand.spec();
            case "campaign verify" -> CampaignCommand.operandsSpec(sub, "DIR");
            case "campaign merge" -> CampaignCommand.operandsSpec(sub, "OUT DIR...");
            case "vm record", "vm replay" -> VmCommand.spec(sub);
            case "fuzz merge" -> FuzzCommand.mergeSpec();
            default -> CommandSpec.create().name(sub);
        };
    }

    /** Whether the command parses with the model {@link #of} returns (and not by hand). */
    public static boolean parsesWithModel(WeftCommand command) {
        return switch (command) {
            case DIFF, EXPLAIN, PLAN, STATE, CONVERT, SCENARIO, COMPLETION, FUZZ, SHRINK, HOSTD, CAMPAIGN -> true;
            default -> false;
        };
    }

    /** For a command still parsed by hand: the options its help text names, in order, plus -h and --help. */
    static CommandSpec documentedOptions(WeftCommand command) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = OPTION.matcher(command.usage());
        while (m.find()) {
            found.add(m.group(1));
        }
        found.add("-h");
        found.add("--help");
        CommandSpec spec = CommandSpec.create().name(command.word());
        for (String name : found) {
            spec.addOption(OptionSpec.builder(name).arity("0").type(boolean.class).build());
        }
        return spec;
    }

    /** The option names of a model, each option's names in declaration order. */
    public static List<String> optionNames(CommandSpec spec) {
        Set<String> names = new LinkedHashSet<>();
        for (OptionSpec o : spec.options()) {
            names.addAll(List.of(o.names()));
        }
        return List.copyOf(names);
    }
}
