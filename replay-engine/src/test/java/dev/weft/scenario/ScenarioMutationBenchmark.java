package dev.weft.scenario;

import java.util.Map;
import java.util.TreeMap;

/**
 * Benchmark mode of the mutation property: 1,000,000 mutated scenarios (or args[0]), printing the
 * outcome counts and throughput. Run with
 * {@code java -cp replay-engine/target/classes:replay-engine/target/test-classes:<jackson-core> dev.weft.scenario.ScenarioMutationBenchmark}.
 */
public final class ScenarioMutationBenchmark {

    private ScenarioMutationBenchmark() {
    }

    public static void main(String[] args) {
        int cases = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1L;
        long t0 = System.nanoTime();
        Map<String, Integer> accepted = new TreeMap<>();
        var counts = ScenarioMutationTest.run(seed, cases, accepted);
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("scenario mutation benchmark: %d inputs, seed %d, %.2f s, %.0f inputs/s%n", cases, seed, secs, cases / secs);
        System.out.println("  accepted: " + accepted.getOrDefault("accepted", 0));
        counts.forEach((k, v) -> System.out.println("  " + k + ": " + v));
        System.out.println("  unexpected exceptions: 0");
    }
}
