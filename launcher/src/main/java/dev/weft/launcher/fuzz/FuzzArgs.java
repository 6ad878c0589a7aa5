package dev.weft.launcher.fuzz;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.cli.CommandArgs.BadValue;
import dev.weft.launcher.campaign.Shard;
import dev.weft.text.RustText;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The parsed command line of {@code weft fuzz} (fuzz.md §1), read with its picocli model ({@link #spec}). Override
 * fields are null when not given. Each value is read when its option is met, so parsing stops at the first error in
 * command-line order, whose text (without the {@code weft fuzz: } prefix) is kept.
 */
final class FuzzArgs {

    String config;
    Long seedStart;
    Long seedCount;
    Long timeBudget;
    Long jobs;
    String out;
    boolean noShrink;
    String regressions;
    /** --max-output: bound on the bytes of all reproducers together. */
    Long maxOutput;
    /** --shard I/N: sweep only this shard and write its sweep-shard.json (null: the whole run). */
    Shard shard;
    boolean help;
    /** The first error, or null. */
    String error;
    /** True if the usage text should follow the error after a blank line. */
    boolean errorWithUsage;

    /** {@code --seeds START:COUNT}. */
    record SeedRange(long start, long count) {
    }

    /** The picocli model of {@code weft fuzz} (without {@code fuzz merge}, which {@link FuzzMerge} reads). */
    static CommandSpec spec() {
        return CommandSpec.create().name("fuzz")
                .addOption(CommandArgs.valueOption("<FILE>", "--config"))
                .addOption(CommandArgs.convertedOption("<START:COUNT>", SeedRange.class, FuzzArgs::seeds, "--seeds"))
                .addOption(CommandArgs.convertedOption("<SEC>", Long.class,
                        v -> u64(v, "--time-budget", "not seconds"), "--time-budget"))
                .addOption(CommandArgs.convertedOption("<N>", Long.class, v -> u64(v, "--jobs", "not a count"), "--jobs"))
                .addOption(CommandArgs.valueOption("<DIR>", "--out"))
                .addOption(CommandArgs.flag("--no-shrink"))
                .addOption(CommandArgs.valueOption("<FILE>", "--regressions"))
                .addOption(CommandArgs.convertedOption("<BYTES>", Long.class,
                        v -> byteCount(v), "--max-output"))
                .addOption(CommandArgs.convertedOption("<I/N>", Shard.class, FuzzArgs::shard, "--shard"))
                .addOption(CommandArgs.helpOption());
    }

    static FuzzArgs parse(String[] args) {
        FuzzArgs a = new FuzzArgs();
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            switch (p.kind()) {
                case MISSING_VALUE -> a.error = p.argument() + " requires a value";
                case BAD_VALUE -> a.error = p.argument();
                default -> {
                    a.error = "unexpected argument " + RustText.debugQuote(p.argument());
                    a.errorWithUsage = true;
                }
            }
            return a;
        }
        if (parsed.isUsageHelpRequested()) {
            a.help = true;
            return a;
        }
        a.config = parsed.matchedOptionValue("--config", null);
        SeedRange seeds = parsed.matchedOptionValue("--seeds", null);
        if (seeds != null) {
            a.seedStart = seeds.start();
            a.seedCount = seeds.count();
        }
        a.timeBudget = parsed.matchedOptionValue("--time-budget", null);
        a.jobs = parsed.matchedOptionValue("--jobs", null);
        a.out = parsed.matchedOptionValue("--out", null);
        a.noShrink = parsed.hasMatchedOption("--no-shrink");
        a.regressions = parsed.matchedOptionValue("--regressions", null);
        a.maxOutput = parsed.matchedOptionValue("--max-output", null);
        a.shard = parsed.matchedOptionValue("--shard", null);
        if (a.config == null) {
            a.error = "--config is required";
            a.errorWithUsage = true;
        }
        return a;
    }

    private static SeedRange seeds(String v) {
        int colon = v.indexOf(':');
        if (colon < 0) {
            throw new BadValue("--seeds " + RustText.debugQuote(v) + ": expected START:COUNT");
        }
        String s = v.substring(0, colon);
        String n = v.substring(colon + 1);
        return new SeedRange(u64(s, "--seeds start", "not a u64"), u64(n, "--seeds count", "not a u64"));
    }

    private static Long byteCount(String v) {
        Long n = u64(v, "--max-output", "not a byte count");
        if (n < 0) { // above 2^63: more than any disk
            throw new BadValue("--max-output " + RustText.debugQuote(v) + ": not a byte count");
        }
        return n;
    }

    private static Shard shard(String v) {
        try {
            return Shard.parse(v);
        } catch (IllegalArgumentException e) {
            throw new BadValue(e.getMessage());
        }
    }

    /** {@code v} as a u64 (held in a long's bits), or a {@link BadValue} saying {@code what "v": why}. */
    private static Long u64(String v, String what, String why) {
        try {
            return RustText.parseU64(v);
        } catch (NumberFormatException e) {
            throw new BadValue(what + " " + RustText.debugQuote(v) + ": " + why);
        }
    }
}
