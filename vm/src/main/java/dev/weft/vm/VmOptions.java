package dev.weft.vm;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.text.SeedText;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options of {@code weft vm record} and {@code weft vm replay}. Besides the documented ones, a few exist
 * for tests and experiments: {@code --qemu PATH}, {@code --guest DIR}, {@code --stall-seconds S},
 * {@code --time-bound S}, and for replay {@code --allow-mismatch} and {@code --extra-append WORDS}.
 */
final class VmOptions {

    Long seed;
    Path scenario;
    Path out;
    Path runDir;
    String qemu;
    Path guest;
    double stallSeconds = 10;
    double timeBoundSeconds = 120;
    boolean allowMismatch;
    String extraAppend = "";

    /** A user mistake on the command line. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /**
     * The picocli model of {@code weft vm record} and {@code weft vm replay}: the same options for both ({@link #parse}
     * says which belong to which verb), each value checked when its option is met.
     */
    static CommandSpec spec(String verb) {
        return CommandSpec.create().name(verb)
                .addOption(CommandArgs.convertedOption("N", Long.class, VmOptions::seedValue, "--seed"))
                .addOption(CommandArgs.valueOption("FILE", "--scenario"))
                .addOption(CommandArgs.valueOption("DIR", "--out"))
                .addOption(CommandArgs.valueOption("PATH", "--qemu"))
                .addOption(CommandArgs.valueOption("DIR", "--guest"))
                .addOption(CommandArgs.convertedOption("S", Double.class, v -> seconds(v, "--stall-seconds"),
                        "--stall-seconds"))
                .addOption(CommandArgs.convertedOption("S", Double.class, v -> seconds(v, "--time-bound"),
                        "--time-bound"))
                .addOption(CommandArgs.flag("--allow-mismatch"))
                .addOption(CommandArgs.valueOption("WORDS", "--extra-append"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("RUN_DIR"));
    }

    static VmOptions parse(String verb, String[] args) throws UsageException {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(verb), args);
        } catch (ArgsProblem p) {
            throw new UsageException(switch (p.kind()) {
                case MISSING_VALUE -> p.argument() + " needs a value";
                case UNKNOWN_OPTION, UNEXPECTED_ARGUMENT -> "unexpected argument '" + p.argument() + "'";
                case BAD_VALUE, OTHER -> p.argument();
            });
        }
        VmOptions o = new VmOptions();
        o.seed = parsed.matchedOptionValue("--seed", null);
        o.scenario = path(parsed.matchedOptionValue("--scenario", null));
        o.out = path(parsed.matchedOptionValue("--out", null));
        o.qemu = parsed.matchedOptionValue("--qemu", null);
        o.guest = path(parsed.matchedOptionValue("--guest", null));
        o.stallSeconds = parsed.matchedOptionValue("--stall-seconds", o.stallSeconds);
        o.timeBoundSeconds = parsed.matchedOptionValue("--time-bound", o.timeBoundSeconds);
        o.allowMismatch = parsed.hasMatchedOption("--allow-mismatch");
        o.extraAppend = parsed.matchedOptionValue("--extra-append", o.extraAppend);
        List<String> operands = CommandArgs.operands(parsed);
        int allowed = verb.equals("replay") ? 1 : 0; // replay's run directory
        if (operands.size() > allowed) {
            throw new UsageException("unexpected argument '" + operands.get(allowed) + "'");
        }
        if (!operands.isEmpty()) {
            o.runDir = Path.of(operands.get(0));
        }
        if (verb.equals("record")) {
            if (o.seed == null) {
                throw new UsageException("record needs --seed N");
            }
            if (o.allowMismatch || !o.extraAppend.isEmpty()) {
                throw new UsageException("--allow-mismatch and --extra-append are replay options");
            }
        } else if (o.runDir == null) {
            throw new UsageException("replay needs the run directory");
        } else if (o.seed != null || o.scenario != null || o.out != null) {
            throw new UsageException("replay takes its seed, scenario and files from the run directory");
        }
        return o;
    }

    private static Path path(String name) {
        return name == null ? null : Path.of(name);
    }

    /** A 64-bit seed, as every seed is read ({@link SeedText}: decimal or 0x-hex, unsigned). */
    private static Long seedValue(String text) {
        try {
            return SeedText.parse(text);
        } catch (SeedText.InvalidSeedException e) {
            throw new CommandArgs.BadValue("--seed needs an unsigned 64-bit number (decimal or 0x-hex), got '" + text
                    + "'");
        }
    }

    private static Double seconds(String text, String option) {
        try {
            double s = Double.parseDouble(text);
            if (s > 0 && s <= 3600) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CommandArgs.BadValue(option + " needs seconds in (0, 3600], got '" + text + "'");
    }
}
