package dev.weft.launcher.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The parsed command line of {@code weft run}:
 * {@code --seed N [--strategy random|rr] [--no-sched] [--trace] [--stats] [--shim P]
 * [--fsync-lies] [--enospc-after BYTES] [--torn-writes PPM] [--strict] [--keep-aslr] [--host-pids]
 * -- prog args...}.
 */
public record RunOptions(long seed, String strategy, boolean noSched, boolean trace, boolean stats,
        Optional<Path> shim, boolean fsyncLies, long enospcAfter, long tornWritesPpm, boolean strict,
        boolean keepAslr, boolean hostPids, List<String> command) {

    public static final String USAGE = "usage: weft run --seed N [--strategy random|rr] [--no-sched] [--trace] [--stats]"
            + " [--shim PATH] [--fsync-lies] [--enospc-after BYTES] [--torn-writes PPM] [--strict] [--keep-aslr]"
            + " [--host-pids] -- prog [args...]";

    /** A user mistake on the command line; the message says what is wrong. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    public RunOptions {
        command = List.copyOf(command);
    }

    public static RunOptions parse(String[] args) throws UsageException {
        Long seed = null;
        String strategy = "random";
        boolean noSched = false;
        boolean trace = false;
        boolean stats = false;
        Path shim = null;
        boolean fsyncLies = false;
        long enospc = 0;
        long torn = 0;
        boolean strict = false;
        boolean keepAslr = false;
        boolean hostPids = false;
        List<String> command = new ArrayList<>();
        int i = 0;
        while (i < args.length) {
            String a = args[i];
            if (a.equals("--")) {
                for (i++; i < args.length; i++) {
                    command.add(args[i]);
                }
                break;
            }
            String inlineValue = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                inlineValue = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "--seed" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    try {
                        seed = SeedText.parse(v);
                    } catch (SeedText.InvalidSeedException e) {
                        throw new UsageException("--seed \"" + v + "\": " + e.getMessage());
                    }
                }
                case "--strategy" -> {
                    String v = inlineValue != null ? inlineValue : value(args, i++, a);
                    strategy = switch (v) {
                        case "random", "rand" -> "random";
                        case "rr", "round-robin", "roundrobin" -> "rr";
                        default -> throw new UsageException("--strategy \"" + v + "\": expected 'random' or 'rr'");
                    };
                }
                case "--shim" -> shim = Path.of(inlineValue != null ? inlineValue : value(args, i++, a));
                case "--enospc-after" -> enospc = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                case "--torn-writes" -> {
                    torn = number(a, inlineValue != null ? inlineValue : value(args, i++, a));
                    if (torn > 1_000_000) {
                        throw new UsageException("--torn-writes " + torn + ": at most 1000000 (parts per million)");
                    }
                }
                case "--no-sched" -> noSched = flag(a, inlineValue);
                case "--trace" -> trace = flag(a, inlineValue);
                case "--stats" -> stats = flag(a, inlineValue);
                case "--fsync-lies" -> fsyncLies = flag(a, inlineValue);
                case "--strict" -> strict = flag(a, inlineValue);
                case "--keep-aslr" -> keepAslr = flag(a, inlineValue);
                case "--host-pids" -> hostPids = flag(a, inlineValue);
                default -> {
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    // the first non-option word starts the program (the "--" is optional)
                    for (; i < args.length; i++) {
                        command.add(args[i]);
                    }
                    continue;
                }
            }
            i++;
        }
        if (seed == null) {
            throw new UsageException("--seed is required");
        }
        if (command.isEmpty()) {
            throw new UsageException("no program given after --");
        }
        return new RunOptions(seed, strategy, noSched, trace, stats, Optional.ofNullable(shim), fsyncLies, enospc, torn,
                strict, keepAslr, hostPids, command);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i + 1 >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i + 1];
    }

    private static boolean flag(String option, String inlineValue) throws UsageException {
        if (inlineValue != null) {
            throw new UsageException(option + " takes no value");
        }
        return true;
    }

    private static long number(String option, String v) throws UsageException {
        if (!v.matches("\\+?[0-9]+")) {
            throw new UsageException(option + " \"" + v + "\": expected a non-negative integer");
        }
        try {
            return Long.parseUnsignedLong(v.startsWith("+") ? v.substring(1) : v);
        } catch (NumberFormatException e) {
            throw new UsageException(option + " \"" + v + "\": too large");
        }
    }
}
