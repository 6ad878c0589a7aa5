package dev.weft.launcher.campaign;

import java.util.Map;

/**
 * One shard of a campaign: run number i (in plan order) belongs to shard {@code i % count == index}. Round-robin
 * rather than contiguous blocks so every shard gets a similar mix of cells (fix levels differ in run time).
 *
 * @param index 0-based shard index
 * @param count number of shards
 */
public record Shard(int index, int count) {
    public static final Shard ALL = new Shard(0, 1);

    /** Parses {@code k/N} (0 ≤ k < N). */
    public static Shard parse(String text) {
        int slash = text.indexOf('/');
        try {
            if (slash > 0) {
                return of(Integer.parseInt(text.substring(0, slash)), Integer.parseInt(text.substring(slash + 1)),
                        "--shard " + text);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--shard wants k/N with 0 <= k < N, got \"" + text + "\"");
    }

    /**
     * The shard from a batch system's environment when --shard is absent: a Kubernetes Indexed Job
     * ({@code JOB_COMPLETION_INDEX}, {@code JOB_COMPLETIONS}) or a Slurm array ({@code SLURM_ARRAY_TASK_ID} minus
     * {@code SLURM_ARRAY_TASK_MIN}, {@code SLURM_ARRAY_TASK_COUNT}); otherwise the whole campaign.
     */
    public static Shard fromEnvironment(Map<String, String> env) {
        if (env.containsKey("JOB_COMPLETION_INDEX") && env.containsKey("JOB_COMPLETIONS")) {
            return of(parseEnv(env, "JOB_COMPLETION_INDEX"), parseEnv(env, "JOB_COMPLETIONS"), "JOB_COMPLETION_INDEX");
        }
        if (env.containsKey("SLURM_ARRAY_TASK_ID") && env.containsKey("SLURM_ARRAY_TASK_COUNT")) {
            int min = env.containsKey("SLURM_ARRAY_TASK_MIN") ? parseEnv(env, "SLURM_ARRAY_TASK_MIN") : 0;
            return of(parseEnv(env, "SLURM_ARRAY_TASK_ID") - min, parseEnv(env, "SLURM_ARRAY_TASK_COUNT"),
                    "SLURM_ARRAY_TASK_ID");
        }
        return ALL;
    }

    private static int parseEnv(Map<String, String> env, String name) {
        try {
            return Integer.parseInt(env.get(name).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a number: \"" + env.get(name) + "\"");
        }
    }

    private static Shard of(int k, int n, String source) {
        if (n < 1 || k < 0 || k >= n) {
            throw new IllegalArgumentException(source + ": shard " + k + " of " + n + " is out of range (0 <= k < N)");
        }
        return new Shard(k, n);
    }

    boolean owns(long runNumber) {
        return runNumber % count == index;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
