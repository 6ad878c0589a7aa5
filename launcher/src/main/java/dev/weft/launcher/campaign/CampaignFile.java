package dev.weft.launcher.campaign;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import java.util.Map;

/**
 * campaign.json, and report.json's {@code campaign} member: a {@link CampaignConfig} in canonical form (paths
 * resolved, members in this order, optional ones only when set), what a resumed or merged campaign compares byte for
 * byte and {@link CampaignConfig#parse} reads back. Written through {@link CampaignJson} (one member per line).
 *
 * <p>The order is the one older versions wrote ({@code shim} before {@code scenario}), so folders they left keep
 * resuming; {@code window_ns} is written only for a windowed campaign, for the same reason.
 */
@JsonPropertyOrder({"checker", "checker_command", "env", "keep_pass_permille", "matrix", "net", "nodes", "seed_count",
        "seed_start", "shim", "scenario", "target", "time_bound_secs", "watchdog_secs", "window_ns"})
public record CampaignFile(
        @JsonInclude(JsonInclude.Include.NON_NULL) String checker,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonProperty("checker_command") List<String> checkerCommand,
        Map<String, String> env,
        @JsonProperty("keep_pass_permille") int keepPassPermille,
        Map<String, List<String>> matrix,
        String net,
        int nodes,
        @JsonProperty("seed_count") long seedCount,
        @JsonProperty("seed_start") @JsonSerialize(using = CampaignJson.UnsignedWriter.class)
        @JsonDeserialize(using = CampaignJson.UnsignedReader.class) long seedStart,
        @JsonInclude(JsonInclude.Include.NON_NULL) String shim,
        @JsonInclude(JsonInclude.Include.NON_NULL) String scenario,
        List<String> target,
        @JsonProperty("time_bound_secs") long timeBoundSecs,
        @JsonProperty("watchdog_secs") long watchdogSecs,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) @JsonProperty("window_ns") long windowNs) {

    public CampaignFile {
        env = env == null ? Map.of() : env;
        matrix = matrix == null ? Map.of() : matrix;
        target = target == null ? List.of() : target;
    }

    /** The file's text: the root's members one per line. */
    String text() {
        return CampaignJson.write(this, 1);
    }
}
