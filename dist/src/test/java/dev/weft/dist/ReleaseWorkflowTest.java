package dev.weft.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The GitHub workflows parse as YAML and have the shape GitHub Actions needs (a trigger, jobs with runs-on and
 * steps that each use an action or run a command); the release workflow builds and smoke-tests the .dmg and the
 * .msi on their own OSes. yamllint, when installed, lints them too (CI installs it).
 */
class ReleaseWorkflowTest {

    private static final Path WORKFLOWS = Repo.ROOT.resolve(".github/workflows");

    private static List<Path> workflows() throws Exception {
        try (var s = Files.list(WORKFLOWS)) {
            return s.filter(p -> p.toString().endsWith(".yml") || p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @Test
    void everyWorkflowIsWellFormed() throws Exception {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        List<Path> files = workflows();
        assertFalse(files.isEmpty());
        for (Path f : files) {
            JsonNode root = yaml.readTree(f.toFile());
            assertTrue(root.hasNonNull("name") && root.hasNonNull("on") && root.get("jobs").isObject(), f + ": name, on, jobs");
            root.get("jobs").fields().forEachRemaining(job -> {
                JsonNode j = job.getValue();
                assertTrue(j.hasNonNull("runs-on"), f + " job " + job.getKey() + ": runs-on");
                assertTrue(j.get("steps").isArray() && j.get("steps").size() > 0, f + " job " + job.getKey() + ": steps");
                for (JsonNode step : j.get("steps")) {
                    assertTrue(step.has("uses") ^ step.has("run"), f + " job " + job.getKey() + ": a step needs uses xor run: " + step);
                }
            });
        }
    }

    @Test
    void releaseBuildsAndSmokeTestsDmgAndMsiOnTheirOses() throws Exception {
        JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(WORKFLOWS.resolve("release.yml").toFile());
        Set<String> runners = new TreeSet<>();
        List<String> commands = new ArrayList<>();
        root.get("jobs").forEach(j -> {
            JsonNode os = j.path("strategy").path("matrix").path("os");
            if (os.isArray()) {
                os.forEach(o -> runners.add(o.asText()));
            } else {
                runners.add(j.get("runs-on").asText());
            }
            j.get("steps").forEach(s -> commands.add(s.path("run").asText("")));
        });
        assertTrue(runners.stream().anyMatch(r -> r.startsWith("macos")), "a macOS runner: " + runners);
        assertTrue(runners.stream().anyMatch(r -> r.startsWith("windows")), "a Windows runner: " + runners);
        String all = String.join("\n", commands);
        assertTrue(all.contains("jpackage/build.sh"), "builds with jpackage/build.sh");
        assertTrue(all.contains("jpackage/smoke-test.sh"), "runs the smoke test");
    }

    @Test
    void yamllintAcceptsTheWorkflowsWhereInstalled() throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/yamllint"))) {
            return; // CI installs yamllint (.ci/apt-packages.txt); the parse test above runs everywhere
        }
        Repo.Result r = Repo.bash("yamllint -s -c .github/yamllint.yml .github/workflows", java.util.Map.of(), WORKFLOWS);
        assertEquals(0, r.code(), r.output());
    }
}
