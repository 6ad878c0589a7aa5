package dev.weft.launcher.fuzz;

import dev.weft.launcher.campaign.Shard;
import dev.weft.text.RustText;

/**
 * The parsed command line of {@code weft fuzz} (fuzz.md §1). Override fields are null when not given.
 * Parsing stops at the first error, whose text (without the {@code weft fuzz: } prefix) is kept.
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

    static FuzzArgs parse(String[] args) {
        FuzzArgs a = new FuzzArgs();
        for (int i = 0; i < args.length && a.error == null && !a.help; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> a.help = true;
                case "--no-shrink" -> a.noShrink = true;
                case "--config", "--seeds", "--time-budget", "--jobs", "--out", "--regressions", "--max-output",
                        "--shard" -> {
                    if (i + 1 >= args.length) {
                        a.error = arg + " requires a value";
                    } else {
                        a.option(arg, args[++i]);
                    }
                }
                default -> {
                    a.error = "unexpected argument " + RustText.debugQuote(arg);
                    a.errorWithUsage = true;
                }
            }
        }
        if (a.error == null && !a.help && a.config == null) {
            a.error = "--config is required";
            a.errorWithUsage = true;
        }
        return a;
    }

    private void option(String flag, String v) {
        switch (flag) {
            case "--config" -> config = v;
            case "--seeds" -> {
                int colon = v.indexOf(':');
                if (colon < 0) {
                    error = "--seeds " + RustText.debugQuote(v) + ": expected START:COUNT";
                    return;
                }
                String s = v.substring(0, colon);
                String n = v.substring(colon + 1);
                Long start = u64(s);
                if (start == null) {
                    error = "--seeds start " + RustText.debugQuote(s) + ": not a u64";
                    return;
                }
                Long count = u64(n);
                if (count == null) {
                    error = "--seeds count " + RustText.debugQuote(n) + ": not a u64";
                    return;
                }
                seedStart = start;
                seedCount = count;
            }
            case "--time-budget" -> {
                timeBudget = u64(v);
                if (timeBudget == null) error = "--time-budget " + RustText.debugQuote(v) + ": not seconds";
            }
            case "--jobs" -> {
                jobs = u64(v);
                if (jobs == null) error = "--jobs " + RustText.debugQuote(v) + ": not a count";
            }
            case "--out" -> out = v;
            case "--max-output" -> {
                maxOutput = u64(v);
                if (maxOutput == null || maxOutput < 0) {
                    maxOutput = null;
                    error = "--max-output " + RustText.debugQuote(v) + ": not a byte count";
                }
            }
            case "--shard" -> {
                try {
                    shard = Shard.parse(v);
                } catch (IllegalArgumentException e) {
                    error = e.getMessage();
                }
            }
            default -> regressions = v;
        }
    }

    private static Long u64(String s) {
        try {
            return RustText.parseU64(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
