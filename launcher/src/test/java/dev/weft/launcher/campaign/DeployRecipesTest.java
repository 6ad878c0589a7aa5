package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.weft.testsupport.NativeBuild;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** deploy/: the Kubernetes Indexed Job, the container recipe and the Actions matrix say what docs/campaigns.md says. */
class DeployRecipesTest {
    static final Path DEPLOY = NativeBuild.root().resolve("deploy");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theJobIsIndexedAndEachPodRunsTheShardOfItsIndex() throws Exception {
        JsonNode job = YAML.readTree(DEPLOY.resolve("k8s/campaign-job.yaml").toFile());
        assertEquals("batch/v1", job.at("/apiVersion").asText());
        assertEquals("Job", job.at("/kind").asText());
        JsonNode spec = job.at("/spec");
        assertEquals("Indexed", spec.at("/completionMode").asText());
        int completions = spec.at("/completions").asInt();
        assertTrue(completions > 1 && spec.at("/parallelism").asInt() == completions, spec.toString());
        JsonNode pod = spec.at("/template/spec");
        assertTrue(pod.at("/securityContext/runAsNonRoot").asBoolean());
        JsonNode c = pod.at("/containers/0");
        String command = c.at("/command").toString() + " " + c.at("/args").toString();
        assertTrue(command.contains("--shard \\\"${JOB_COMPLETION_INDEX}/${JOB_COMPLETIONS}\\\""), command);
        assertTrue(command.contains("--out \\\"/results/shard-${JOB_COMPLETION_INDEX}\\\""), command);
        // JOB_COMPLETIONS is not set by Kubernetes itself: the manifest must set it to the completions
        String completionsEnv = null;
        for (JsonNode e : c.at("/env")) {
            if (e.at("/name").asText().equals("JOB_COMPLETIONS")) {
                completionsEnv = e.at("/value").asText();
            }
        }
        assertEquals(Integer.toString(completions), completionsEnv);
        // the shard each pod computes covers every run exactly once
        for (long run = 0; run < 100; run++) {
            int owners = 0;
            for (int k = 0; k < completions; k++) {
                Shard s = Shard.fromEnvironment(Map.of("JOB_COMPLETION_INDEX", Integer.toString(k), "JOB_COMPLETIONS",
                        Integer.toString(completions)));
                owners += s.owns(run) ? 1 : 0;
            }
            assertEquals(1, owners);
        }
        assertTrue(command.contains("/opt/weft/campaigns/chord.json"), command);
    }

    @Test
    void theContainerRecipeBuildsAJlinkedJreAndRunsAsNonRoot() throws Exception {
        List<String> lines = Files.readAllLines(DEPLOY.resolve("container/Containerfile"), StandardCharsets.UTF_8);
        List<String> instructions = new ArrayList<>();
        for (String l : lines) {
            if (!l.isBlank() && !l.startsWith("#") && !l.startsWith(" ")) {
                instructions.add(l.split(" ")[0]);
            }
        }
        assertTrue(instructions.stream().allMatch(i -> List.of("FROM", "RUN", "WORKDIR", "COPY", "ENV", "USER",
                "ENTRYPOINT", "CMD").contains(i)), instructions.toString());
        String text = String.join("\n", lines);
        assertTrue(text.contains("jlink --add-modules java.base"), "a jlink'd JRE");
        assertTrue(text.contains("libweft_shim.so") && text.contains("examples"), "the shim and the targets");
        assertEquals("USER 10001", lines.stream().filter(l -> l.startsWith("USER")).reduce((a, b) -> b).orElseThrow(),
                "the last USER is not root");
        // every file the recipe copies from the repository (not from the build stage) exists
        Matcher m = Pattern.compile("(?m)^COPY (?!--from)(\\S+) ").matcher(text);
        while (m.find()) {
            if (!m.group(1).equals(".")) {
                assertTrue(Files.exists(DEPLOY.getParent().resolve(m.group(1))), m.group(1));
            }
        }
        // the campaign configs in the image are valid and point at the image's targets
        for (String name : List.of("chord.json", "raft.json", "chord-windowed.json", "raft-windowed.json")) {
            CampaignConfig cfg = CampaignConfig.parse(Files.readAllBytes(DEPLOY.resolve("container/campaigns/" + name)),
                    Path.of("/"));
            assertTrue(cfg.target().get(0).startsWith("/opt/weft/examples/"), cfg.target().toString());
            cfg.checkNet(); // a windowed config's window fits its net's minimum latency
            CampaignConfig local = CampaignConfig.parse(Files.readAllBytes(DEPLOY.resolve("campaigns/" + name)),
                    DEPLOY.resolve("campaigns"));
            assertEquals(local.canonicalJson().replace(DEPLOY.getParent().resolve("shim-native/target").toString(),
                    "/opt/weft"), cfg.canonicalJson(), name + ": the image's copy differs from deploy/campaigns/ beyond paths");
        }
    }

    @Test
    void theActionsExampleShardsWithItsMatrixAndMergesEveryShard() throws Exception {
        JsonNode wf = YAML.readTree(DEPLOY.resolve("github-actions/campaign.yml").toFile());
        JsonNode shards = wf.at("/jobs/shard/strategy/matrix/shard");
        int n = shards.size();
        for (int k = 0; k < n; k++) {
            assertEquals(k, shards.get(k).asInt());
        }
        String run = wf.at("/jobs/shard/steps").toString();
        assertTrue(run.contains("--shard ${{ matrix.shard }}/" + n), run);
        String merge = wf.at("/jobs/merge/steps").toString();
        StringBuilder dirs = new StringBuilder();
        for (int k = 0; k < n; k++) {
            dirs.append(" shard-").append(k);
        }
        assertTrue(merge.contains("weft campaign merge report" + dirs), merge);
        assertEquals("shard", wf.at("/jobs/merge/needs").asText());
    }
}
