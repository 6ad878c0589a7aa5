package dev.weft.launcher.campaign;

import dev.weft.launcher.WeftCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code weft campaign verify DIR}: every kept recording of a campaign folder (a single run's, a shard's or a
 * merged one) must replay identical and get, from the campaign's checker, the verdict and first report its result
 * says. Answers "do the recordings I archive or hand over say what the report says" without re-running anything.
 */
final class Verification {

    private Verification() {
    }

    /** Checks the folder; prints one line per problem and a summary. Returns the number of problems. */
    static int verify(Path dir, PrintStream out) throws IOException, CampaignConfig.ConfigException, InterruptedException {
        String canonical = Files.readString(dir.resolve(CampaignCommand.CONFIG_FILE), StandardCharsets.UTF_8);
        CampaignConfig config = CampaignConfig.parseCanonical(canonical.getBytes(StandardCharsets.UTF_8));
        RunExecutor executor = new RunExecutor(config);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (PlannedRun r : PlannedRun.plan(config, config.seedStart(), config.seedCount())) {
            RunResult res = RunResult.read(dir.resolve(r.stem() + RunResult.SUFFIX));
            if (res == null || !res.kept()) {
                continue;
            }
            checked++;
            String name = r.stem() + ".weftlog";
            Path log = dir.resolve(name);
            if (!Files.isRegularFile(log)) {
                problems.add(name + ": kept by its result but missing");
                continue;
            }
            String replay = replayProblem(log);
            if (replay != null) {
                problems.add(name + ": " + replay);
                continue;
            }
            RunResult judged = executor.judge(log.toString());
            if (!judged.verdict().equals(res.verdict()) || !judged.identity().equals(res.identity())) {
                problems.add(name + ": the checker now says " + judged.verdict()
                        + (judged.identity().isEmpty() ? "" : " (" + judged.identity() + ")") + ", the result "
                        + res.verdict() + (res.identity().isEmpty() ? "" : " (" + res.identity() + ")"));
            }
        }
        problems.forEach(out::println);
        out.println(problems.isEmpty()
                ? "verified " + checked + " kept recording(s) in " + dir + ": each replays identical and gets its"
                        + " reported verdict"
                : problems.size() + " of " + checked + " kept recording(s) in " + dir + " do not match the report");
        return problems.size();
    }

    /** Null if {@code weft replay LOG} says identical, else its first line of output (the reason). */
    private static String replayProblem(Path log) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = WeftCommand.REPLAY.run(new String[] {log.toString()}, ps, ps);
        String text = buf.toString(StandardCharsets.UTF_8);
        if (text.contains("no end record")) {
            return "is cut off (no end record): only a prefix replays"; // a kept recording is always complete
        }
        if (code == 0 && text.contains("replay identical")) {
            return null;
        }
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.contains("note:")) {
                return "does not replay identical (exit " + code + "): " + line.strip();
            }
        }
        return "does not replay identical (exit " + code + ")";
    }
}
