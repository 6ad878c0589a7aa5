package dev.weft.launcher.campaign;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The command line of a subcommand that works on one campaign folder, {@code DIR [--COUNT N]}
 * ({@code weft campaign compact DIR [--keep N]}, {@code weft campaign shrink DIR [--jobs J]}), parsed with picocli.
 * A mistake comes back as an {@link IllegalArgumentException} whose message is the subcommand's sentence, as the
 * hand-written parsers worded it: {@code --keep needs a value}, {@code unknown argument "e"}.
 *
 * @param dir   the folder
 * @param count the count option's value, or null when it was not given
 * @param help  whether {@code -h}/{@code --help} was asked for (then dir is null)
 */
public record FolderArgs(Path dir, Integer count, boolean help) {

    /** The model: the count option (checked as a positive count when met), the folder, -h/--help. */
    public static CommandSpec spec(String name, String countOption, String countLabel) {
        return CommandSpec.create().name(name)
                .addOption(CommandArgs.convertedOption(countLabel, Integer.class,
                        v -> CommandArgs.positiveCount(v, countOption), countOption))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("DIR"));
    }

    /** args parsed against spec; noFolder is the sentence for a command line without a folder. */
    public static FolderArgs parse(CommandSpec spec, String countOption, String[] args, String noFolder) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec, args);
        } catch (ArgsProblem p) {
            throw new IllegalArgumentException(p.asUnknownArgument());
        }
        if (parsed.isUsageHelpRequested()) {
            return new FolderArgs(null, null, true);
        }
        List<String> operands = CommandArgs.operands(parsed);
        if (operands.isEmpty()) {
            throw new IllegalArgumentException(noFolder);
        }
        if (operands.size() > 1) {
            throw new IllegalArgumentException("unknown argument \"" + operands.get(1) + "\"");
        }
        return new FolderArgs(Path.of(operands.get(0)), parsed.matchedOptionValue(countOption, null), false);
    }
}
