package dev.weft.vm;

import dev.weft.text.SeedText;
import java.nio.file.Path;

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

    static VmOptions parse(String verb, String[] args) throws UsageException {
        VmOptions o = new VmOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--seed" -> o.seed = parseSeed(value(args, ++i, a));
                case "--scenario" -> o.scenario = Path.of(value(args, ++i, a));
                case "--out" -> o.out = Path.of(value(args, ++i, a));
                case "--qemu" -> o.qemu = value(args, ++i, a);
                case "--guest" -> o.guest = Path.of(value(args, ++i, a));
                case "--stall-seconds" -> o.stallSeconds = seconds(value(args, ++i, a), a);
                case "--time-bound" -> o.timeBoundSeconds = seconds(value(args, ++i, a), a);
                case "--allow-mismatch" -> o.allowMismatch = true;
                case "--extra-append" -> o.extraAppend = value(args, ++i, a);
                default -> {
                    if (a.startsWith("-") || !verb.equals("replay") || o.runDir != null) {
                        throw new UsageException("unexpected argument '" + a + "'");
                    }
                    o.runDir = Path.of(a);
                }
            }
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

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    /** A 64-bit seed, as every seed is read ({@link SeedText}: decimal or 0x-hex, unsigned). */
    static long parseSeed(String text) throws UsageException {
        try {
            return SeedText.parse(text);
        } catch (SeedText.InvalidSeedException e) {
            throw new UsageException("--seed needs an unsigned 64-bit number (decimal or 0x-hex), got '" + text + "'");
        }
    }

    private static double seconds(String text, String option) throws UsageException {
        try {
            double s = Double.parseDouble(text);
            if (s > 0 && s <= 3600) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs seconds in (0, 3600], got '" + text + "'");
    }
}
