package dev.weft.mutation;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Runs N seeded cases of one format on all cores. Case i's mutant comes from its own random stream (seeded by
 * the sweep seed, the format name and i), so a failure is reproduced by its case number alone, whatever the
 * thread count. Counts accepted and rejected cases and keeps every failure in case order.
 */
final class MutationSweep {

    /** One case that threw something unexpected or rejected its input without saying where. */
    record Failure(int caseIndex, String problem, byte[] input) {

        String describe() {
            return "case " + caseIndex + ": " + problem + "\n    input: " + show(input);
        }
    }

    /** The outcome of a sweep. */
    record Result(String format, int cases, int accepted, int rejected, List<Failure> failures, long nanos, long cpuNanos) {

        String summary() {
            return String.format(java.util.Locale.ROOT, "mutation sweep %-12s %,9d cases: %,9d accepted, %,9d rejected, "
                    + "%d failing; %.1f s wall, %.1f s cpu", format, cases, accepted, rejected, failures.size(), nanos / 1e9,
                    cpuNanos / 1e9);
        }

        /** The summary, then one line per class of failure: its count and its first case. */
        String failureReport() {
            List<String> report = new ArrayList<>();
            for (Map.Entry<String, List<Failure>> c : classes(failures).entrySet()) {
                report.add(c.getValue().size() + " x " + c.getValue().get(0).describe());
            }
            return summary() + "\n  " + String.join("\n  ", report);
        }
    }

    static final long SEED = 0x5EED_12L;

    private MutationSweep() {
    }

    static SplittableRandom randomFor(String format, int caseIndex) {
        long h = SEED;
        for (byte b : format.getBytes(StandardCharsets.UTF_8)) h = (h ^ b) * 0x100000001b3L;
        return new SplittableRandom(h * 0x9E3779B97F4A7C15L + caseIndex);
    }

    static Result run(Format format, int cases) {
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        AtomicInteger accepted = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        List<Failure> failures = new ArrayList<>();
        IntStream.range(0, cases).parallel().forEach(i -> {
            byte[] input = format.mutant(randomFor(format.name(), i));
            String problem;
            try {
                if (format.feed(input) == null) accepted.incrementAndGet();
                else rejected.incrementAndGet();
                return;
            } catch (Format.Unlocated e) {
                problem = "error names no line, offset, op or member: " + e.getMessage();
            } catch (Throwable t) {
                problem = "unexpected " + t;
            }
            synchronized (failures) {
                failures.add(new Failure(i, problem, input));
            }
        });
        failures.sort((a, b) -> Integer.compare(a.caseIndex(), b.caseIndex()));
        return new Result(format.name(), cases, accepted.get(), rejected.get(), List.copyOf(failures),
                System.nanoTime() - t0, processCpuNanos() - cpu0);
    }

    /** Failures grouped by their problem with numbers blurred, with a count and the first case of each. */
    static Map<String, List<Failure>> classes(List<Failure> failures) {
        Map<String, List<Failure>> byClass = new TreeMap<>();
        for (Failure f : failures) {
            String key = f.problem().replaceAll("\\d+", "N");
            key = key.substring(0, Math.min(key.length(), 140));
            byClass.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
        }
        return byClass;
    }

    private static long processCpuNanos() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    /** The input as escaped text, cut to 300 characters. */
    static String show(byte[] input) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < input.length && sb.length() < 300; i++) {
            int b = input[i] & 0xff;
            if (b >= 0x20 && b < 0x7f && b != '\\') sb.append((char) b);
            else sb.append(String.format("\\x%02x", b));
        }
        if (sb.length() >= 300) sb.append("... (").append(input.length).append(" bytes)");
        return sb.toString();
    }
}
